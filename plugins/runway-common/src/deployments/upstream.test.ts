/**
 * Wire compatibility with upstream AI Runway (../shared/upstream/airunway):
 * every field its CRDs declare exists in ours with a type, enum, default and
 * constraints that accept at least what upstream accepts, and every upstream
 * sample validates.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { renderCrd } from '../crd/renderCrd';
import { inferenceProviderConfigCrd, modelDeploymentCrd } from './crd';
import { validateModelDeployment, validateProviderConfig } from './validate';

const UPSTREAM = resolve(__dirname, '../../../../../shared/upstream/airunway');

type Json = Record<string, any>;

function readYaml(name: string): Json {
  return parse(readFileSync(resolve(UPSTREAM, name), 'utf8'));
}

function readDocuments(name: string): Json[] {
  return parseAllDocuments(readFileSync(resolve(UPSTREAM, name), 'utf8'))
    .map(d => d.toJSON())
    .filter(Boolean);
}

/** Every schema node by path (`.spec.env[].name`, `.spec.nodeSelector.*`), with the names its parent requires. */
function flatten(
  schema: Json,
  path = '',
  required = false,
  out = new Map<string, { node: Json; required: boolean }>(),
) {
  out.set(path, { node: schema, required });
  for (const [key, child] of Object.entries(
    (schema.properties ?? {}) as Record<string, Json>,
  )) {
    flatten(
      child,
      `${path}.${key}`,
      (schema.required ?? []).includes(key),
      out,
    );
  }
  if (schema.items) flatten(schema.items, `${path}[]`, false, out);
  if (typeof schema.additionalProperties === 'object')
    flatten(schema.additionalProperties, `${path}.*`, false, out);
  return out;
}

function openApi(crd: Json): Json {
  return crd.spec.versions[0].schema.openAPIV3Schema;
}

/**
 * Defaults we add where upstream has none: `{}` for these objects, so the
 * API server applies their nested defaults (upstream's own) instead of our
 * defaulting webhook. Every object upstream accepts is accepted and stored
 * as upstream's webhook stores it (see defaults.ts).
 */
const ADDED_OBJECT_DEFAULTS = ['.spec.serving', '.spec.scaling'];

/** How our node fails to accept everything upstream's accepts, or undefined when it does. */
function incompatibility(upstream: Json, ours: Json): string | undefined {
  const oursIntOrString = ours['x-kubernetes-int-or-string'] === true;
  const upstreamIntOrString = upstream['x-kubernetes-int-or-string'] === true;
  if (upstreamIntOrString && !oursIntOrString)
    return 'upstream is int-or-string, ours is not';
  if (
    !upstreamIntOrString &&
    upstream.type !== ours.type &&
    !(upstream.type === 'string' && oursIntOrString)
  ) {
    return `type ${upstream.type} upstream, ${
      ours.type ?? 'int-or-string'
    } ours`;
  }
  if (
    ours.enum &&
    (!upstream.enum ||
      upstream.enum.some((v: unknown) => !ours.enum.includes(v)))
  ) {
    return `enum ${JSON.stringify(
      ours.enum,
    )} narrower than upstream ${JSON.stringify(upstream.enum)}`;
  }
  if (JSON.stringify(upstream.default) !== JSON.stringify(ours.default)) {
    return `default ${JSON.stringify(
      ours.default,
    )} differs from upstream ${JSON.stringify(upstream.default)}`;
  }
  for (const key of [
    'pattern',
    'format',
    'x-kubernetes-list-type',
    'x-kubernetes-preserve-unknown-fields',
  ] as const) {
    if (
      ours[key] !== undefined &&
      JSON.stringify(ours[key]) !== JSON.stringify(upstream[key])
    ) {
      return `${key} ${JSON.stringify(
        ours[key],
      )} differs from upstream ${JSON.stringify(upstream[key])}`;
    }
  }
  if (
    JSON.stringify(ours['x-kubernetes-list-map-keys']) !==
    JSON.stringify(upstream['x-kubernetes-list-map-keys'])
  ) {
    return 'list map keys differ';
  }
  for (const key of ['maximum', 'maxLength', 'maxItems'] as const) {
    if (
      ours[key] !== undefined &&
      (upstream[key] === undefined || ours[key] < upstream[key])
    )
      return `${key} stricter than upstream`;
  }
  for (const key of ['minimum', 'minLength', 'minItems'] as const) {
    if (
      ours[key] !== undefined &&
      (upstream[key] === undefined || ours[key] > upstream[key])
    )
      return `${key} stricter than upstream`;
  }
  return undefined;
}

describe.each([
  ['ModelDeployment', 'airunway.ai_modeldeployments.yaml', modelDeploymentCrd],
  [
    'InferenceProviderConfig',
    'airunway.ai_inferenceproviderconfigs.yaml',
    inferenceProviderConfigCrd,
  ],
])('%s CRD against upstream', (_kind, file, definition) => {
  const upstreamCrd = readYaml(file);
  const ourCrd = renderCrd(definition);
  const upstream = flatten(openApi(upstreamCrd));
  const ours = flatten(openApi(ourCrd));

  it('has the same group, names, scope, version and status subresource', () => {
    expect(ourCrd.metadata.name).toBe(upstreamCrd.metadata.name);
    expect(ourCrd.spec.group).toBe(upstreamCrd.spec.group);
    expect(ourCrd.spec.scope).toBe(upstreamCrd.spec.scope);
    const { shortNames: _s, categories: _c, ...names } = ourCrd.spec.names;
    expect(names).toEqual(upstreamCrd.spec.names);
    expect(ourCrd.spec.versions[0].name).toBe(
      upstreamCrd.spec.versions[0].name,
    );
    expect(ourCrd.spec.versions[0].subresources).toEqual(
      upstreamCrd.spec.versions[0].subresources,
    );
  });

  it('declares every upstream field, accepting at least what upstream accepts', () => {
    // Our nodes that keep any value as is (no type, preserve-unknown-fields:
    // the name-or-object engines of InferenceProviderConfig) accept everything
    // upstream declares below them; their list is atomic, so no map keys.
    const anything = [...ours]
      .filter(
        ([, { node }]) =>
          node['x-kubernetes-preserve-unknown-fields'] === true && !node.type,
      )
      .map(([p]) => p);
    const acceptedAsIs = (path: string) =>
      anything.some(
        a => path === a || path.startsWith(`${a}.`) || path.startsWith(`${a}[`),
      );
    const problems: string[] = [];
    for (const [path, { node }] of upstream) {
      if (path.startsWith('.metadata.') || acceptedAsIs(path)) continue;
      if (anything.includes(`${path}[]`)) {
        if (ours.get(path)?.node.type !== node.type)
          problems.push(`${path}: type differs`);
        continue;
      }
      const mine = ours.get(path);
      if (!mine) {
        problems.push(`${path}: missing`);
        continue;
      }
      const problem = incompatibility(
        node,
        ADDED_OBJECT_DEFAULTS.includes(path)
          ? { ...mine.node, default: node.default }
          : mine.node,
      );
      if (problem) problems.push(`${path}: ${problem}`);
    }
    expect(problems).toEqual([]);
    expect(upstream.size).toBeGreaterThan(40);
  });

  it('requires no upstream field that upstream leaves optional', () => {
    // Fields only we have (our additions) may have required parts; upstream objects never carry them.
    const extra = [...ours]
      .filter(
        ([path, { required }]) =>
          required && upstream.has(path) && !upstream.get(path)!.required,
      )
      .map(([path]) => path);
    expect(extra).toEqual([]);
  });

  it('keeps upstream printer columns (adding only wide ones)', () => {
    const mine = ourCrd.spec.versions[0].additionalPrinterColumns.filter(
      (c: Json) => !c.priority,
    );
    expect(mine).toEqual(upstreamCrd.spec.versions[0].additionalPrinterColumns);
  });
});

describe('upstream samples', () => {
  const deployments = [
    ...readDocuments('airunway_v1alpha1_modeldeployment.yaml'),
    ...readDocuments('airunway_v1alpha1_modeldeployment_llmd.yaml'),
  ];
  const providers = readDocuments(
    'airunway_v1alpha1_inferenceproviderconfig.yaml',
  );

  it('found the samples', () => {
    expect(deployments.map(d => d.metadata.name)).toEqual([
      'llama-8b-example',
      'gemma-cpu-example',
      'llama-70b-pd-example',
      'llama-8b-llmd',
      'llama-70b-llmd-pd',
    ]);
    expect(providers.map(p => p.metadata.name)).toEqual([
      'kaito',
      'dynamo',
      'kuberay',
      'llmd',
    ]);
  });

  it.each(deployments.map(d => [d.metadata.name, d]))(
    'ModelDeployment %s validates',
    (_name, md) => {
      expect(validateModelDeployment(md)).toEqual({ valid: true, issues: [] });
    },
  );

  it.each(deployments.map(d => [d.metadata.name, d]))(
    'ModelDeployment %s validates against the upstream registrations, compatibility included',
    (_name, md) => {
      const ready = providers.map(p => ({ ...p, status: { ready: true } }));
      expect(validateModelDeployment(md, { providers: ready })).toEqual({
        valid: true,
        issues: [],
      });
    },
  );

  it.each(providers.map(p => [p.metadata.name, p]))(
    'InferenceProviderConfig %s validates',
    (_name, ipc) => {
      expect(validateProviderConfig(ipc)).toEqual({ valid: true, issues: [] });
    },
  );
});
