/** llm-d's model servers, routing sidecar and endpoint picker run runway-common's default images. */
import {
  defaultImage,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { desiredObjects } from '@runway-portal/provider-shared';
import { llmdProvider } from './definition';

describe('llm-d default images come from the one table', () => {
  it.each(['aggregated', 'disaggregated'] as const)('%s', mode => {
    const md: ModelDeployment = {
      metadata: { name: 'm', namespace: 'ns', uid: 'u' },
      spec: {
        model: { id: 'org/model' },
        engine: { type: 'vllm' },
        serving: { mode },
        ...(mode === 'disaggregated'
          ? {
              scaling: {
                prefill: { replicas: 1, gpu: { count: 1 } },
                decode: { replicas: 1, gpu: { count: 1 } },
              },
            }
          : { resources: { gpu: { count: 1 } } }),
      },
      status: { provider: { name: 'llmd' } },
    };
    const deployments = desiredObjects(llmdProvider, md, {
      apiVersion: 'inference.networking.k8s.io/v1',
    }).objects.filter(o => o.kind === 'Deployment');
    const images = (name: string): string[] => {
      const pod = (
        deployments.find(d => d.metadata?.name === name)?.spec as any
      )?.template.spec;
      if (!pod) return [];
      return [...(pod.initContainers ?? []), ...pod.containers].map(
        (c: any) => c.image,
      );
    };
    const sidecar =
      mode === 'disaggregated' ? [defaultImage('llmd', 'routing-sidecar')] : [];
    expect(images('m-decode').sort()).toEqual(
      [defaultImage('llmd', 'vllm'), ...sidecar].sort(),
    );
    expect(images('m-prefill')).toEqual(
      mode === 'disaggregated' ? [defaultImage('llmd', 'vllm')] : [],
    );
    expect(images('m-epp')).toEqual([defaultImage('llmd', 'epp')]);
  });
});
