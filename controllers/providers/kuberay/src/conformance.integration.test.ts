/** What the shared loop promises every provider, run against kuberay: provider-shared's conformance suite. */
import path from 'node:path';
import { describeProviderConformance } from '@runway-portal/provider-shared/testing';
import { kuberayProvider } from './definition';

jest.setTimeout(180_000);

describeProviderConformance({
  definition: kuberayProvider,
  /** `../shared` next to the repository root (see the project README). */
  upstreamCrds: [
    path.resolve(
      __dirname,
      '../../../../../shared/upstream/crds',
      'kuberay-ray.io_rayservices.yaml',
    ),
  ],
  upstreamApiVersion: 'ray.io/v1',
  spec: {
    model: { id: 'Qwen/Qwen2.5-7B-Instruct' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
  },
  identityChange: { model: { id: 'meta-llama/Llama-3.2-3B-Instruct' } },
});
