/**
 * The model example template (examples/template-runway-model) uses these
 * actions with inputs they accept, its resource is a valid Model, and its
 * form refuses what the Model schema refuses (the same patterns).
 */
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import {
  HUGGINGFACE_REPO_ID_PATTERN,
  MAX_MODEL_NAME_LENGTH,
  STORAGE_SIZE_PATTERN,
} from '@runway-portal/plugin-runway-common';
import { validateResourceBody } from '@runway-portal/plugin-runway-node';
import fs from 'node:fs';
import { parse } from 'yaml';
import { withNamespace } from './actions/resource';

const TEMPLATE = resolvePackagePath(
  '@runway-portal/plugin-scaffolder-backend-module-runway',
  '../../examples/template-runway-model/template.yaml',
);

/** Replaces whole-value `${{ parameters.a }}` expressions, keeping the value's type as the scaffolder does. */
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

describe('examples/template-runway-model', () => {
  const template = parse(fs.readFileSync(TEMPLATE, 'utf8'));
  const steps = template.spec.steps as Array<{
    id: string;
    action: string;
    input: Record<string, unknown>;
  }>;
  const properties = Object.assign(
    {},
    ...(
      template.spec.parameters as Array<{ properties: Record<string, any> }>
    ).map(p => p.properties),
  );
  const defaults: Record<string, unknown> = Object.fromEntries(
    Object.entries(properties).map(([k, v]: [string, any]) => [k, v.default]),
  );

  it('applies a Model, then waits for it with the default target (Ready)', () => {
    expect(steps.map(s => [s.action, s.input.kind])).toEqual([
      ['runway:apply', 'models'],
      ['runway:wait', 'models'],
    ]);
    expect(steps[1].input.phase).toBeUndefined();
  });

  it('writes a valid Model from the defaults, a repository and a storage class', () => {
    const input = render(steps[0].input, {
      ...defaults,
      name: 'qwen',
      repoId: 'Qwen/Qwen2.5-0.5B-Instruct',
      storageClass: 'fast-ssd',
    }) as Record<string, unknown>;
    const body = withNamespace(
      input.resource as Record<string, unknown>,
      input.namespace as string,
    ) as any;
    expect(
      validateResourceBody('models', body).filter(i => i.severity === 'error'),
    ).toEqual([]);
    expect(body.spec.source.huggingFace).toEqual({
      repoId: 'Qwen/Qwen2.5-0.5B-Instruct',
      revision: 'main',
    });
    expect(body.spec.storage).toEqual({
      storageClass: 'fast-ssd',
      size: '20Gi',
      accessModes: ['ReadWriteOnce'],
    });
  });

  it("picks the storage class from the chosen cluster's (RunwayStorageClassPicker), with no default that may not exist", () => {
    expect(properties.storageClass['ui:field']).toBe(
      'RunwayStorageClassPicker',
    );
    expect(properties.storageClass.default).toBeUndefined();
    expect(
      (template.spec.parameters as Array<{ required?: string[] }>).some(p =>
        p.required?.includes('storageClass'),
      ),
    ).toBe(true);
  });

  it("checks the form with the Model schema's own patterns and name length", () => {
    expect(properties.repoId.pattern).toBe(HUGGINGFACE_REPO_ID_PATTERN);
    expect(properties.size.pattern).toBe(STORAGE_SIZE_PATTERN);
    expect(properties.name.maxLength).toBe(MAX_MODEL_NAME_LENGTH);
  });
});
