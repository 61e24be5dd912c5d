/** What the shared loop promises every provider, run against kaito: provider-shared's conformance suite. */
import path from 'node:path';
import { describeProviderConformance } from '@runway-portal/provider-shared/testing';
import { kaitoProvider } from './definition';

jest.setTimeout(180_000);

describeProviderConformance({
  definition: kaitoProvider,
  /** `../shared` next to the repository root (see the project README). */
  upstreamCrds: [
    path.resolve(
      __dirname,
      '../../../../../shared/upstream/crds',
      'kaito-kaito.sh_workspaces.yaml',
    ),
  ],
  upstreamApiVersion: 'kaito.sh/v1beta1',
  spec: {
    model: { id: 'Qwen/Qwen2.5-7B-Instruct' },
    engine: { type: 'vllm' },
    // With an image KAITO runs a pod template, which can mount volumes (a preset cannot).
    image: 'vllm/vllm-openai:v0.8.5',
    resources: { gpu: { count: 1 } },
  },
  identityChange: { model: { id: 'meta-llama/Llama-3.2-3B-Instruct' } },
});
