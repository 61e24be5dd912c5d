import {
  startHubStandIn,
  type HubStandIn,
} from '@runway-portal/e2e-simulators';
import { TransformError } from '@runway-portal/provider-shared';
import {
  chooseGgufFile,
  clearGgufCache,
  ggufCandidates,
  matchingQuantization,
  resolveGgufFile,
} from './gguf';

const QUANTS = [
  'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
  'Llama-3.2-1B-Instruct-Q4_K_M_L.gguf',
  'Llama-3.2-1B-Instruct-Q8_0.gguf',
];

describe('choosing the GGUF file (pure)', () => {
  it('keeps model files: no projectors, first part of split models only', () => {
    expect(
      ggufCandidates([
        'README.md',
        'mmproj-model-f16.gguf',
        'big/model-Q8_0-00001-of-00003.gguf',
        'big/model-Q8_0-00002-of-00003.gguf',
        'model-Q4_0.GGUF',
      ]),
    ).toEqual(['big/model-Q8_0-00001-of-00003.gguf', 'model-Q4_0.GGUF']);
  });

  it('matches a quantisation as a whole word, case-insensitively', () => {
    expect(matchingQuantization(QUANTS, 'q4_k_m')).toEqual([
      'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    ]);
    expect(
      matchingQuantization(['mistral-7b-instruct-v0.2.Q5_K_S.gguf'], 'Q5_K_S'),
    ).toEqual(['mistral-7b-instruct-v0.2.Q5_K_S.gguf']);
    expect(matchingQuantization(QUANTS, 'Q4_K')).toEqual([]);
  });

  it("takes a repository's only GGUF file (seed 000 example 2's repository)", () => {
    expect(
      chooseGgufFile('google/gemma-3-1b-it-qat-q8_0-gguf', [
        '.gitattributes',
        'README.md',
        'gemma-3-1b-it-q8_0.gguf',
      ]),
    ).toBe('gemma-3-1b-it-q8_0.gguf');
  });

  it('picks by spec.engine.args.quantization', () => {
    expect(chooseGgufFile('org/llama-gguf', QUANTS, 'Q8_0')).toBe(
      'Llama-3.2-1B-Instruct-Q8_0.gguf',
    );
  });

  it('fails when ambiguous, listing the files and naming the fields to set', () => {
    expect(() => chooseGgufFile('org/llama-gguf', QUANTS)).toThrow(
      TransformError,
    );
    expect(() => chooseGgufFile('org/llama-gguf', QUANTS)).toThrow(
      "spec.model.id: 'org/llama-gguf' has 3 GGUF files (Llama-3.2-1B-Instruct-Q4_K_M.gguf, Llama-3.2-1B-Instruct-Q4_K_M_L.gguf, Llama-3.2-1B-Instruct-Q8_0.gguf): set spec.engine.args.quantization (e.g. Q4_K_M) or name the file in spec.model.id ('org/llama-gguf/<file>.gguf')",
    );
    expect(() =>
      chooseGgufFile(
        'org/llama-gguf',
        [...QUANTS, 'other/Llama-Q8_0.gguf'],
        'q8_0',
      ),
    ).toThrow(
      /^spec\.engine\.args\.quantization: 'q8_0' matches 2 GGUF files of 'org\/llama-gguf' \(Llama-3\.2-1B-Instruct-Q8_0\.gguf, other\/Llama-Q8_0\.gguf\)/,
    );
  });

  it('fails when no file has the quantisation, and when the repository has no GGUF file', () => {
    expect(() => chooseGgufFile('org/llama-gguf', QUANTS, 'IQ2_XS')).toThrow(
      /^spec\.engine\.args\.quantization: no GGUF file of 'org\/llama-gguf' is quantised as 'IQ2_XS': choose one of the files Llama-3\.2-1B-Instruct-Q4_K_M\.gguf, /,
    );
    expect(() =>
      chooseGgufFile('org/safetensors', ['config.json', 'model.safetensors']),
    ).toThrow(
      /^spec\.model\.id: 'org\/safetensors' has no GGUF file \(files: config\.json, model\.safetensors\): llama\.cpp runs GGUF models/,
    );
  });
});

describe('resolving the GGUF file from the hub (stand-in, as HF_ENDPOINT)', () => {
  let hub: HubStandIn;
  beforeAll(async () => {
    hub = await startHubStandIn({
      pageSize: 2,
      repos: {
        'org/llama-gguf': {
          files: Object.fromEntries(
            [...QUANTS, 'README.md'].map(f => [f, 'x']),
          ),
        },
        'org/one-gguf': {
          files: { 'one-q8_0.gguf': 'x', 'config.json': '{}' },
        },
        'org/gated-gguf': { gated: true, files: { 'm.gguf': 'x' } },
      },
    });
  });
  afterAll(() => hub.close());
  beforeEach(() => clearGgufCache());

  it('lists every page of files and chooses, then answers from its cache', async () => {
    const before = hub.requests.length;
    expect(
      await resolveGgufFile('org/llama-gguf', 'Q4_K_M', { endpoint: hub.url }),
    ).toBe('Llama-3.2-1B-Instruct-Q4_K_M.gguf');
    expect(
      await resolveGgufFile('org/llama-gguf', 'Q8_0', { endpoint: hub.url }),
    ).toBe('Llama-3.2-1B-Instruct-Q8_0.gguf');
    expect(
      hub.requests
        .slice(before)
        .filter(r => r.path.startsWith('/api/models/org/llama-gguf/tree/')),
    ).toHaveLength(2);
    expect(
      await resolveGgufFile('org/one-gguf', undefined, { endpoint: hub.url }),
    ).toBe('one-q8_0.gguf');
  });

  it('reads HF_ENDPOINT when no endpoint is given', async () => {
    const saved = process.env.HF_ENDPOINT;
    process.env.HF_ENDPOINT = hub.url;
    try {
      expect(await resolveGgufFile('org/one-gguf', undefined)).toBe(
        'one-q8_0.gguf',
      );
    } finally {
      if (saved === undefined) delete process.env.HF_ENDPOINT;
      else process.env.HF_ENDPOINT = saved;
    }
  });

  it('turns a missing or gated repository into a condition naming spec.model.id', async () => {
    await expect(
      resolveGgufFile('org/missing', undefined, { endpoint: hub.url }),
    ).rejects.toThrow(/^spec\.model\.id: The hub repository 'org\/missing'/);
    await expect(
      resolveGgufFile('org/gated-gguf', undefined, { endpoint: hub.url }),
    ).rejects.toThrow(
      /^spec\.model\.id: .*gated.*the KAITO provider reads no Secrets.*name the file in spec\.model\.id \('org\/gated-gguf\/<file>\.gguf'\)/,
    );
  });

  it('rethrows an unreachable hub, for the loop to retry', async () => {
    const err = await resolveGgufFile('org/one-gguf', undefined, {
      endpoint: 'http://127.0.0.1:9',
    }).catch(e => e);
    expect(err).not.toBeInstanceOf(TransformError);
    expect(err.message).toMatch(
      /Could not reach the hub at http:\/\/127\.0\.0\.1:9/,
    );
  });
});
