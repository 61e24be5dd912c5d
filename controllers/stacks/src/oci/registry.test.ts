/**
 * The registry client against the registry simulator (e2e/simulators, HTTP
 * on loopback): labels of a plain manifest and of an index, the layer
 * variant, the Bearer token flow with and without credentials, the
 * registry's answers in the messages, the deadline.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  startRegistrySimulator,
  type RegistrySimulator,
  type SimulatedImage,
} from '@runway-portal/e2e-simulators';
import {
  CONFIG_LABEL_BASE64,
  CONFIG_LABEL_LAYER,
  CONFIG_LABEL_PATH,
  CONFIG_LABEL_VERSION,
} from './image';
import { readImageConfig, RegistryError } from './registry';

const CONFIG = 'version: 2\nimage_name: labelled\napis: [inference]\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

let open: RegistrySimulator;
let locked: RegistrySimulator;

beforeAll(async () => {
  const images: Record<string, SimulatedImage> = {
    'llamastack/labelled:1': {
      labels: {
        [CONFIG_LABEL_BASE64]: b64(CONFIG),
        [CONFIG_LABEL_VERSION]: '2',
      },
    },
    'llamastack/indexed:1': {
      index: true,
      labels: { [CONFIG_LABEL_BASE64]: b64(CONFIG) },
    },
    'llamastack/layered:1': {
      layers: [{ 'bin/server': 'x' }, { 'app/config.yaml': CONFIG }],
      labels: (layers: string[]) => ({
        [CONFIG_LABEL_LAYER]: layers[1],
        [CONFIG_LABEL_PATH]: '/app/config.yaml',
      }),
    },
    'llamastack/plain:1': { labels: { maintainer: 'someone' } },
    'llamastack/future:1': {
      labels: {
        [CONFIG_LABEL_BASE64]: b64(CONFIG),
        [CONFIG_LABEL_VERSION]: '3',
      },
    },
  };
  open = await startRegistrySimulator({ images });
  locked = await startRegistrySimulator({
    images,
    auth: { username: 'puller', password: 'hunter2' },
  });
});

afterAll(async () => {
  await open?.stop();
  await locked?.stop();
});

const insecure = () => ({
  insecureRegistries: [open.host, locked.host],
  timeoutMs: 10_000,
});

describe('readImageConfig', () => {
  it('reads the base64 label of a plain manifest, checking digests (anonymous)', async () => {
    const read = await readImageConfig(
      open.image('llamastack/labelled:1'),
      [],
      insecure(),
    );
    expect(read).toEqual({
      kind: 'found',
      digest: open.digestOf('llamastack/labelled:1'),
      config: CONFIG,
      version: 2,
    });
  });

  it('picks linux/amd64 from an index', async () => {
    const read = await readImageConfig(
      open.image('llamastack/indexed:1'),
      [],
      insecure(),
    );
    expect(read).toMatchObject({
      kind: 'found',
      digest: open.digestOf('llamastack/indexed:1'),
      config: CONFIG,
    });
  });

  it('reads config.yaml from the layer the labels name', async () => {
    const read = await readImageConfig(
      open.image('llamastack/layered:1'),
      [],
      insecure(),
    );
    expect(read).toMatchObject({ kind: 'found', config: CONFIG });
  });

  it('an image without labels is none; an unsupported version label is invalid', async () => {
    expect(
      await readImageConfig(open.image('llamastack/plain:1'), [], insecure()),
    ).toEqual({ kind: 'none', digest: open.digestOf('llamastack/plain:1') });
    expect(
      await readImageConfig(open.image('llamastack/future:1'), [], insecure()),
    ).toMatchObject({
      kind: 'invalid',
      reason: 'UnsupportedConfigVersion',
      message: 'Unsupported config.yaml version 3. Supported versions: 2, 1',
    });
  });

  it('a digest already known (FR-027i) costs one HEAD, no blob', async () => {
    const name = 'llamastack/labelled:1';
    const before = open.requests.length;
    const cached = {
      kind: 'none' as const,
      digest: open.digestOf(name),
    };
    const read = await readImageConfig(open.image(name), [], insecure(), d =>
      d === cached.digest ? cached : undefined,
    );
    expect(read).toBe(cached);
    expect(open.requests.slice(before).map(r => r.method)).toEqual(['HEAD']);
  });

  it('follows the Bearer token flow with the pull secret credentials for that registry', async () => {
    const read = await readImageConfig(
      locked.image('llamastack/labelled:1'),
      [
        { host: 'elsewhere.example', username: 'x', password: 'y' },
        { host: locked.host, username: 'puller', password: 'hunter2' },
      ],
      insecure(),
    );
    expect(read).toMatchObject({ kind: 'found', config: CONFIG });
    expect(locked.requests.some(r => r.path === '/token')).toBe(true);
  });

  it("without credentials, the message names the registry's answer", async () => {
    await expect(
      readImageConfig(locked.image('llamastack/labelled:1'), [], insecure()),
    ).rejects.toThrow(
      /the token service of 127\.0\.0\.1:\d+ \(http:\/\/127\.0\.0\.1:\d+\) answered 401 UNAUTHORIZED: authentication required \(anonymous: no pull Secret has credentials for it\)/,
    );
  });

  it('an unknown image: the registry answer, naming the manifest', async () => {
    await expect(
      readImageConfig(open.image('llamastack/missing:1'), [], insecure()),
    ).rejects.toThrow(
      /answered 404 NAME_UNKNOWN: repository name not known to registry for the manifest of llamastack\/missing:1/,
    );
  });

  it('a registry not listed as insecure is spoken to over HTTPS (and fails here)', async () => {
    await expect(
      readImageConfig(open.image('llamastack/labelled:1'), [], {
        timeoutMs: 5000,
      }),
    ).rejects.toThrow(RegistryError);
  });

  describe('a registry that never answers', () => {
    let silent: Server;
    let host: string;
    beforeAll(async () => {
      silent = createServer(() => undefined);
      await new Promise<void>(r => silent.listen(0, '127.0.0.1', r));
      host = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    });
    afterAll(
      () =>
        new Promise<void>(r => {
          silent.closeAllConnections();
          silent.close(() => r());
        }),
    );

    it('gives up at the deadline, saying so', async () => {
      await expect(
        readImageConfig(`${host}/a:1`, [], {
          insecureRegistries: [host],
          timeoutMs: 300,
        }),
      ).rejects.toThrow(`no answer from ${host} within 300 ms`);
    });
  });

  describe('a registry that stalls in the middle of a body', () => {
    let stalling: Server;
    let host: string;
    beforeAll(async () => {
      // Headers without a digest (so the manifest is fetched), then half a body, then nothing.
      stalling = createServer((_req, res) => {
        res.writeHead(200, {
          'Content-Type': 'application/vnd.oci.image.manifest.v1+json',
          'Content-Length': '1000',
        });
        res.write('{');
      });
      await new Promise<void>(r => stalling.listen(0, '127.0.0.1', r));
      host = `127.0.0.1:${(stalling.address() as AddressInfo).port}`;
    });
    afterAll(
      () =>
        new Promise<void>(r => {
          stalling.closeAllConnections();
          stalling.close(() => r());
        }),
    );

    it('gives up at the deadline too', async () => {
      await expect(
        readImageConfig(`${host}/a:1`, [], {
          insecureRegistries: [host],
          timeoutMs: 500,
        }),
      ).rejects.toThrow(`no answer from ${host} within 500 ms`);
    });
  });
});
