import { parse } from 'yaml';
import { renderCrd } from '../crd/renderCrd';
import { stackCrd, STACK_CONVERSION_SERVICE } from './crd';
import { STACK_CONDITIONS } from './v1alpha2';
import { upstreamFile } from './__fixtures__/upstream';

type Json = Record<string, any>;

const crd = renderCrd(stackCrd) as Json;
const versionOf = (c: Json, name: string) =>
  c.spec.versions.find((v: Json) => v.name === name);

const UPSTREAM_V1ALPHA1 = parse(
  upstreamFile(
    'crds',
    'llamastack-llamastack.io_llamastackdistributions.v1alpha1.yaml',
  ),
) as Json;

const STRING_FORMATS = new Set([
  'date-time',
  'date',
  'byte',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Lists the ways `ours` would reject or change an object `upstream` accepts:
 * a missing field (unless ours preserves unknown fields there), another
 * type, an extra required field, enum value, bound, pattern, string format,
 * CEL rule or list type, or another default.
 */
function stricterThan(upstream: Json, ours: Json, path = ''): string[] {
  const problems: string[] = [];
  const at = path || '(root)';
  if (!ours) return [`${at}: missing`];
  const intOrString = (s: Json) => s['x-kubernetes-int-or-string'] === true;
  if (intOrString(upstream) !== intOrString(ours))
    problems.push(`${at}: int-or-string differs`);
  else if (upstream.type && ours.type && upstream.type !== ours.type)
    problems.push(`${at}: type ${ours.type} instead of ${upstream.type}`);
  for (const key of ours.required ?? []) {
    if (!(upstream.required ?? []).includes(key))
      problems.push(`${at}: requires ${key}`);
  }
  if (ours.enum) {
    const extra = (upstream.enum ?? ['(any)']).filter(
      (v: unknown) => !ours.enum.includes(v),
    );
    if (extra.length) problems.push(`${at}: enum lacks ${extra.join(', ')}`);
  }
  for (const [key, looser] of [
    ['minimum', 'lower'],
    ['minLength', 'lower'],
    ['minItems', 'lower'],
    ['minProperties', 'lower'],
    ['maximum', 'higher'],
    ['maxLength', 'higher'],
    ['maxItems', 'higher'],
    ['maxProperties', 'higher'],
  ] as const) {
    if (ours[key] === undefined) continue;
    const theirs = upstream[key];
    const ok =
      theirs !== undefined &&
      (looser === 'lower' ? ours[key] <= theirs : ours[key] >= theirs);
    if (!ok)
      problems.push(
        `${at}: ${key} ${ours[key]} (upstream ${theirs ?? 'none'})`,
      );
  }
  if (ours.pattern && ours.pattern !== upstream.pattern)
    problems.push(`${at}: pattern ${ours.pattern}`);
  if (
    ours.format &&
    STRING_FORMATS.has(ours.format) &&
    ours.format !== upstream.format
  )
    problems.push(`${at}: format ${ours.format}`);
  const theirRules = new Set(
    (upstream['x-kubernetes-validations'] ?? []).map((r: Json) => r.rule),
  );
  for (const rule of ours['x-kubernetes-validations'] ?? []) {
    if (!theirRules.has(rule.rule))
      problems.push(`${at}: extra CEL rule ${rule.rule}`);
  }
  const listType = (s: Json) => s['x-kubernetes-list-type'] ?? 'atomic';
  if (ours.type === 'array' && listType(ours) !== listType(upstream))
    problems.push(`${at}: list type ${listType(ours)}`);
  if (JSON.stringify(ours.default) !== JSON.stringify(upstream.default)) {
    problems.push(
      `${at}: default ${JSON.stringify(
        ours.default,
      )} (upstream ${JSON.stringify(upstream.default)})`,
    );
  }
  const preserves = ours['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [key, child] of Object.entries(
    (upstream.properties ?? {}) as Record<string, Json>,
  )) {
    const mine = ours.properties?.[key];
    if (!mine) {
      if (!preserves) problems.push(`${path}.${key}: missing`);
      continue;
    }
    problems.push(...stricterThan(child, mine, `${path}.${key}`));
  }
  if (upstream.items)
    problems.push(...stricterThan(upstream.items, ours.items, `${path}[]`));
  if (typeof upstream.additionalProperties === 'object') {
    problems.push(
      ...stricterThan(
        upstream.additionalProperties,
        ours.additionalProperties,
        `${path}.*`,
      ),
    );
  }
  return problems;
}

describe('LlamaStackDistribution v1alpha1 against the released upstream CRD', () => {
  const theirs = versionOf(UPSTREAM_V1ALPHA1, 'v1alpha1');
  const ours = versionOf(crd, 'v1alpha1');

  it('is nowhere stricter than upstream, with the same defaults', () => {
    expect(
      stricterThan(theirs.schema.openAPIV3Schema, ours.schema.openAPIV3Schema),
    ).toEqual([]);
  });

  it('has the same names, scope and printer columns', () => {
    expect(crd.spec.names).toEqual(UPSTREAM_V1ALPHA1.spec.names);
    expect(crd.spec.scope).toBe(UPSTREAM_V1ALPHA1.spec.scope);
    expect(ours.additionalPrinterColumns).toEqual(
      theirs.additionalPrinterColumns,
    );
    expect(ours.subresources).toEqual(theirs.subresources);
  });

  it('the comparison finds a stricter schema (a check of the check)', () => {
    const stricter = JSON.parse(JSON.stringify(ours.schema.openAPIV3Schema));
    stricter.properties.spec.properties.server.properties.workers.minimum = 2;
    stricter.properties.spec.properties.server.required.push('storage');
    delete stricter.properties.spec.properties.network.properties.allowedFrom;
    expect(
      stricterThan(theirs.schema.openAPIV3Schema, stricter).sort(),
    ).toEqual([
      '.spec.network.allowedFrom: missing',
      '.spec.server.workers: minimum 2 (upstream 1)',
      '.spec.server: requires storage',
    ]);
  });
});

describe('the LlamaStackDistribution CRD', () => {
  it('stores v1alpha2 and serves both versions (FR-081, FR-082)', () => {
    expect(
      crd.spec.versions.map((v: Json) => [v.name, v.served, v.storage]),
    ).toEqual([
      ['v1alpha1', true, false],
      ['v1alpha2', true, true],
    ]);
  });

  it('converts through the stack operator webhook (FR-080)', () => {
    expect(crd.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { service: { ...STACK_CONVERSION_SERVICE } },
      },
    });
  });

  it("has seed 004's v1alpha2 printer columns", () => {
    expect(versionOf(crd, 'v1alpha2').additionalPrinterColumns).toEqual([
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      {
        name: 'Distribution',
        type: 'string',
        jsonPath: '.status.resolvedDistribution.image',
        priority: 1,
      },
      {
        name: 'Config',
        type: 'string',
        jsonPath: '.status.configGeneration.configMapName',
        priority: 1,
      },
      {
        name: 'Providers',
        type: 'integer',
        jsonPath: '.status.configGeneration.providerCount',
      },
      {
        name: 'Available',
        type: 'integer',
        jsonPath: '.status.availableReplicas',
      },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
  });

  it('states FR-070 to FR-072 as CEL rules of v1alpha2', () => {
    const spec = versionOf(crd, 'v1alpha2').schema.openAPIV3Schema.properties
      .spec;
    const rules = (node: Json) =>
      (node['x-kubernetes-validations'] ?? []).map((r: Json) => r.rule);
    expect(rules(spec)).toEqual([
      '!has(self.overrideConfig) || !has(self.providers)',
      '!has(self.overrideConfig) || !has(self.resources)',
      '!has(self.overrideConfig) || !has(self.storage)',
      '!has(self.overrideConfig) || !has(self.disabled)',
    ]);
    for (const api of [
      'inference',
      'safety',
      'vectorIo',
      'toolRuntime',
      'telemetry',
    ]) {
      expect(rules(spec.properties.providers.properties[api])).toContain(
        'self.size() <= 1 || self.all(p, has(p.id))',
      );
    }
    expect(rules(spec.properties.providers)[0]).toMatch(
      /\.all\(x, .*\.exists_one\(y, y == x\)\)$/,
    );
  });

  it('keeps the v1alpha2 status of seed 004', () => {
    const status = versionOf(crd, 'v1alpha2').schema.openAPIV3Schema.properties
      .status.properties;
    expect(Object.keys(status).sort()).toEqual([
      'availableReplicas',
      'conditions',
      'configGeneration',
      'distributionConfig',
      'phase',
      'resolvedDistribution',
      'routeURL',
      'serviceURL',
      'version',
    ]);
    expect(Object.keys(status.configGeneration.properties).sort()).toEqual([
      'configMapName',
      'configVersion',
      'generatedAt',
      'providerCount',
      'resourceCount',
    ]);
    expect(Object.keys(status.resolvedDistribution.properties).sort()).toEqual([
      'configHash',
      'configSource',
      'image',
    ]);
    expect(status.phase.enum).toEqual([
      'Pending',
      'Initializing',
      'Ready',
      'Failed',
      'Terminating',
    ]);
    expect(status.conditions['x-kubernetes-list-type']).toBe('map');
  });
});

describe('STACK_CONDITIONS', () => {
  it("lists the condition types and reasons of seed 004's status contract", () => {
    const contract = parse(
      upstreamFile('llamastack', 'spec002-status-conditions.yaml'),
    ) as Json;
    const fromContract = Object.fromEntries(
      contract.conditions.map((c: Json) => [
        c.type,
        {
          true: [c.true.reason],
          false: c.false.reasons.map((r: Json) => r.reason),
        },
      ]),
    );
    expect(STACK_CONDITIONS).toEqual(fromContract);
  });
});
