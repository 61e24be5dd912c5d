/** What the shared loop promises every provider, run against dynamo: provider-shared's conformance suite. */
import path from 'node:path';
import { describeProviderConformance } from '@runway-portal/provider-shared/testing';
import { dynamoProvider } from './definition';

jest.setTimeout(180_000);

describeProviderConformance({
  definition: dynamoProvider,
  /** `../shared` next to the repository root (see the project README). */
  upstreamCrds: [
    path.resolve(
      __dirname,
      '../../../../../shared/upstream/crds',
      'dynamo-nvidia.com_dynamographdeployments.yaml',
    ),
  ],
  upstreamApiVersion: 'nvidia.com/v1beta1',
  spec: {
    model: { id: 'Qwen/Qwen2.5-7B-Instruct' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 } },
  },
  identityChange: { model: { id: 'meta-llama/Llama-3.2-3B-Instruct' } },
});
