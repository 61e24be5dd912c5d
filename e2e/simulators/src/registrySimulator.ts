/**
 * A simulator of a container registry, **not one**: only the OCI
 * distribution API's reads that the stack operator makes to find a
 * distribution image's config labels (seed 004 phase 2): `GET`/`HEAD
 * /v2/<name>/manifests/<tag|digest>` and `GET /v2/<name>/blobs/<digest>`,
 * over plain HTTP on loopback. Images are built in memory from labels and
 * layers of files (gzip tar); no image runs. Optionally it asks for a
 * Bearer token as Docker Hub does (`401` with `WWW-Authenticate: Bearer
 * realm=…,service=…,scope=…`, a token endpoint that may require Basic
 * credentials).
 */
import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export const REGISTRY_SIMULATOR = 'registry';

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
const OCI_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';

export interface SimulatedImage {
  /** The config blob's `config.Labels`; a function gets the layer digests (for `io.llamastack.config.layer`). */
  labels?:
    | Record<string, string>
    | ((layerDigests: string[]) => Record<string, string>);
  /** Layers, each a gzip tar of these files (path → content). */
  layers?: Array<Record<string, string>>;
  /** Serve an OCI index (linux/arm64 and linux/amd64 entries) in front of the manifest. */
  index?: boolean;
}

export interface RegistrySimulatorOptions {
  /** `repository:tag` → image. */
  images: Record<string, SimulatedImage>;
  /** Ask for a Bearer token (from the simulator's `/token`); with `username`, the token endpoint wants Basic credentials. */
  auth?: { username?: string; password?: string };
  host?: string;
  port?: number;
}

export interface RegistrySimulator {
  /** `host:port`, what goes first in an image reference (and in `--insecure-registries`). */
  host: string;
  /** `host:port/repository:tag` of a served image. */
  image(name: string): string;
  /** The digest `repository:tag` resolves to (the index's when it has one). */
  digestOf(name: string): string;
  /** Every request: method, path, whether it carried an Authorization header. */
  requests: Array<{ method: string; path: string; authorized: boolean }>;
  stop(): Promise<void>;
}

const sha256 = (data: Buffer) =>
  `sha256:${createHash('sha256').update(data).digest('hex')}`;

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** A ustar archive of `files` (regular files, mode 0644). Pure. */
export function tarArchive(files: Readonly<Record<string, string>>): Buffer {
  const blocks: Buffer[] = [];
  for (const [path, content] of Object.entries(files)) {
    const data = Buffer.from(content, 'utf8');
    const header = Buffer.alloc(512);
    if (Buffer.byteLength(path) > 100)
      throw new Error(`tarArchive: path longer than 100 bytes: ${path}`);
    header.write(path, 0, 100, 'utf8');
    header.write(octal(0o644, 8), 100, 'ascii');
    header.write(octal(0, 8), 108, 'ascii');
    header.write(octal(0, 8), 116, 'ascii');
    header.write(octal(data.length, 12), 124, 'ascii');
    header.write(octal(0, 12), 136, 'ascii');
    header.write('        ', 148, 'ascii');
    header.write('0', 156, 'ascii');
    header.write('ustar\x0000', 257, 'binary');
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

interface Built {
  /** digest → [media type, body] of manifests. */
  manifests: Map<string, { mediaType: string; body: Buffer }>;
  blobs: Map<string, Buffer>;
  /** tag → digest. */
  tags: Map<string, string>;
}

/** The manifests and blobs of one image, content-addressed. Pure. */
export function buildImage(
  image: SimulatedImage,
  into: Built = { manifests: new Map(), blobs: new Map(), tags: new Map() },
): { digest: string; built: Built } {
  const layers = (image.layers ?? [{}]).map(files =>
    gzipSync(tarArchive(files)),
  );
  const layerDescriptors = layers.map(data => {
    const digest = sha256(data);
    into.blobs.set(digest, data);
    return { mediaType: OCI_LAYER, digest, size: data.length };
  });
  const labels =
    typeof image.labels === 'function'
      ? image.labels(layerDescriptors.map(l => l.digest))
      : image.labels ?? {};
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Labels: labels },
      rootfs: {
        type: 'layers',
        diff_ids: layerDescriptors.map(l => l.digest),
      },
    }),
  );
  const configDigest = sha256(config);
  into.blobs.set(configDigest, config);
  /** A manifest of the config and `manifestLayers`, stored under its digest. */
  const addManifest = (manifestLayers: typeof layerDescriptors) => {
    const body = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: {
          mediaType: OCI_CONFIG,
          digest: configDigest,
          size: config.length,
        },
        layers: manifestLayers,
      }),
    );
    const digest = sha256(body);
    into.manifests.set(digest, { mediaType: OCI_MANIFEST, body });
    return { digest, size: body.length };
  };
  const manifest = addManifest(layerDescriptors);
  if (!image.index) return { digest: manifest.digest, built: into };
  // An arm64 entry first: a client must pick by platform, not take the first.
  const other = addManifest([]);
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [
        {
          mediaType: OCI_MANIFEST,
          ...other,
          platform: { os: 'linux', architecture: 'arm64' },
        },
        {
          mediaType: OCI_MANIFEST,
          ...manifest,
          platform: { os: 'linux', architecture: 'amd64' },
        },
      ],
    }),
  );
  const indexDigest = sha256(index);
  into.manifests.set(indexDigest, { mediaType: OCI_INDEX, body: index });
  return { digest: indexDigest, built: into };
}

function ociError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ errors: [{ code, message }] }));
}

/** Starts the simulator on loopback (a free port unless `port` is given). */
export async function startRegistrySimulator(
  options: RegistrySimulatorOptions,
): Promise<RegistrySimulator> {
  const repos = new Map<string, Built>();
  const digests = new Map<string, string>();
  for (const [name, image] of Object.entries(options.images)) {
    const colon = name.lastIndexOf(':');
    const repository = colon > 0 ? name.slice(0, colon) : name;
    const tag = colon > 0 ? name.slice(colon + 1) : 'latest';
    const built = repos.get(repository) ?? {
      manifests: new Map(),
      blobs: new Map(),
      tags: new Map(),
    };
    repos.set(repository, built);
    const { digest } = buildImage(image, built);
    built.tags.set(tag, digest);
    digests.set(`${repository}:${tag}`, digest);
  }
  const token = `sim-${createHash('sha256')
    .update(String(Math.random()))
    .digest('hex')
    .slice(0, 16)}`;
  const requests: RegistrySimulator['requests'] = [];
  let host = '';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://registry');
    const authorization = req.headers.authorization;
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      authorized: !!authorization,
    });
    if (url.pathname === '/token') {
      const auth = options.auth;
      if (auth?.username) {
        const expected = `Basic ${Buffer.from(
          `${auth.username}:${auth.password ?? ''}`,
        ).toString('base64')}`;
        if (authorization !== expected) {
          ociError(res, 401, 'UNAUTHORIZED', 'authentication required');
          return;
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ token, expires_in: 300 }));
      return;
    }
    const match = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(url.pathname);
    if (options.auth && authorization !== `Bearer ${token}`) {
      const scope = match ? `repository:${match[1]}:pull` : '';
      ociError(res, 401, 'UNAUTHORIZED', 'authentication required', {
        'WWW-Authenticate': `Bearer realm="http://${host}/token",service="${REGISTRY_SIMULATOR}-simulator"${
          scope ? `,scope="${scope}"` : ''
        }`,
      });
      return;
    }
    if (url.pathname === '/v2/' || url.pathname === '/v2') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
      return;
    }
    const repo = match && repos.get(match[1]);
    if (!match || !repo) {
      ociError(
        res,
        404,
        'NAME_UNKNOWN',
        'repository name not known to registry',
      );
      return;
    }
    const [, , kind, ref] = match;
    if (kind === 'manifests') {
      const digest = ref.startsWith('sha256:') ? ref : repo.tags.get(ref);
      const manifest = digest && repo.manifests.get(digest);
      if (!manifest) {
        ociError(res, 404, 'MANIFEST_UNKNOWN', `manifest unknown: ${ref}`);
        return;
      }
      res.writeHead(200, {
        'Content-Type': manifest.mediaType,
        'Content-Length': manifest.body.length,
        'Docker-Content-Digest': digest,
      });
      res.end(req.method === 'HEAD' ? undefined : manifest.body);
      return;
    }
    const blob = repo.blobs.get(ref);
    if (!blob) {
      ociError(res, 404, 'BLOB_UNKNOWN', `blob unknown: ${ref}`);
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': blob.length,
      'Docker-Content-Digest': ref,
    });
    res.end(req.method === 'HEAD' ? undefined : blob);
  };

  const server = createServer(handle);
  await new Promise<void>(resolve =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  host = `${address}:${port}`;
  return {
    host,
    image: name => `${host}/${name}`,
    digestOf: name => {
      const digest = digests.get(name.includes(':') ? name : `${name}:latest`);
      if (!digest) throw new Error(`registry simulator: no image ${name}`);
      return digest;
    },
    requests,
    stop: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
