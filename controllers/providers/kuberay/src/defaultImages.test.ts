/** The Ray head and every worker group run runway-common's default image, and rayVersion matches it. */
import {
  defaultImage,
  engineCapabilities,
  KUBERAY_PROVIDER,
  type ModelDeployment,
  RAY_VERSION,
} from '@runway-portal/plugin-runway-common';
import { desiredObjects } from '@runway-portal/provider-shared';
import { kuberayProvider } from './definition';

const cases = engineCapabilities(KUBERAY_PROVIDER).flatMap(e =>
  (e.servingModes ?? ['aggregated']).map(mode => ({ engine: e.name, mode })),
);

describe('KubeRay default image comes from the one table', () => {
  it.each(cases)('$engine $mode', ({ engine, mode }) => {
    const md: ModelDeployment = {
      metadata: { name: 'm', namespace: 'ns', uid: 'u' },
      spec: {
        model: { id: 'org/model' },
        engine: { type: engine },
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
      status: { provider: { name: 'kuberay' } },
    };
    const cluster = (
      desiredObjects(kuberayProvider, md, { apiVersion: 'ray.io/v1' })
        .objects[0].spec as any
    ).rayClusterConfig;
    const images = [cluster.headGroupSpec, ...cluster.workerGroupSpecs].map(
      (g: any) => g.template.spec.containers[0].image,
    );
    expect(new Set(images)).toEqual(new Set([defaultImage('kuberay', engine)]));
    expect(defaultImage('kuberay', engine)).toContain(
      `:${cluster.rayVersion}-`,
    );
    expect(cluster.rayVersion).toBe(RAY_VERSION);
  });
});
