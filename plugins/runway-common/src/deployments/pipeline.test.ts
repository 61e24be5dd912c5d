import { KAITO_PROVIDER, DYNAMO_PROVIDER } from './providers';
import {
  handedDeployment,
  OBSERVED_IDENTITY_ANNOTATION,
  previewSelection,
  selectDeployment,
  withDefaults,
} from './pipeline';
import type { InferenceProviderConfig, ModelDeployment } from './types';

const ready = (config: InferenceProviderConfig): InferenceProviderConfig => ({
  ...config,
  status: {
    ready: true,
    lastHeartbeat: '2026-11-25T00:00:00Z',
    upstreamCRDVersion: 'x/v1',
  },
});
const providers = [ready(KAITO_PROVIDER), ready(DYNAMO_PROVIDER)];
const md = (
  spec: Record<string, unknown>,
  extra: Partial<ModelDeployment> = {},
): ModelDeployment => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'm', namespace: 'ns' },
  spec: { model: { id: 'org/model', source: 'huggingface' }, ...spec },
  ...extra,
});

describe('selectDeployment (defaults → engine → provider, as the core decides)', () => {
  it('selects engine and provider on the defaulted spec and hands the deployment over', () => {
    const selection = selectDeployment(
      md({ resources: { gpu: { count: 1 } } }),
      providers,
    );
    expect(selection.engine).toMatchObject({
      ok: true,
      engine: 'vllm',
      auto: true,
    });
    expect(selection.handedTo).toEqual({
      name: 'dynamo',
      selectedReason: expect.any(String),
    });
    expect(selection.spec.engine?.type).toBe('vllm');
    expect(selection.spec.serving?.mode).toBe('aggregated'); // a default
    expect(
      handedDeployment(md({ resources: { gpu: { count: 1 } } }), selection)
        ?.status,
    ).toMatchObject({
      engine: { type: 'vllm' },
      provider: { name: 'dynamo' },
    });
  });

  it('keeps an earlier choice until an identity field changes', () => {
    const status = {
      engine: { type: 'vllm' as const, selectedReason: 'earlier' },
      provider: { name: 'dynamo', selectedReason: 'earlier' },
    };
    const annotations = {
      [OBSERVED_IDENTITY_ANNOTATION]: JSON.stringify({
        'model.id': 'org/model',
        'model.source': 'huggingface',
        'serving.mode': 'aggregated',
      }),
    };
    const kept = selectDeployment(
      md(
        { resources: { gpu: { count: 0 } } },
        { metadata: { name: 'm', annotations }, status },
      ),
      providers,
    );
    expect(kept.identityMoved).toBe(false);
    expect(kept.handedTo).toEqual({
      name: 'dynamo',
      selectedReason: 'earlier',
    });
    const moved = selectDeployment(
      md(
        {
          model: { id: 'org/other', source: 'huggingface' },
          resources: { gpu: { count: 0 } },
        },
        { metadata: { name: 'm', annotations }, status },
      ),
      providers,
    );
    expect(moved.identityMoved).toBe(true);
    expect(moved.handedTo?.name).toBe('kaito');
  });

  it('hands an invalid spec to no new provider, and says why (unless the form is still being edited)', () => {
    const installed = [
      ready(KAITO_PROVIDER),
      {
        ...ready(DYNAMO_PROVIDER),
        status: { ready: true, lastHeartbeat: '2026-11-25T00:00:00Z' },
      },
    ];
    const selection = selectDeployment(
      md({
        engine: { type: 'vllm' },
        provider: { name: 'dynamo' },
        resources: { gpu: { count: 1 } },
      }),
      installed,
    );
    expect(selection.heldBack).toBe('ValidationFailed');
    expect(selection.handedTo).toBeUndefined();
    expect(handedDeployment(md({}), selection)).toBeUndefined();
    expect(previewSelection(selection).provider).toEqual({
      ok: false,
      reason:
        "No provider selected: the spec is not valid: Provider 'dynamo' CRD not installed in cluster",
    });
    expect(
      previewSelection(selection, { whileEditing: true }).provider,
    ).toMatchObject({ ok: true, provider: 'dynamo' });
  });

  it('types a defaulted spec apart from a raw one', () => {
    const defaulted = withDefaults({ model: { id: 'org/model' } }, 'm');
    expect(defaulted.model.source).toBe('huggingface');
  });
});
