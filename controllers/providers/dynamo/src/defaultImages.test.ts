/** Every Dynamo component runs runway-common's default image for its engine unless the spec names one. */
import {
  defaultImage,
  DYNAMO_PROVIDER,
  engineCapabilities,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { desiredObjects } from '@runway-portal/provider-shared';
import { dynamoProvider } from './definition';

const cases = engineCapabilities(DYNAMO_PROVIDER).flatMap(e =>
  (['v1alpha1', 'v1beta1'] as const).map(version => ({
    engine: e.name,
    version,
  })),
);

describe('Dynamo default images come from the one table', () => {
  it.each(cases)('$engine $version', ({ engine, version }) => {
    const md: ModelDeployment = {
      metadata: { name: 'm', namespace: 'ns', uid: 'u' },
      spec: {
        model: { id: 'org/model' },
        engine: { type: engine },
        resources: { gpu: { count: 1 } },
      },
      status: { provider: { name: 'dynamo' } },
    };
    const spec = desiredObjects(dynamoProvider, md, {
      apiVersion: `nvidia.com/${version}`,
    }).objects[0].spec as any;
    const images: string[] = spec.components
      ? spec.components.map((c: any) => c.podTemplate.spec.containers[0].image)
      : Object.values<any>(spec.services).map(
          s => s.extraPodSpec.mainContainer.image,
        );
    expect(images.length).toBeGreaterThan(1);
    expect(new Set(images)).toEqual(new Set([defaultImage('dynamo', engine)]));
  });
});
