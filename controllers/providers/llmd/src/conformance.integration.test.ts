/** What the shared loop promises every provider, run against llmd: provider-shared's conformance suite. */
import path from 'node:path';
import { describeProviderConformance } from '@runway-portal/provider-shared/testing';
import { llmdProvider } from './definition';

jest.setTimeout(180_000);

describeProviderConformance({
  definition: llmdProvider,
  /** `../shared` next to the repository root (see the project README). */
  upstreamCrds: [
    path.resolve(
      __dirname,
      '../../../../../shared/upstream/crds',
      'gaie-inference.networking.k8s.io_inferencepools.v1.6.0.yaml',
    ),
  ],
  upstreamApiVersion: 'inference.networking.k8s.io/v1',
  spec: {
    model: { id: 'Qwen/Qwen2.5-7B-Instruct' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
  },
  identityChange: { model: { id: 'meta-llama/Llama-3.2-3B-Instruct' } },
});
