import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_EPP_IMAGE } from './gateway';
import {
  DEFAULT_IMAGES,
  defaultImage,
  DYNAMO_RUNTIME_VERSION,
  RAY_VERSION,
} from './images';

const SAMPLES = resolve(__dirname, '../../../../../shared/upstream/samples');
const samples = readdirSync(SAMPLES)
  .filter(f => f.endsWith('.yaml'))
  .map(f => readFileSync(resolve(SAMPLES, f), 'utf8'))
  .join('\n');

describe('the default image table', () => {
  it('has one entry per provider and engine, each with a tag and where it was checked', () => {
    const keys = DEFAULT_IMAGES.map(i => `${i.provider}/${i.engine}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const i of DEFAULT_IMAGES) {
      expect(i.repository).toMatch(/^[a-z0-9.-]+(\/[a-z0-9._-]+)+$/);
      expect(i.version).toMatch(/^[A-Za-z0-9._-]+$/);
      expect(i.checked.length).toBeGreaterThan(10);
      expect(defaultImage(i.provider, i.engine)).toBe(
        `${i.repository}:${i.version}`,
      );
    }
    expect(() => defaultImage('dynamo', 'llamacpp')).toThrow(
      /no default image for provider dynamo, engine llamacpp/,
    );
  });

  it.each([
    [
      'dynamo',
      'vllm',
      `nvcr.io/nvidia/ai-dynamo/vllm-runtime:${DYNAMO_RUNTIME_VERSION}`,
    ],
    [
      'dynamo',
      'sglang',
      `nvcr.io/nvidia/ai-dynamo/sglang-runtime:${DYNAMO_RUNTIME_VERSION}`,
    ],
    // NGC's name; the seed's table says trtllm-runtime, which does not exist.
    [
      'dynamo',
      'trtllm',
      `nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:${DYNAMO_RUNTIME_VERSION}`,
    ],
    // The seed's table says rayproject/ray-ml, which has no Ray Serve LLM.
    ['kuberay', 'vllm', `rayproject/ray-llm:${RAY_VERSION}-py311-cu128`],
    ['llmd', 'vllm', 'ghcr.io/llm-d/llm-d-cuda:v0.4.0'],
    [
      'core',
      'epp',
      'registry.k8s.io/gateway-api-inference-extension/epp:v1.6.0',
    ],
  ] as const)('%s %s is %s', (provider, engine, image) => {
    expect(defaultImage(provider, engine)).toBe(image);
  });

  it("names repositories the upstream projects' own manifests use (../shared/upstream/samples)", () => {
    // Exact image (repository and tag) where upstream pins one.
    expect(samples).toContain(defaultImage('kuberay', 'vllm'));
    // Repository where upstream's samples use a placeholder or moving tag (my-tag, latest).
    for (const [provider, engine] of [
      ['dynamo', 'vllm'],
      ['llmd', 'vllm'],
      ['llmd', 'routing-sidecar'],
    ] as const) {
      expect(samples).toContain(
        `${
          DEFAULT_IMAGES.find(
            i => i.provider === provider && i.engine === engine,
          )!.repository
        }:`,
      );
    }
    // The GAIE release's own registry path and tag.
    expect(samples).toContain(
      `registry.k8s.io/gateway-api-inference-extension/lwepp:v1.6.0`,
    );
    expect(DEFAULT_EPP_IMAGE).toBe(defaultImage('core', 'epp'));
  });
});
