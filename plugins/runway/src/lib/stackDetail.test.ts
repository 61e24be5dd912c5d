import { deployment } from '../__testUtils__/fixtures';
import { linkedDeployments, stackAccess, stackConfig } from './stackDetail';

const stack = (spec: object, status: object = {}) => ({
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'chat', namespace: 'ml' },
  spec,
  status,
});

const configMap = (name: string, created: string, yaml: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace: 'ml',
    creationTimestamp: created,
    labels: { 'llamastack.io/generated-config': 'true' },
  },
  data: { 'config.yaml': yaml },
});

describe('stackConfig', () => {
  const owned = [
    configMap('chat-config-aaaa', '2026-01-01T00:00:00Z', 'version: 2 # old'),
    configMap('chat-config-bbbb', '2026-01-02T00:00:00Z', 'version: 2 # new'),
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'chat' } },
  ];

  it('shows the ConfigMap the status names, else the newest generated one', () => {
    expect(
      stackConfig(
        stack({}, { configGeneration: { configMapName: 'chat-config-aaaa' } }),
        owned,
      ),
    ).toEqual({
      configMapName: 'chat-config-aaaa',
      configYaml: 'version: 2 # old',
      current: true,
    });
    expect(stackConfig(stack({}), owned)).toEqual({
      configMapName: 'chat-config-bbbb',
      configYaml: 'version: 2 # new',
      current: false,
    });
    expect(stackConfig(stack({}), [])).toBeUndefined();
  });
});

describe('stackAccess', () => {
  it('calls the route when exposed, else the Service, with the first model', () => {
    const access = stackAccess(
      stack(
        { resources: { models: [{ name: 'llama-3' }] } },
        { serviceURL: 'http://chat-service.ml.svc.cluster.local:8321' },
      ),
    );
    expect(access.serviceUrl).toBe(
      'http://chat-service.ml.svc.cluster.local:8321',
    );
    expect(access.curl).toContain(
      'curl http://chat-service.ml.svc.cluster.local:8321/v1/chat/completions',
    );
    expect(access.curl).toContain('"model":"llama-3"');
    expect(access.health).toBe(
      'curl http://chat-service.ml.svc.cluster.local:8321/v1/health',
    );
    expect(access.portForward).toBe(
      'kubectl -n ml port-forward svc/chat-service 8321:8321',
    );
  });
});

describe('linkedDeployments', () => {
  const items = [
    deployment('east', 'ml', 'qwen'),
    deployment('east', 'ml', 'llama', {
      gateway: { endpoint: 'http://gw', modelName: 'llama-3' },
    }),
    deployment('east', 'ml', 'other', {
      phase: 'Failed',
      gateway: { endpoint: 'http://gw', modelName: 'other' },
    }),
    deployment('west', 'ml', 'qwen'),
  ];

  it("finds the deployments its providers call: by Service URL, or by the Gateway's URL and model name", () => {
    const linked = linkedDeployments(
      'east',
      stack({
        providers: {
          inference: [
            {
              id: 'a',
              provider: 'vllm',
              endpoint: 'http://qwen.ml.svc:8000/v1',
            },
            { id: 'b', provider: 'vllm', endpoint: 'http://gw/v1/' },
          ],
        },
        resources: { models: [{ name: 'llama-3', provider: 'b' }] },
      }) as any,
      items,
    );
    expect(linked).toEqual([
      {
        cluster: 'east',
        namespace: 'ml',
        name: 'qwen',
        phase: 'Running',
        providerPath: 'spec.providers.inference[0]',
        providerId: 'a',
        via: 'service',
      },
      {
        cluster: 'east',
        namespace: 'ml',
        name: 'llama',
        phase: 'Running',
        providerPath: 'spec.providers.inference[1]',
        providerId: 'b',
        via: 'gateway',
      },
    ]);
  });
});
