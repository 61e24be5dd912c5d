/**
 * The stack example template (examples/template-runway-stack) uses these
 * actions with inputs they accept, and its resource is a valid
 * LlamaStackDistribution once the running-deployment field has a value.
 */
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { validateResourceBody } from '@runway-portal/plugin-runway-node';
import fs from 'node:fs';
import { parse } from 'yaml';
import { withNamespace } from './actions/resource';

const TEMPLATE = resolvePackagePath(
  '@runway-portal/plugin-scaffolder-backend-module-runway',
  '../../examples/template-runway-stack/template.yaml',
);

/** Replaces whole-value `${{ parameters.a.b }}` expressions, keeping the value's type as the scaffolder does. */
function render(value: unknown, parameters: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const match = /^\$\{\{\s*parameters\.([\w.]+)\s*\}\}$/.exec(value);
    return match
      ? match[1]
          .split('.')
          .reduce<any>((v, key) => (v === undefined ? v : v[key]), parameters)
      : value;
  }
  if (Array.isArray(value)) return value.map(v => render(v, parameters));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, render(v, parameters)]),
    );
  }
  return value;
}

describe('examples/template-runway-stack', () => {
  const template = parse(fs.readFileSync(TEMPLATE, 'utf8'));
  const steps = template.spec.steps as Array<{
    id: string;
    action: string;
    input: Record<string, unknown>;
  }>;
  const properties = Object.assign(
    {},
    ...(
      template.spec.parameters as Array<{
        properties: Record<string, { default?: unknown; 'ui:field'?: string }>;
      }>
    ).map(p => p.properties),
  );
  const defaults: Record<string, unknown> = Object.fromEntries(
    Object.entries(properties).map(([k, v]: [string, any]) => [k, v.default]),
  );

  it('picks a running deployment, applies a stack, then waits for it', () => {
    expect(properties.inference['ui:field']).toBe(
      'RunwayRunningDeploymentPicker',
    );
    expect(steps.map(s => [s.action, s.input.kind])).toEqual([
      ['runway:apply', 'stacks'],
      ['runway:wait', 'stacks'],
    ]);
  });

  it("writes a valid LlamaStackDistribution whose inference provider is the deployment's endpoint and model", () => {
    const input = render(steps[0].input, {
      ...defaults,
      name: 'chat',
      inference: {
        deployment: 'default/qwen',
        endpoint: 'http://qwen.default.svc:8000/v1',
        model: 'qwen',
      },
    }) as Record<string, unknown>;
    const body = withNamespace(
      input.resource as Record<string, unknown>,
      input.namespace as string,
    ) as any;
    expect(
      validateResourceBody('stacks', body).filter(i => i.severity === 'error'),
    ).toEqual([]);
    expect(body.spec.providers.inference[0].endpoint).toBe(
      'http://qwen.default.svc:8000/v1',
    );
    expect(body.spec.resources.models).toEqual([
      { name: 'qwen', provider: 'inference' },
    ]);
  });
});
