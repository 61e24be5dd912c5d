import {
  emptyStackValues,
  fromStack,
  stackFieldForIssue,
  toStack,
  validateStackForm,
} from './stackForm';

function values() {
  const v = emptyStackValues({
    cluster: 'east',
    namespace: 'ml',
    distribution: 'starter',
  });
  v.metadata.name = 'chat';
  v.spec.providers.inference = [
    { provider: 'vllm', endpoint: 'http://llama.ml.svc:8000/v1' },
  ];
  return v;
}

describe('toStack', () => {
  it('writes the wire v1alpha2 object without the blank fields', () => {
    expect(toStack(values())).toEqual({
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'chat', namespace: 'ml' },
      spec: {
        distribution: { name: 'starter' },
        providers: {
          inference: [
            { provider: 'vllm', endpoint: 'http://llama.ml.svc:8000/v1' },
          ],
        },
      },
    });
  });

  it('turns text numbers and lists into the spec, expose into {} or a hostname', () => {
    const v = values();
    v.spec.networking = { port: '9000' };
    v.spec.workload = { replicas: '2', workers: 'many' };
    v.spec.resources.models = [
      { name: 'llama', provider: 'vllm', contextLength: '4096' },
    ];
    v.ui.tools = 'websearch, rag';
    v.ui.allowedNamespaces = 'apps, *';
    v.ui.expose = true;
    v.ui.tlsEnabled = 'true';
    v.spec.networking.tls = { secretName: 'tls' };
    const { spec } = toStack(v);
    expect(spec.networking).toEqual({
      port: 9000,
      tls: { enabled: true, secretName: 'tls' },
      allowedFrom: { namespaces: ['apps', '*'] },
      expose: {},
    });
    // Not a number: kept as typed, so the schema names the field.
    expect(spec.workload).toEqual({ replicas: 2, workers: 'many' });
    expect(spec.resources).toEqual({
      models: [{ name: 'llama', provider: 'vllm', contextLength: 4096 }],
      tools: ['websearch', 'rag'],
    });
    v.spec.networking.expose = { hostname: 'chat.example.com' };
    expect(toStack(v).spec.networking.expose).toEqual({
      hostname: 'chat.example.com',
    });
  });

  it('keeps the storage kinds chosen, and an image distribution alone', () => {
    const v = values();
    v.ui.distributionSource = 'image';
    v.spec.distribution.image = 'example.com/llama:1';
    v.spec.storage = {
      kv: { type: '', endpoint: '' },
      sql: {
        type: 'postgres',
        connectionString: { secretKeyRef: { name: 'pg', key: 'url' } },
      },
    };
    const { spec } = toStack(v);
    expect(spec.distribution).toEqual({ image: 'example.com/llama:1' });
    expect(spec.storage).toEqual({
      sql: {
        type: 'postgres',
        connectionString: { secretKeyRef: { name: 'pg', key: 'url' } },
      },
    });
  });
});

describe('fromStack', () => {
  it('opens a v1alpha1 stack in the v1alpha2 form through the conversion, and saves what it cannot show', () => {
    const v1 = {
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'old', namespace: 'ml', labels: { team: 'a' } },
      spec: {
        replicas: 2,
        server: {
          distribution: { name: 'starter' },
          containerSpec: {
            name: 'server',
            port: 8080,
            env: [{ name: 'VLLM_URL', value: 'http://vllm:8000/v1' }],
          },
        },
        network: { allowedFrom: { namespaces: ['apps'] } },
      },
    };
    const v = fromStack('east', v1 as any);
    expect(v.spec.distribution).toEqual({ name: 'starter' });
    expect(v.spec.networking?.port).toBe(8080);
    expect(v.spec.workload?.replicas).toBe(2);
    expect(v.ui.allowedNamespaces).toBe('apps');
    const saved = toStack(v, v1 as any);
    expect(saved.apiVersion).toBe('llamastack.io/v1alpha2');
    expect(saved.metadata?.labels).toEqual({ team: 'a' });
    expect(saved.spec.workload.overrides.env).toEqual([
      { name: 'VLLM_URL', value: 'http://vllm:8000/v1' },
    ]);
  });

  it('round-trips a v1alpha2 stack with fields the form does not show', () => {
    const stack = {
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'chat', namespace: 'ml' },
      spec: {
        distribution: { name: 'starter' },
        providers: {
          inference: [
            {
              id: 'vllm',
              provider: 'vllm',
              endpoint: 'http://vllm:8000/v1',
              settings: { max_tokens: 1024, tls_verify: '' },
            },
          ],
        },
        resources: { models: [{ name: 'llama' }], shields: ['guard'] },
        networking: { expose: {} },
        workload: { autoscaling: { maxReplicas: 3 } },
        disabled: ['postTraining'],
      },
    };
    const v = fromStack('east', stack as any);
    expect(v.ui.expose).toBe(true);
    expect(v.ui.shields).toBe('guard');
    expect(toStack(v, stack as any)).toEqual(stack);
  });
});

describe('validateStackForm', () => {
  it("gives runway-common's messages on the field of the same path", () => {
    const v = values();
    v.spec.providers.inference = [{ provider: 'vllm', id: 'bad id!' }];
    v.ui.tools = 'websearch';
    const issues = validateStackForm(v, { distributions: ['starter'] });
    const fields = issues.filter(i => i.severity === 'error').map(i => i.field);
    expect(fields).toContain('spec.providers.inference.0.id');
    const id = issues.find(i => i.field === 'spec.providers.inference.0.id')!;
    expect(id.message).toMatch(/letters, digits/);
  });

  it('names an unknown distribution with the ones the operator embeds', () => {
    const v = values();
    v.spec.distribution.name = 'nope';
    const issue = validateStackForm(v, {
      distributions: ['starter', 'starter-gpu'],
    }).find(i => i.field === 'spec.distribution.name');
    expect(issue?.message).toMatch(/starter, starter-gpu/);
  });

  it('asks for a cluster and a namespace the cluster opens to the portal', () => {
    const v = values();
    v.cluster = '';
    v.metadata.namespace = 'prod';
    const issues = validateStackForm(v, { namespaces: ['default', 'ml'] });
    expect(issues.find(i => i.field === 'cluster')?.message).toMatch(
      /choose the cluster/,
    );
    expect(issues.find(i => i.field === 'metadata.namespace')?.message).toBe(
      'namespace prod is not open to the portal in cluster ; choose one of default, ml',
    );
  });
});

describe('stackFieldForIssue', () => {
  it.each([
    [
      'spec.providers.inference[0].endpoint',
      'spec.providers.inference.0.endpoint',
    ],
    ['spec.resources.tools[1]', 'ui.tools'],
    ['spec.networking.allowedFrom.namespaces[0]', 'ui.allowedNamespaces'],
    ['spec.networking.tls.enabled', 'ui.tlsEnabled'],
    ['(root)', 'root'],
    ['spec.distribution', 'spec.distribution.name'],
  ])('%s → %s', (path, field) => {
    expect(stackFieldForIssue(path)).toBe(field);
  });
});
