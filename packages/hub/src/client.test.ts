import { createHash } from 'node:crypto';
import {
  startHubStandIn,
  type HubStandIn,
} from '@runway-portal/e2e-simulators';
import {
  fileUrl,
  hubEndpoint,
  HubError,
  listModelFiles,
  searchModels,
} from './client';

const weights = Buffer.alloc(4096, 7);
const sha = createHash('sha256').update(weights).digest('hex');

describe('hub client against the hub stand-in', () => {
  let hub: HubStandIn;
  beforeAll(async () => {
    hub = await startHubStandIn({
      token: 'hf_good',
      pageSize: 2,
      repos: {
        'org/tiny': {
          files: {
            'config.json': '{}',
            'model.safetensors': weights,
            'sub/tokenizer.json': '{"a":1}',
          },
        },
        'org/gated': {
          gated: true,
          license: 'llama3.1',
          parameters: 8_030_000_000,
          files: { 'config.json': '{}' },
        },
      },
    });
  });
  afterAll(() => hub.close());

  it('lists every file across pages, with sizes and the sha256 of LFS files', async () => {
    const files = await listModelFiles('org/tiny', { endpoint: hub.url });
    expect(files).toEqual([
      { path: 'config.json', size: 2 },
      { path: 'model.safetensors', size: 4096, sha256: sha },
      { path: 'sub/tokenizer.json', size: 7 },
    ]);
    expect(hub.requests.filter(r => r.path.includes('/tree/'))).toHaveLength(2);
  });

  it('names HF_TOKEN for a gated repository without a token, and passes with it', async () => {
    const error = await listModelFiles('org/gated', {
      endpoint: hub.url,
    }).catch(e => e);
    expect(error).toBeInstanceOf(HubError);
    expect(error.code).toBe('gated');
    expect(error.message).toMatch(/gated: put a token .* in HF_TOKEN/);
    await expect(
      listModelFiles('org/gated', { endpoint: hub.url, token: 'hf_good' }),
    ).resolves.toEqual([{ path: 'config.json', size: 2 }]);
  });

  it('says not found for a missing repository, and network for no hub', async () => {
    const missing = await listModelFiles('org/none', {
      endpoint: hub.url,
    }).catch(e => e);
    expect(missing.code).toBe('not-found');
    expect(missing.message).toContain("'org/none'");
    const down = await listModelFiles('org/tiny', {
      endpoint: 'http://127.0.0.1:1',
    }).catch(e => e);
    expect(down.code).toBe('network');
    expect(down.message).toMatch(/HF_ENDPOINT/);
  });

  it('builds resolve URLs that serve the file, with ranges', async () => {
    const url = fileUrl('org/tiny', 'model.safetensors', { endpoint: hub.url });
    expect(url).toBe(`${hub.url}/org/tiny/resolve/main/model.safetensors`);
    const part = await fetch(url, { headers: { range: 'bytes=4090-' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toHaveLength(6);
  });

  it('searches repositories with size, parameter count and license', async () => {
    const found = await searchModels('ORG/', { endpoint: hub.url, limit: 5 });
    expect(found).toEqual([
      { id: 'org/tiny', gated: false, sizeBytes: 4105, downloads: 0 },
      {
        id: 'org/gated',
        gated: true,
        sizeBytes: 2,
        parameters: 8_030_000_000,
        license: 'llama3.1',
        downloads: 0,
      },
    ]);
    const asked = hub.requests.find(r => r.path.startsWith('/api/models?'))!;
    expect(asked.path).toContain('search=ORG%2F');
    expect(asked.path).toContain('limit=5');
    expect(await searchModels('nothing', { endpoint: hub.url })).toEqual([]);
    await expect(
      searchModels('x', { endpoint: 'http://127.0.0.1:1' }),
    ).rejects.toMatchObject({ code: 'network' });
  });

  it('reads HF_ENDPOINT without a trailing slash', () => {
    expect(hubEndpoint({ HF_ENDPOINT: 'http://mirror:8080/' })).toBe(
      'http://mirror:8080',
    );
    expect(hubEndpoint({})).toBe('https://huggingface.co');
  });
});
