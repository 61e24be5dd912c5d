import type { InferenceProviderConfig } from '@runway-portal/plugin-runway-common';
import { previewWrite, selectionPreview } from './preview';

const provider = (name: string, ready: boolean, engines: unknown[], rules: unknown[]): InferenceProviderConfig => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'InferenceProviderConfig',
  metadata: { name },
  spec: { capabilities: { engines }, selectionRules: rules } as any,
  status: { ready },
});

const providers = [
  provider('kaito', true, [{ name: 'llamacpp', servingModes: ['aggregated'], cpuSupport: true, gpuSupport: true }], [
    { condition: '!has(spec.resources.gpu) || spec.resources.gpu.count == 0', priority: 100 },
  ]),
  provider('dynamo', true, [{ name: 'vllm', servingModes: ['aggregated'], gpuSupport: true }], [
    { condition: "has(spec.resources.gpu) && spec.resources.gpu.count > 0 && spec.engine.type == 'vllm'", priority: 50 },
  ]),
];

const deployment = (spec: Record<string, unknown>) => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'x', namespace: 'a' },
  spec: { model: { id: 'org/model', source: 'huggingface' }, ...spec },
});

describe('selectionPreview', () => {
  it('shows the engine and provider the core controller would select', () => {
    expect(selectionPreview(deployment({ resources: { gpu: { count: 1 } } }), providers)).toMatchObject({
      engine: { ok: true, engine: 'vllm', auto: true },
      provider: { ok: true, provider: 'dynamo', auto: true },
    });
    expect(selectionPreview(deployment({ resources: { memory: '16Gi' } }), providers)).toMatchObject({
      engine: { ok: true, engine: 'llamacpp' },
      provider: { ok: true, provider: 'kaito' },
    });
  });

  it('says why nothing can be selected', () => {
    const result = selectionPreview(deployment({}), []);
    expect(result.engine.ok).toBe(false);
    expect(result.engine.reason).toMatch(/No healthy providers available/);
    expect(result.provider).toBeUndefined();
  });
});

describe('previewWrite', () => {
  const dryRunResult = { object: { ...deployment({}), metadata: { name: 'x', namespace: 'a', uid: 'u' } }, warnings: [] };

  it('dry-runs the write and leaves a slot for the provider objects', async () => {
    const create = jest.fn(async () => dryRunResult);
    const clusterClient = { create, providerConfigs: async () => providers } as any;
    const preview = await previewWrite({ clusterClient, kind: 'deployments', cluster: 'east', mode: 'create', body: deployment({}) });
    expect(create).toHaveBeenCalledWith('deployments', 'east', deployment({}), { dryRun: true });
    expect(preview.objects).toEqual([{ action: 'create', object: dryRunResult.object }]);
    expect(preview.providerObjects).toMatchObject({ status: 'pending', objects: [] });
  });

  it('still answers when the providers cannot be read', async () => {
    const clusterClient = {
      update: async () => dryRunResult,
      providerConfigs: async () => {
        throw new Error('cluster "east" is not synced');
      },
    } as any;
    const preview = await previewWrite({ clusterClient, kind: 'deployments', cluster: 'east', mode: 'update', body: deployment({}) });
    expect(preview.objects[0].action).toBe('update');
    expect(preview.selection).toEqual({
      engine: { ok: false, reason: 'cannot read the providers registered in cluster "east": cluster "east" is not synced' },
    });
  });
});
