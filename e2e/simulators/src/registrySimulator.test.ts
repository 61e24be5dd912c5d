import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import {
  buildImage,
  startRegistrySimulator,
  tarArchive,
  type RegistrySimulator,
} from './registrySimulator';

const sha256 = (data: Buffer) =>
  `sha256:${createHash('sha256').update(data).digest('hex')}`;

describe('registry simulator', () => {
  let registry: RegistrySimulator;
  let locked: RegistrySimulator;
  const images = {
    'team/app:1': { labels: { a: 'b' } },
    'team/multi:1': { index: true, labels: { a: 'c' } },
  };
  beforeAll(async () => {
    registry = await startRegistrySimulator({ images });
    locked = await startRegistrySimulator({
      images,
      auth: { username: 'u', password: 'p' },
    });
  });
  afterAll(async () => {
    await registry?.stop();
    await locked?.stop();
  });

  it('serves content-addressed manifests (by tag and digest, GET and HEAD) and blobs', async () => {
    const base = `http://${registry.host}/v2/team/app`;
    const byTag = await fetch(`${base}/manifests/1`);
    const body = Buffer.from(await byTag.arrayBuffer());
    const digest = byTag.headers.get('docker-content-digest');
    expect(digest).toBe(sha256(body));
    expect(digest).toBe(registry.digestOf('team/app:1'));
    const head = await fetch(`${base}/manifests/${digest}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('docker-content-digest')).toBe(digest);
    const manifest = JSON.parse(body.toString());
    const config = Buffer.from(
      await (
        await fetch(`${base}/blobs/${manifest.config.digest}`)
      ).arrayBuffer(),
    );
    expect(sha256(config)).toBe(manifest.config.digest);
    expect(JSON.parse(config.toString()).config.Labels).toEqual({ a: 'b' });
    expect(registry.image('team/app:1')).toBe(`${registry.host}/team/app:1`);
  });

  it('an index lists arm64 before amd64', async () => {
    const res = await fetch(
      `http://${registry.host}/v2/team/multi/manifests/1`,
    );
    const index = await res.json();
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.oci.image.index.v1+json',
    );
    expect(index.manifests.map((m: any) => m.platform.architecture)).toEqual([
      'arm64',
      'amd64',
    ]);
  });

  it('answers OCI errors for what it does not have', async () => {
    const res = await fetch(`http://${registry.host}/v2/team/none/manifests/1`);
    expect(res.status).toBe(404);
    expect((await res.json()).errors[0].code).toBe('NAME_UNKNOWN');
  });

  it('with auth: a Bearer challenge, a token endpoint wanting Basic credentials', async () => {
    const url = `http://${locked.host}/v2/team/app/manifests/1`;
    const challenge = await fetch(url);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(
      `Bearer realm="http://${locked.host}/token",service="registry-simulator",scope="repository:team/app:pull"`,
    );
    expect((await fetch(`http://${locked.host}/token`)).status).toBe(401);
    const { token } = await (
      await fetch(`http://${locked.host}/token?scope=x`, {
        headers: {
          Authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
        },
      })
    ).json();
    const ok = await fetch(url, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
  });

  it('builds layers as gzip tar archives', () => {
    const { built } = buildImage({ layers: [{ 'app/config.yaml': 'x' }] });
    const layers = [...built.blobs.values()].filter(b => b[0] === 0x1f);
    expect(layers).toHaveLength(1);
    const tar = gunzipSync(layers[0]);
    expect(tar.subarray(0, 15).toString()).toBe('app/config.yaml');
    expect(tar.equals(tarArchive({ 'app/config.yaml': 'x' }))).toBe(true);
  });
});
