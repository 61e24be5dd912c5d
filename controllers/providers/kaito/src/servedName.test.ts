/**
 * The name clients are told to send (the gateway's model name, which
 * status and the portal show) is the name KAITO's engine serves, for every
 * engine and Workspace form (preset, vLLM pod template, llama.cpp).
 */
import {
  engineCapabilities,
  gatewayCapabilities,
  gatewayModelName,
  KAITO_PROVIDER,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { KubeObject } from '@runway-portal/controller-runtime';
import { desiredObjects } from '@runway-portal/provider-shared';
import { parse } from 'yaml';
import { kaitoProvider } from './definition';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

/** The served name given to the engine: the template's flag, or the preset's inference ConfigMap. */
function engineServedName(objects: KubeObject[]): string | undefined {
  const inference = objects[0].inference as any;
  if (inference.template) {
    return flag(
      inference.template.spec.containers[0].args,
      '--served-model-name',
    );
  }
  const config = objects.find(
    o => o.kind === 'ConfigMap' && o.metadata?.name === inference.config,
  );
  return parse(
    (config!.data as Record<string, string>)['inference_config.yaml'],
  ).vllm['served-model-name'];
}

const forms: Array<{
  form: string;
  engine: 'vllm' | 'llamacpp';
  image?: string;
}> = [
  { form: 'vllm preset', engine: 'vllm', image: undefined },
  { form: 'vllm template', engine: 'vllm', image: 'vllm/vllm-openai:v0.11.0' },
  {
    form: 'llama.cpp template',
    engine: 'llamacpp',
    image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
  },
];
const cases = forms.flatMap(f =>
  (['kaito.sh/v1beta1', 'kaito.sh/v1alpha1'] as const).flatMap(apiVersion =>
    [undefined, 'my-llm'].map(servedName => ({ ...f, apiVersion, servedName })),
  ),
);

describe('KAITO: advertised name = the name the engine serves', () => {
  it('covers every engine KAITO registers', () => {
    expect(
      engineCapabilities(KAITO_PROVIDER)
        .map(e => e.name)
        .sort(),
    ).toEqual([...new Set(forms.map(f => f.engine))].sort());
  });

  it.each(cases)(
    '$form $apiVersion servedName=$servedName',
    ({ engine, image, apiVersion, servedName }) => {
      const md: ModelDeployment = {
        metadata: { name: 'm', namespace: 'ns', uid: 'u' },
        spec: {
          model: {
            id: 'microsoft/Phi-3-mini-4k-instruct',
            ...(servedName ? { servedName } : {}),
          },
          engine: { type: engine },
          resources: { gpu: { count: engine === 'vllm' ? 1 : 0 } },
          ...(image ? { image } : {}),
        },
        status: { provider: { name: 'kaito' } },
      };
      const { objects } = desiredObjects(kaitoProvider, md, { apiVersion });
      const advertised = gatewayModelName(
        md.spec,
        gatewayCapabilities(KAITO_PROVIDER, engine),
      );
      // KAITO declares ignoresServedName for llama.cpp: the runner serves the model under its id, and the gateway routes by it.
      const expected =
        engine === 'llamacpp'
          ? 'microsoft/Phi-3-mini-4k-instruct'
          : servedName ?? 'Phi-3-mini-4k-instruct';
      expect(advertised).toBe(expected);
      expect(engineServedName(objects)).toBe(
        engine === 'llamacpp' ? undefined : advertised,
      );
    },
  );
});
