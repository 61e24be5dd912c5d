import { deployment } from '../__testUtils__/fixtures';
import {
  modelsWithDeployment,
  providerFromDeployment,
  runningDeployments,
} from './runningDeployments';

describe('runningDeployments', () => {
  const items = [
    deployment('east', 'ml', 'llama', {
      gateway: {
        endpoint: 'http://gateway.example:80',
        modelName: 'llama-gw',
      },
    }),
    deployment('east', 'ml', 'qwen'),
    deployment('east', 'ml', 'starting', { phase: 'Deploying' }),
    deployment('east', 'ml', 'unready', {
      conditions: [{ type: 'Ready', status: 'False', reason: 'x' }],
    }),
    deployment('west', 'ml', 'elsewhere'),
  ];

  it("offers the cluster's Ready deployments, the gateway first, else the Service", () => {
    expect(runningDeployments(items, 'east')).toEqual([
      {
        cluster: 'east',
        namespace: 'ml',
        name: 'llama',
        ref: 'ml/llama',
        endpoint: 'http://gateway.example:80/v1',
        model: 'llama-gw',
        via: 'gateway',
        engine: 'vllm',
      },
      {
        cluster: 'east',
        namespace: 'ml',
        name: 'qwen',
        ref: 'ml/qwen',
        endpoint: 'http://qwen.ml.svc:8000/v1',
        model: 'qwen',
        via: 'service',
        engine: 'vllm',
      },
    ]);
  });

  it('fills the provider and registers the served model once', () => {
    const [, qwen] = runningDeployments(items, 'east');
    expect(
      providerFromDeployment(qwen, {
        provider: 'openai',
        apiKey: { secretKeyRef: { name: 'k', key: 'v' } },
      }),
    ).toEqual({
      id: 'qwen',
      provider: 'openai',
      endpoint: 'http://qwen.ml.svc:8000/v1',
      apiKey: { secretKeyRef: { name: 'k', key: 'v' } },
      fromDeployment: 'ml/qwen',
    });
    expect(modelsWithDeployment([{ name: '' }], qwen, 'qwen')).toEqual([
      { name: 'qwen', provider: 'qwen' },
    ]);
    expect(modelsWithDeployment([{ name: 'qwen' }], qwen, 'qwen')).toEqual([
      { name: 'qwen' },
    ]);
  });
});
