import { BUILT_IN_PROVIDERS } from '@runway-portal/plugin-runway-common';
import {
  emptyWizardValues,
  fieldForIssue,
  copyOfDeployment,
  fromModelDeployment,
  parseOverrides,
  SPEC_FIELDS,
  toModelDeployment,
  totalGpus,
  validateWizard,
  type WizardValues,
} from './form';

const readyProviders = BUILT_IN_PROVIDERS.map(p => ({
  ...p,
  status: { ready: true },
}));

function filled(): WizardValues {
  const v = emptyWizardValues({ cluster: 'east', namespace: 'ml' });
  v.metadata.name = 'llama';
  v.spec.model.id = 'meta-llama/Llama-3.1-8B-Instruct';
  return v;
}

describe('toModelDeployment', () => {
  it('writes only what the user set, in the mode chosen', () => {
    const md = toModelDeployment(filled());
    expect(md).toEqual({
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'llama', namespace: 'ml' },
      spec: {
        model: {
          id: 'meta-llama/Llama-3.1-8B-Instruct',
          source: 'huggingface',
        },
        serving: { mode: 'aggregated' },
        scaling: { replicas: 1 },
        resources: { gpu: { count: 1 } },
      },
    });
  });

  it('maps rows to maps and lists, and drops aggregated fields when disaggregated', () => {
    const v = filled();
    v.spec.serving.mode = 'disaggregated';
    v.spec.scaling.prefill = {
      replicas: '2',
      gpu: { count: '1' },
      memory: '64Gi',
    };
    v.spec.scaling.decode = {
      replicas: '1',
      gpu: { count: '2' },
      memory: '64Gi',
    };
    v.engineArgs = [
      { key: 'max-num-seqs', value: '64' },
      { key: ' ', value: 'ignored' },
    ];
    v.env = [{ key: 'LOG_LEVEL', value: 'debug' }];
    v.nodeSelector = [{ key: 'pool', value: 'gpu' }];
    v.podLabels = [{ key: 'team', value: 'ml' }];
    v.tolerations = [
      {
        key: 'nvidia.com/gpu',
        operator: 'Exists',
        value: 'x',
        effect: 'NoSchedule',
      },
    ];
    v.providerOverrides = 'dynamo:\n  router: kv';
    const spec = toModelDeployment(v).spec;
    expect(spec.scaling).toEqual({
      prefill: { replicas: 2, gpu: { count: 1 }, memory: '64Gi' },
      decode: { replicas: 1, gpu: { count: 2 }, memory: '64Gi' },
    });
    expect(spec.resources).toBeUndefined();
    expect(spec.engine?.args).toEqual({ 'max-num-seqs': '64' });
    expect(spec.env).toEqual([{ name: 'LOG_LEVEL', value: 'debug' }]);
    expect(spec.nodeSelector).toEqual({ pool: 'gpu' });
    expect(spec.podTemplate).toEqual({ metadata: { labels: { team: 'ml' } } });
    expect(spec.tolerations).toEqual([
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(spec.provider?.overrides).toEqual({ dynamo: { router: 'kv' } });
    expect(totalGpus(toModelDeployment(v))).toBe(4);
  });

  it('labels the deployment itself (e.g. for a catalog entity)', () => {
    const v = emptyWizardValues({
      labels: { 'backstage.io/kubernetes-id': 'chatbot' },
    });
    expect(toModelDeployment(v).metadata?.labels).toEqual({
      'backstage.io/kubernetes-id': 'chatbot',
    });
    expect(toModelDeployment(filled()).metadata).toEqual({
      name: 'llama',
      namespace: 'ml',
    });
  });

  it('round-trips through fromModelDeployment', () => {
    const v = filled();
    v.labels = [{ key: 'team', value: 'ml' }];
    v.spec.engine.type = 'vllm';
    v.spec.engine.contextLength = '8192';
    v.env = [{ key: 'A', value: 'b' }];
    v.spec.image = 'ghcr.io/example/server:1';
    // Storage volumes have no editor of their own but survive an edit.
    v.volumes = [
      { name: 'cache', purpose: 'compilationCache', size: '10Gi' },
      { name: 'model-a', claimName: 'model-a', mountPath: '/models/a' },
    ];
    const md = toModelDeployment(v);
    expect(md.spec.image).toBe('ghcr.io/example/server:1');
    expect(md.spec.model.storage?.volumes).toEqual(v.volumes);
    expect(toModelDeployment(fromModelDeployment('east', md))).toEqual(md);
  });

  it('copies a deployment as a new one: same spec and labels, named <name>-copy', () => {
    const v = filled();
    v.labels = [{ key: 'team', value: 'ml' }];
    const md = toModelDeployment(v);
    const copy = toModelDeployment(copyOfDeployment('east', md));
    expect(copy.metadata?.name).toBe(`${md.metadata?.name}-copy`);
    expect(copy.spec).toEqual(md.spec);
    expect(copy.metadata?.labels).toEqual(md.metadata?.labels);
  });
});

describe('the gateway fields', () => {
  it('leave spec.gateway out while automatic and write what the user chose', () => {
    expect(toModelDeployment(filled()).spec.gateway).toBeUndefined();
    const v = filled();
    v.spec.gateway = {
      enabled: 'true',
      modelName: ' llama-chat ',
      httpRouteRef: 'shared-route',
    };
    expect(toModelDeployment(v).spec.gateway).toEqual({
      enabled: true,
      modelName: 'llama-chat',
      httpRouteRef: 'shared-route',
    });
    v.spec.gateway = { enabled: 'false', modelName: '', httpRouteRef: '' };
    expect(toModelDeployment(v).spec.gateway).toEqual({ enabled: false });
  });

  it('round-trip through an existing deployment (an edit keeps them)', () => {
    for (const gateway of [
      { enabled: false },
      { enabled: true, modelName: 'm', httpRouteRef: 'r' },
      { modelName: 'm' },
    ]) {
      const md = toModelDeployment(filled());
      md.spec.gateway = gateway;
      expect(
        toModelDeployment(fromModelDeployment('east', md)).spec.gateway,
      ).toEqual(gateway);
    }
  });

  it('reject an HTTPRoute reference that cannot be an object name, on its field', () => {
    const v = filled();
    v.spec.gateway.httpRouteRef = 'My Route';
    const issues = validateWizard(v, { providers: readyProviders });
    expect(issues).toContainEqual(
      expect.objectContaining({
        field: 'spec.gateway.httpRouteRef',
        severity: 'error',
        message: expect.stringContaining(
          'spec.gateway.httpRouteRef "My Route" must be the name of an HTTPRoute in the deployment\'s namespace',
        ),
      }),
    );
    v.spec.gateway.httpRouteRef = 'llama-route';
    expect(
      validateWizard(v, { providers: readyProviders }).filter(
        i => i.severity === 'error',
      ),
    ).toEqual([]);
  });

  it("put runway-common's schema issues under spec.gateway on their fields", () => {
    expect(fieldForIssue('spec.gateway.enabled', SPEC_FIELDS)).toBe(
      'spec.gateway.enabled',
    );
    expect(fieldForIssue('spec.gateway.modelName', SPEC_FIELDS)).toBe(
      'spec.gateway.modelName',
    );
  });
});

describe('parseOverrides', () => {
  it('accepts a mapping and explains anything else', () => {
    expect(parseOverrides('')).toEqual({ ok: true });
    expect(parseOverrides('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseOverrides('- a')).toMatchObject({
      ok: false,
      message: expect.stringContaining('must be a mapping'),
    });
    expect(parseOverrides('a: [')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not valid YAML'),
    });
  });
});

describe('fieldForIssue', () => {
  it('finds the field of an issue path', () => {
    expect(fieldForIssue('spec.resources.gpu.count', SPEC_FIELDS)).toBe(
      'spec.resources.gpu.count',
    );
    expect(fieldForIssue('spec.env[0].name', SPEC_FIELDS)).toBe('env');
    expect(fieldForIssue('spec.nodeSelector["a/b"]', SPEC_FIELDS)).toBe(
      'nodeSelector',
    );
    // Volumes are shown on the model step's cached-model choice.
    expect(fieldForIssue('spec.model.storage.volumes[0]', SPEC_FIELDS)).toBe(
      'volumes',
    );
    expect(fieldForIssue('spec.gateway', SPEC_FIELDS)).toBe('root');
  });
});

describe('validateWizard', () => {
  it('accepts a complete form', () => {
    expect(
      validateWizard(filled(), { providers: readyProviders }).filter(
        i => i.severity === 'error',
      ),
    ).toEqual([]);
  });

  it("reports runway-common's messages on the fields", () => {
    const v = filled();
    v.metadata.name = 'Bad.Name';
    v.spec.model.id = '';
    v.cluster = '';
    const issues = validateWizard(v, { providers: readyProviders });
    const fields = issues.filter(i => i.severity === 'error').map(i => i.field);
    expect(fields).toEqual(
      expect.arrayContaining(['metadata.name', 'spec.model.id', 'cluster']),
    );
    expect(issues.find(i => i.field === 'spec.model.id')?.message).toMatch(
      /model/i,
    );
  });

  it('warns when the GPUs asked for exceed the free capacity', () => {
    const v = filled();
    v.spec.scaling.replicas = '3';
    v.spec.resources.gpu.count = '2';
    const issues = validateWizard(v, {
      providers: readyProviders,
      freeGpus: 4,
    });
    expect(issues).toContainEqual(
      expect.objectContaining({
        field: 'spec.resources.gpu.count',
        severity: 'warning',
        message: expect.stringContaining(
          'needs 6 GPU(s) but cluster east has 4 free',
        ),
      }),
    );
  });

  it('rejects a namespace the cluster does not open to the portal', () => {
    const issues = validateWizard(filled(), { namespaces: ['team-a'] });
    expect(issues).toContainEqual(
      expect.objectContaining({
        field: 'metadata.namespace',
        message: expect.stringContaining('choose one of team-a'),
      }),
    );
  });

  it('warns before an identity field change recreates the deployment', () => {
    const existing = toModelDeployment(filled());
    const v = filled();
    v.spec.model.id = 'Qwen/Qwen2.5-7B';
    const issues = validateWizard(v, { existing });
    expect(issues).toContainEqual(
      expect.objectContaining({
        field: 'spec.model.id',
        severity: 'warning',
        message: expect.stringContaining('deletes and recreates'),
      }),
    );
  });
});
