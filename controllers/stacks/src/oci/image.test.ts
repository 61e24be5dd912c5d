import { gzipSync } from 'node:zlib';
import { tarArchive } from '@runway-portal/e2e-simulators';
import {
  CONFIG_LABEL_BASE64,
  CONFIG_LABEL_LAYER,
  CONFIG_LABEL_PATH,
  CONFIG_LABEL_VERSION,
  credentialFor,
  credentialsFromDockerConfig,
  fileFromLayer,
  imageLabels,
  parseChallenge,
  parseImageReference,
  readConfigLabels,
  readManifest,
  MEDIA_TYPES,
} from './image';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const LAYER =
  'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

describe('parseImageReference', () => {
  it.each([
    [
      'llamastack/distribution-starter:0.4.1',
      {
        registry: 'registry-1.docker.io',
        repository: 'llamastack/distribution-starter',
        reference: '0.4.1',
      },
    ],
    [
      'ubuntu',
      {
        registry: 'registry-1.docker.io',
        repository: 'library/ubuntu',
        reference: 'latest',
      },
    ],
    [
      'docker.io/llamastack/distribution-starter@sha256:abc123',
      {
        registry: 'registry-1.docker.io',
        repository: 'llamastack/distribution-starter',
        reference: 'sha256:abc123',
      },
    ],
    [
      'quay.io/org/img:v1@sha256:abc',
      { registry: 'quay.io', repository: 'org/img', reference: 'sha256:abc' },
    ],
    [
      '127.0.0.1:5000/a/b/c:tag',
      { registry: '127.0.0.1:5000', repository: 'a/b/c', reference: 'tag' },
    ],
    [
      'localhost/img',
      { registry: 'localhost', repository: 'img', reference: 'latest' },
    ],
  ])('%s', (image, expected) => {
    expect(parseImageReference(image)).toEqual(expected);
  });

  it('names what is wrong with a bad reference', () => {
    expect(parseImageReference('Upper/Case:1')).toEqual({
      error:
        'image "Upper/Case:1" is not a valid image reference: repository "Upper/Case" must be lowercase letters, digits and separators',
    });
    expect(parseImageReference('img@md5')).toMatchObject({
      error: expect.stringContaining('digest "md5" is malformed'),
    });
  });
});

describe('parseChallenge', () => {
  it("reads Docker Hub's Bearer challenge", () => {
    expect(
      parseChallenge(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/ubuntu:pull"',
      ),
    ).toEqual({
      scheme: 'bearer',
      params: {
        realm: 'https://auth.docker.io/token',
        service: 'registry.docker.io',
        scope: 'repository:library/ubuntu:pull',
      },
    });
    expect(parseChallenge('Basic realm="r"')).toEqual({
      scheme: 'basic',
      params: { realm: 'r' },
    });
    expect(parseChallenge(null)).toBeUndefined();
  });
});

describe('docker config credentials', () => {
  it('reads auth and username/password entries, normalizing hosts (Docker Hub aliases too)', () => {
    const creds = credentialsFromDockerConfig(
      JSON.stringify({
        auths: {
          'https://index.docker.io/v1/': {
            auth: b64('hub:secret:with:colons'),
          },
          'Registry.Local:5000': { username: 'u', password: 'p' },
          'broken.example': { auth: b64('nocolon') },
        },
      }),
    );
    expect(creds).toEqual([
      {
        host: 'registry-1.docker.io',
        username: 'hub',
        password: 'secret:with:colons',
      },
      { host: 'registry.local:5000', username: 'u', password: 'p' },
    ]);
    expect(credentialFor('docker.io', creds)?.username).toBe('hub');
    expect(credentialFor('registry.local:5000', creds)?.username).toBe('u');
    expect(credentialFor('other.example', creds)).toBeUndefined();
  });

  it('reads the legacy .dockercfg map and ignores what is not JSON', () => {
    expect(
      credentialsFromDockerConfig(
        JSON.stringify({ 'quay.io': { auth: b64('a:b') } }),
      ),
    ).toEqual([{ host: 'quay.io', username: 'a', password: 'b' }]);
    expect(credentialsFromDockerConfig('not json')).toEqual([]);
  });
});

describe('readManifest', () => {
  const manifest = {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.ociManifest,
    config: { digest: 'sha256:c' },
    layers: [{ digest: LAYER }],
  };

  it('picks linux/amd64 from an index (OCI or Docker manifest list)', () => {
    const index = {
      manifests: [
        {
          digest: 'sha256:arm',
          platform: { os: 'linux', architecture: 'arm64' },
        },
        {
          digest: 'sha256:amd',
          platform: { os: 'linux', architecture: 'amd64' },
        },
      ],
    };
    expect(
      readManifest(JSON.stringify(index), MEDIA_TYPES.dockerList),
    ).toMatchObject({ kind: 'index', next: { digest: 'sha256:amd' } });
    expect(
      readManifest(
        JSON.stringify({ manifests: [index.manifests[0]] }),
        MEDIA_TYPES.ociIndex,
      ),
    ).toEqual({
      kind: 'error',
      message:
        'the image index has no linux/amd64 manifest (it has: linux/arm64)',
    });
  });

  it('gives the config and layers of a manifest; refuses schema 1', () => {
    expect(readManifest(JSON.stringify(manifest), undefined)).toEqual({
      kind: 'manifest',
      config: { digest: 'sha256:c' },
      layers: [{ digest: LAYER }],
    });
    expect(
      readManifest(
        JSON.stringify({ schemaVersion: 1, fsLayers: [] }),
        'application/vnd.docker.distribution.manifest.v1+prettyjws',
      ),
    ).toMatchObject({ kind: 'error' });
  });
});

describe('readConfigLabels (FR-027f)', () => {
  it('decodes the base64 label, with its version', () => {
    expect(
      readConfigLabels({
        [CONFIG_LABEL_BASE64]: b64('version: 2\n'),
        [CONFIG_LABEL_VERSION]: '2',
      }),
    ).toEqual({ kind: 'base64', config: 'version: 2\n', version: 2 });
  });

  it('gives the layer and path of the layer variant', () => {
    expect(
      readConfigLabels({
        [CONFIG_LABEL_LAYER]: LAYER,
        [CONFIG_LABEL_PATH]: 'app/config.yaml',
      }),
    ).toEqual({ kind: 'layer', layer: LAYER, path: 'app/config.yaml' });
  });

  it('no labels: none', () => {
    expect(readConfigLabels({ maintainer: 'x' })).toEqual({ kind: 'none' });
  });

  it("an unsupported version label fails with the generator's message (FR-029)", () => {
    expect(
      readConfigLabels({
        [CONFIG_LABEL_BASE64]: b64('version: 7\n'),
        [CONFIG_LABEL_VERSION]: '7',
      }),
    ).toEqual({
      kind: 'invalid',
      reason: 'UnsupportedConfigVersion',
      message: 'Unsupported config.yaml version 7. Supported versions: 2, 1',
    });
  });

  it('names the label at fault', () => {
    expect(readConfigLabels({ [CONFIG_LABEL_BASE64]: '!!!' })).toMatchObject({
      kind: 'invalid',
      message: `label ${CONFIG_LABEL_BASE64} is not base64`,
    });
    expect(readConfigLabels({ [CONFIG_LABEL_LAYER]: LAYER })).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining(`needs ${CONFIG_LABEL_PATH}`),
    });
    expect(
      readConfigLabels({
        [CONFIG_LABEL_LAYER]: 'latest',
        [CONFIG_LABEL_PATH]: 'x',
      }),
    ).toMatchObject({ kind: 'invalid' });
  });

  it('reads the string labels of a config blob', () => {
    expect(
      imageLabels(JSON.stringify({ config: { Labels: { a: 'b', n: 1 } } })),
    ).toEqual({ a: 'b' });
    expect(imageLabels(JSON.stringify({ config: {} }))).toEqual({});
  });
});

describe('fileFromLayer', () => {
  const tar = tarArchive({
    'app/other.txt': 'x',
    'app/config.yaml': 'version: 2\nimage_name: starter\n',
  });

  it('finds the file in a gzip or plain tar, with or without a leading ./ or /', () => {
    const expected = { text: 'version: 2\nimage_name: starter\n' };
    expect(fileFromLayer(gzipSync(tar), 'app/config.yaml')).toEqual(expected);
    expect(fileFromLayer(tar, '/app/config.yaml')).toEqual(expected);
    expect(fileFromLayer(tar, './app/config.yaml')).toEqual(expected);
  });

  it('says what is missing', () => {
    expect(fileFromLayer(tar, 'config.yaml')).toEqual({
      error: 'the layer has no file config.yaml',
    });
    expect(
      fileFromLayer(Buffer.from([0x1f, 0x8b, 1, 2, 3]), 'a'),
    ).toMatchObject({ error: expect.stringContaining('not valid gzip') });
  });

  it('reads PAX long paths', () => {
    const long = `${'d/'.repeat(60)}config.yaml`;
    // A PAX extended header ('x') carrying the path, then the file with a short name.
    const record = (() => {
      const body = ` path=${long}\n`;
      let len = body.length + 2;
      if (`${len}${body}`.length !== len) len += 1;
      return `${len}${body}`;
    })();
    const pax = tarArchive({ PaxHeader: record });
    pax[156] = 'x'.charCodeAt(0);
    // fix the checksum of the modified header
    pax.write('        ', 148, 'ascii');
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += pax[i];
    pax.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    const file = tarArchive({ short: 'hello' });
    const archive = Buffer.concat([pax.subarray(0, pax.length - 1024), file]);
    expect(fileFromLayer(archive, long)).toEqual({ text: 'hello' });
  });
});
