/**
 * The example template (examples/template-runway) uses these actions with
 * inputs they accept, and its resource is a valid ModelDeployment.
 */
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { validateResourceBody } from '@runway-portal/plugin-runway-node';
import fs from 'node:fs';
import { parse } from 'yaml';
import { withNamespace } from './actions/resource';

const TEMPLATE = resolvePackagePath(
  '@runway-portal/plugin-scaffolder-backend-module-runway',
  '../../examples/template-runway/template.yaml',
);

/** Replaces whole-value `${{ parameters.x }}` expressions, keeping the value's type as the scaffolder does. */
function render(value: unknown, parameters: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const match = /^\$\{\{\s*parameters\.(\w+)\s*\}\}$/.exec(value);
    return match ? parameters[match[1]] : value;
  }
  if (Array.isArray(value)) return value.map(v => render(v, parameters));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, render(v, parameters)]),
    );
  }
  return value;
}

describe('examples/template-runway', () => {
  const template = parse(fs.readFileSync(TEMPLATE, 'utf8'));
  const steps = template.spec.steps as Array<{
    id: string;
    action: string;
    input: Record<string, unknown>;
  }>;
  const defaults: Record<string, unknown> = Object.fromEntries(
    (
      template.spec.parameters as Array<{
        properties: Record<string, { default?: unknown }>;
      }>
    ).flatMap(p =>
      Object.entries(p.properties).map(([k, v]) => [k, v.default]),
    ),
  );

  it('applies then waits', () => {
    expect(steps.map(s => s.action)).toEqual(['runway:apply', 'runway:wait']);
    expect(template.spec.output.links[0].url).toBe(
      "${{ steps['deploy'].output.link }}",
    );
  });

  it('writes a valid ModelDeployment from its form', () => {
    const input = render(steps[0].input, {
      ...defaults,
      name: 'qwen-small',
    }) as Record<string, unknown>;
    expect(input.kind).toBe('deployments');
    const body = withNamespace(
      input.resource as Record<string, unknown>,
      input.namespace as string,
    );
    expect(
      validateResourceBody('deployments', body).filter(
        i => i.severity === 'error',
      ),
    ).toEqual([]);
    // The form's own limits would not save it from a GPU engine without GPUs: the action names the field.
    const noGpu = withNamespace(
      render(steps[0].input.resource, {
        ...defaults,
        name: 'x',
        gpuCount: 0,
      }) as Record<string, unknown>,
      'default',
    );
    expect(
      validateResourceBody('deployments', noGpu).map(i => i.path),
    ).toContain('spec.resources.gpu.count');
  });
});
