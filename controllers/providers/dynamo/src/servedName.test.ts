/**
 * The name clients are told to send (the gateway's model name, which
 * status and the portal show) is the name every Dynamo worker serves, for
 * every engine, serving mode and API version.
 */
import {
  DYNAMO_PROVIDER,
  engineCapabilities,
  gatewayCapabilities,
  gatewayModelName,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { desiredObjects } from '@runway-portal/provider-shared';
import { dynamoProvider } from './definition';

/** The value after `--served-model-name` in each worker's command line. */
function servedNames(dgd: any): Array<string | undefined> {
  const argvs: string[][] = dgd.spec.components
    ? dgd.spec.components
        .filter((c: any) => c.type !== 'frontend')
        .map((c: any) => c.podTemplate.spec.containers[0].args)
    : Object.values<any>(dgd.spec.services)
        .filter(s => s.componentType === 'worker')
        .map(s => s.extraPodSpec.mainContainer.args[0].split(' '));
  return argvs.map(argv => {
    const i = argv.indexOf('--served-model-name');
    return i < 0 ? undefined : argv[i + 1];
  });
}

const engines = engineCapabilities(DYNAMO_PROVIDER);
const cases = engines.flatMap(e =>
  (e.servingModes ?? ['aggregated']).flatMap(mode =>
    (['v1alpha1', 'v1beta1'] as const).flatMap(version =>
      [undefined, 'my-llm'].map(servedName => ({
        engine: e.name,
        mode,
        version,
        servedName,
      })),
    ),
  ),
);

describe('Dynamo: advertised name = the name the workers serve', () => {
  it.each(cases)(
    '$engine $mode $version servedName=$servedName',
    ({ engine, mode, version, servedName }) => {
      const disaggregated = mode === 'disaggregated';
      const md: ModelDeployment = {
        metadata: { name: 'm', namespace: 'ns', uid: 'u' },
        spec: {
          model: {
            id: 'meta-llama/Llama-3.1-8B-Instruct',
            ...(servedName ? { servedName } : {}),
          },
          engine: { type: engine },
          serving: { mode },
          ...(disaggregated
            ? {
                scaling: {
                  prefill: { replicas: 1, gpu: { count: 1 } },
                  decode: { replicas: 1, gpu: { count: 1 } },
                },
              }
            : { resources: { gpu: { count: 1 } } }),
        },
        status: { provider: { name: 'dynamo' } },
      };
      const dgd = desiredObjects(dynamoProvider, md, {
        apiVersion: `nvidia.com/${version}`,
      }).objects[0];
      const advertised = gatewayModelName(
        md.spec,
        gatewayCapabilities(DYNAMO_PROVIDER, engine),
      );
      expect(advertised).toBe(servedName ?? 'Llama-3.1-8B-Instruct');
      const names = servedNames(dgd);
      expect(names.length).toBe(disaggregated ? 2 : 1);
      for (const name of names) expect(name).toBe(advertised);
    },
  );
});
