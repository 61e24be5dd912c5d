/**
 * The name clients are told to send (the gateway's model name, which
 * status and the portal show) is the name every llm-d vLLM server serves,
 * in both serving modes.
 */
import {
  engineCapabilities,
  gatewayCapabilities,
  gatewayModelName,
  LLMD_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { desiredObjects } from '@runway-portal/provider-shared';
import { llmdProvider } from './definition';

const engines = engineCapabilities(LLMD_PROVIDER);
const cases = engines.flatMap(e =>
  (e.servingModes ?? ['aggregated']).flatMap(mode =>
    [undefined, 'my-llm'].map(servedName => ({
      engine: e.name,
      mode,
      servedName,
    })),
  ),
);

describe('llm-d: advertised name = the name vLLM serves', () => {
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
        status: { provider: { name: 'llmd' } },
      };
      const servers = desiredObjects(llmdProvider, md, {
        apiVersion: 'inference.networking.k8s.io/v1',
      }).objects.filter(
        o =>
          o.kind === 'Deployment' &&
          (o.metadata?.name === 'm-decode' || o.metadata?.name === 'm-prefill'),
      );
      const advertised = gatewayModelName(
        md.spec,
        gatewayCapabilities(LLMD_PROVIDER, engine),
      );
      expect(advertised).toBe(servedName ?? 'Qwen2.5-7B-Instruct');
      expect(servers).toHaveLength(disaggregated ? 2 : 1);
      for (const server of servers) {
        const vllm = (server.spec as any).template.spec.containers.find(
          (c: any) => (c.args ?? []).includes('--served-model-name'),
        );
        expect(vllm.args[vllm.args.indexOf('--served-model-name') + 1]).toBe(
          advertised,
        );
      }
    },
  );
});
