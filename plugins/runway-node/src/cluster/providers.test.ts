import { summarizeProviders } from './providers';

describe('summarizeProviders', () => {
  it('summarises both capability forms with readiness and a reason', () => {
    const result = summarizeProviders([
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'InferenceProviderConfig',
        metadata: {
          name: 'kaito',
          annotations: { 'airunway.ai/display-name': 'KAITO' },
        },
        spec: {
          capabilities: {
            engines: ['vllm', 'llamacpp'],
            servingModes: ['aggregated'],
            cpuSupport: true,
            gpuSupport: true,
          },
        } as any,
        status: { ready: true, version: 'kaito-provider:v1.2.0' },
      },
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'InferenceProviderConfig',
        metadata: { name: 'dynamo' },
        spec: {
          capabilities: {
            engines: [
              {
                name: 'vllm',
                servingModes: ['aggregated', 'disaggregated'],
                gpuSupport: true,
              },
            ],
          },
        },
        status: {
          ready: false,
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              reason: 'CRDMissing',
              message: 'DynamoGraphDeployment CRD not installed',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      },
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'InferenceProviderConfig',
        metadata: { name: 'llmd' },
        spec: {},
      },
    ]);
    expect(result.map(p => [p.name, p.displayName, p.ready])).toEqual([
      ['dynamo', 'dynamo', false],
      ['kaito', 'KAITO', true],
      ['llmd', 'llmd', false],
    ]);
    expect(result[0].message).toBe('DynamoGraphDeployment CRD not installed');
    expect(result[1].engines).toEqual([
      {
        name: 'vllm',
        servingModes: ['aggregated'],
        gpuSupport: true,
        cpuSupport: true,
      },
      {
        name: 'llamacpp',
        servingModes: ['aggregated'],
        gpuSupport: true,
        cpuSupport: true,
      },
    ]);
    expect(result[2].message).toMatch(/has not reported yet/);
  });
});
