import {
  KAITO_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { type ProviderDefinition, TransformError } from './definition';
import { desiredObjects } from './desired';
import { checkProviderInput, planProviderObjects } from './plan';

const md = (patch: Partial<ModelDeployment['spec']> = {}): ModelDeployment => ({
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  metadata: { name: 'm', namespace: 'ns', uid: 'u-1' },
  spec: { model: { id: 'org/model' }, ...patch },
  status: { provider: { name: 'kaito' }, engine: { type: 'llamacpp' } },
});

const definition: ProviderDefinition = {
  name: 'kaito',
  registration: KAITO_PROVIDER,
  version: 'test',
  upstream: {
    group: 'kaito.sh',
    kind: 'Workspace',
    plural: 'workspaces',
    versions: ['v1beta1'],
  },
  overrides: { size: 'integer' },
  transform: d => {
    if (d.spec.image === 'bad')
      throw new TransformError('spec.image', 'cannot run "bad"');
    return {
      objects: [
        {
          apiVersion: 'kaito.sh/v1beta1',
          kind: 'Workspace',
          metadata: { name: d.metadata!.name },
        },
      ],
      warnings: ['a note'],
    };
  },
  mapStatus: () => ({
    phase: 'Running',
    message: '',
    ready: true,
    reason: 'R',
  }),
};

describe("the provider half of the pipeline (the loop's checks, then desiredObjects)", () => {
  it('is desiredObjects when every check passes, with the unknown-override notes first', () => {
    const deployment = md({ provider: { overrides: { sise: 1 } } });
    const plan = planProviderObjects(
      definition,
      deployment,
      'kaito.sh/v1beta1',
    );
    expect(plan).toEqual({
      ok: true,
      objects: desiredObjects(definition, deployment, {
        apiVersion: 'kaito.sh/v1beta1',
      }).objects,
      warnings: [
        "Unknown override key spec.provider.overrides.sise is ignored by provider 'kaito'",
        'a note',
      ],
    });
  });

  it("stops at the first check that fails, in the loop's order, with the status it would write", () => {
    const disaggregated = md({
      serving: { mode: 'disaggregated' },
      provider: { overrides: { size: 'big' } },
    });
    expect(
      checkProviderInput(definition, disaggregated, undefined).problem,
    ).toMatchObject({
      reason: 'Incompatible',
      phase: 'Failed',
      field: 'spec.serving.mode',
      messages: ['KAITO does not support disaggregated mode'],
    });
    expect(
      checkProviderInput(
        definition,
        md({ provider: { overrides: { size: 'big' } } }),
        undefined,
      ).problem,
    ).toMatchObject({
      reason: 'InvalidOverrides',
      field: 'spec.provider.overrides',
    });
    expect(checkProviderInput(definition, md(), undefined)).toMatchObject({
      problem: {
        reason: 'CRDNotInstalled',
        phase: 'Pending',
        message: "Provider 'kaito' CRD not installed in cluster",
      },
    });
    const passed = checkProviderInput(definition, md(), 'kaito.sh/v1beta1');
    expect(passed.apiVersion).toBe('kaito.sh/v1beta1');
    expect(passed.problem).toBeUndefined();
    expect(
      planProviderObjects(definition, md({ image: 'bad' }), 'kaito.sh/v1beta1'),
    ).toMatchObject({
      ok: false,
      problem: {
        reason: 'InvalidSpec',
        phase: 'Failed',
        field: 'spec.image',
        message: 'spec.image: cannot run "bad"',
      },
    });
  });
});
