/**
 * The name clients are told to send (the gateway's model name, which
 * status and the portal show) is the model_id Ray Serve LLM serves, in
 * both serving modes.
 */
import {
  engineCapabilities,
  gatewayCapabilities,
  gatewayModelName,
  KUBERAY_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { desiredObjects } from '@runway-portal/provider-shared';
import { parse } from 'yaml';
import { kuberayProvider } from './definition';

const engines = engineCapabilities(KUBERAY_PROVIDER);
const cases = engines.flatMap(e =>
  (e.servingModes ?? ['aggregated']).flatMap(mode =>
    [undefined, 'my-llm'].map(servedName => ({
      engine: e.name,
      mode,
      servedName,
    })),
  ),
);

describe('KubeRay: advertised name = the model_id Ray Serve LLM serves', () => {
  it.each(cases)(
    '$engine $mode servedName=$servedName',
    ({ engine, mode, servedName }) => {
      const disaggregated = mode === 'disaggregated';
      const md: ModelDeployment = {
        metadata: { name: 'm', namespace: 'ns', uid: 'u' },
        spec: {
          model: {
            id: 'Qwen/Qwen2.5-7B-Instruct',
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
        status: { provider: { name: 'kuberay' } },
      };
      const rs = desiredObjects(kuberayProvider, md, {
        apiVersion: 'ray.io/v1',
      }).objects[0] as any;
      const args = parse(rs.spec.serveConfigV2).applications[0].args;
      const configs = disaggregated
        ? [args.prefill_config, args.decode_config]
        : args.llm_configs;
      const advertised = gatewayModelName(
        md.spec,
        gatewayCapabilities(KUBERAY_PROVIDER, engine),
      );
      expect(advertised).toBe(servedName ?? 'Qwen2.5-7B-Instruct');
      expect(configs).toHaveLength(disaggregated ? 2 : 1);
      for (const c of configs)
        expect(c.model_loading_config.model_id).toBe(advertised);
    },
  );
});
