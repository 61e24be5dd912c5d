/**
 * The pure parts of reading a distribution image's config labels (seed 004
 * phase 2, FR-027f..FR-027j): image references, registry challenges, docker
 * config credentials, manifest selection, the labels themselves and the tar
 * layer they may point into. No network here (see `registry.ts`).
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { configVersionOf } from '../config/generate';

export const CONFIG_LABEL_BASE64 = 'io.llamastack.config.base64';
export const CONFIG_LABEL_LAYER = 'io.llamastack.config.layer';
export const CONFIG_LABEL_PATH = 'io.llamastack.config.path';
export const CONFIG_LABEL_VERSION = 'io.llamastack.config.version';

/** Docker Hub: what `docker.io` means on the wire. */
export const DOCKER_HUB_REGISTRY = 'registry-1.docker.io';
const DOCKER_HUB_ALIASES = new Set([
  'docker.io',
  'index.docker.io',
  'registry-1.docker.io',
]);

export interface ImageReference {
  /** Host (and port) to talk to: `registry-1.docker.io` for Docker Hub. */
  registry: string;
  /** Repository path, `library/` added for Docker Hub's official images. */
  repository: string;
  /** Tag or digest to ask the manifest of (digest wins when both are given). */
  reference: string;
}

const REPOSITORY =
  /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;

/** Parses `[host[:port]/]path[:tag][@digest]` as docker does; a message naming the problem otherwise. */
export function parseImageReference(
  image: string,
): ImageReference | { error: string } {
  const bad = (why: string) => ({
    error: `image "${image}" is not a valid image reference: ${why}`,
  });
  let rest = image.trim();
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return bad(`digest "${digest}" is malformed`);
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return bad(`tag "${tag}" is malformed`);
  }
  const slash = rest.indexOf('/');
  const first = slash >= 0 ? rest.slice(0, slash) : '';
  const hasHost =
    slash >= 0 &&
    (first.includes('.') || first.includes(':') || first === 'localhost');
  let registry = hasHost ? first : 'docker.io';
  let repository = hasHost ? rest.slice(slash + 1) : rest;
  if (DOCKER_HUB_ALIASES.has(registry)) {
    registry = DOCKER_HUB_REGISTRY;
    if (!repository.includes('/')) repository = `library/${repository}`;
  }
  if (!REPOSITORY.test(repository))
    return bad(
      `repository "${repository}" must be lowercase letters, digits and separators`,
    );
  return { registry, repository, reference: digest ?? tag ?? 'latest' };
}

/** A `WWW-Authenticate` challenge: scheme and parameters (`realm`, `service`, `scope`). */
export function parseChallenge(
  header: string | null | undefined,
): { scheme: string; params: Record<string, string> } | undefined {
  if (!header) return undefined;
  const match = /^\s*(\w+)\s*(.*)$/.exec(header);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  const re = /(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let m = re.exec(match[2]); m; m = re.exec(match[2]))
    params[m[1].toLowerCase()] = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
  return { scheme: match[1].toLowerCase(), params };
}

export interface RegistryCredential {
  /** Registry host as written in the docker config, normalized (no scheme, no path). */
  host: string;
  username: string;
  password: string;
}

/** `https://index.docker.io/v1/` → `registry-1.docker.io`; `HOST:5000/path` → `host:5000`. */
export function normalizeRegistryHost(key: string): string {
  const host = key
    .trim()
    .replace(/^[a-z]+:\/\//i, '')
    .split('/')[0]
    .toLowerCase();
  return DOCKER_HUB_ALIASES.has(host) ? DOCKER_HUB_REGISTRY : host;
}

/**
 * The credentials of a pull Secret's data (`.dockerconfigjson`:
 * `{"auths": {host: {auth | username, password}}}`, or legacy `.dockercfg`:
 * the map itself). Entries without a usable user and password are skipped.
 */
export function credentialsFromDockerConfig(
  text: string,
): RegistryCredential[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object') return [];
  const auths = ((parsed as any).auths ?? parsed) as Record<string, any>;
  const out: RegistryCredential[] = [];
  for (const [key, entry] of Object.entries(auths)) {
    if (!entry || typeof entry !== 'object') continue;
    let { username, password } = entry as {
      username?: string;
      password?: string;
    };
    if (typeof entry.auth === 'string' && entry.auth) {
      const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
      const sep = decoded.indexOf(':');
      if (sep > 0) {
        username = decoded.slice(0, sep);
        password = decoded.slice(sep + 1);
      }
    }
    if (typeof username === 'string' && typeof password === 'string')
      out.push({ host: normalizeRegistryHost(key), username, password });
  }
  return out;
}

/** The first credential for `registry` (kubelet tries the pull secrets in order). */
export function credentialFor(
  registry: string,
  credentials: readonly RegistryCredential[],
): RegistryCredential | undefined {
  const host = normalizeRegistryHost(registry);
  return credentials.find(c => c.host === host);
}

export const MEDIA_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
} as const;

/** What a manifest request accepts: indexes and single manifests, OCI and Docker v2. */
export const MANIFEST_ACCEPT = [
  MEDIA_TYPES.ociIndex,
  MEDIA_TYPES.dockerList,
  MEDIA_TYPES.ociManifest,
  MEDIA_TYPES.dockerManifest,
].join(', ');

export interface Descriptor {
  mediaType?: string;
  digest: string;
  size?: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

export type ManifestStep =
  | { kind: 'index'; next: Descriptor }
  | { kind: 'manifest'; config: Descriptor; layers: Descriptor[] }
  | { kind: 'error'; message: string };

/**
 * Reads a manifest body: an index gives the entry of `platform`
 * (`linux/amd64`), a manifest its config and layer descriptors.
 */
export function readManifest(
  body: string,
  contentType: string | undefined,
  platform = { os: 'linux', architecture: 'amd64' },
): ManifestStep {
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: 'error', message: 'the manifest is not JSON' };
  }
  const mediaType: string =
    json?.mediaType ?? contentType?.split(';')[0].trim() ?? '';
  if (
    Array.isArray(json?.manifests) ||
    mediaType === MEDIA_TYPES.ociIndex ||
    mediaType === MEDIA_TYPES.dockerList
  ) {
    const entries: Descriptor[] = Array.isArray(json.manifests)
      ? json.manifests
      : [];
    const next = entries.find(
      m =>
        m.platform?.os === platform.os &&
        m.platform?.architecture === platform.architecture,
    );
    if (!next) {
      const platforms = entries
        .map(m => `${m.platform?.os}/${m.platform?.architecture}`)
        .join(', ');
      return {
        kind: 'error',
        message: `the image index has no ${platform.os}/${
          platform.architecture
        } manifest (it has: ${platforms || 'none'})`,
      };
    }
    return { kind: 'index', next };
  }
  if (json?.config && typeof json.config.digest === 'string') {
    return {
      kind: 'manifest',
      config: json.config,
      layers: Array.isArray(json.layers) ? json.layers : [],
    };
  }
  return {
    kind: 'error',
    message: `unsupported manifest (media type "${
      mediaType || 'none'
    }"; schema 1 manifests are not read)`,
  };
}

/** `sha256:<hex>` of `data`; the digests a registry names are checked against it. */
export function sha256Digest(data: Buffer | string): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** Whether `data` is what `digest` names (only sha256 digests are checked; others pass). */
export function digestMatches(data: Buffer, digest: string): boolean {
  return !digest.startsWith('sha256:') || sha256Digest(data) === digest;
}

/** The labels of an image config blob (`config.Labels`), string values only. */
export function imageLabels(configBlob: string): Record<string, string> {
  const json = JSON.parse(configBlob);
  const labels = json?.config?.Labels ?? {};
  return Object.fromEntries(
    Object.entries(labels).filter(([, v]) => typeof v === 'string'),
  ) as Record<string, string>;
}

export type LabelConfig =
  | { kind: 'none' }
  | { kind: 'base64'; config: string; version?: number }
  | { kind: 'layer'; layer: string; path: string; version?: number }
  | {
      kind: 'invalid';
      reason: 'UnsupportedConfigVersion' | 'ConfigGenerationFailed';
      message: string;
    };

/**
 * What an image's labels say about its config.yaml (FR-027f): the decoded
 * base64 label, or the layer and path to read it from; `invalid` with the
 * label at fault. The version label, when present, is checked against the
 * supported versions with the generator's own message (FR-029).
 */
export function readConfigLabels(
  labels: Readonly<Record<string, string>>,
): LabelConfig {
  const invalid = (message: string): LabelConfig => ({
    kind: 'invalid',
    reason: 'ConfigGenerationFailed',
    message,
  });
  let version: number | undefined;
  const rawVersion = labels[CONFIG_LABEL_VERSION];
  if (rawVersion !== undefined) {
    const checked = configVersionOf({ version: rawVersion.trim() });
    if ('ok' in checked)
      return {
        kind: 'invalid',
        reason: 'UnsupportedConfigVersion',
        message: checked.message,
      };
    version = checked.version;
  }
  const encoded = labels[CONFIG_LABEL_BASE64];
  if (encoded !== undefined) {
    const compact = encoded.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
      return invalid(`label ${CONFIG_LABEL_BASE64} is not base64`);
    const config = Buffer.from(compact, 'base64').toString('utf8');
    if (!config.trim())
      return invalid(`label ${CONFIG_LABEL_BASE64} decodes to nothing`);
    return { kind: 'base64', config, version };
  }
  const layer = labels[CONFIG_LABEL_LAYER];
  if (layer !== undefined) {
    const path = labels[CONFIG_LABEL_PATH];
    if (!path)
      return invalid(
        `label ${CONFIG_LABEL_LAYER} needs ${CONFIG_LABEL_PATH} (the config.yaml's path in that layer)`,
      );
    if (!DIGEST.test(layer))
      return invalid(
        `label ${CONFIG_LABEL_LAYER} "${layer}" is not a layer digest`,
      );
    return { kind: 'layer', layer, path, version };
  }
  return { kind: 'none' };
}

const TAR_BLOCK = 512;

/** `./app/config.yaml`, `/app/config.yaml` and `app/config.yaml` name the same entry. */
const tarPath = (p: string) => p.replace(/^(\.?\/)+/, '');

function tarString(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

/**
 * One file of a layer blob (tar, gzip-compressed or not): the regular file
 * at `path`, or a message. Reads ustar, PAX `path` records and GNU long
 * names; zstd layers are not read.
 */
export function fileFromLayer(
  blob: Buffer,
  path: string,
): { text: string } | { error: string } {
  let tar: Buffer;
  try {
    tar = blob[0] === 0x1f && blob[1] === 0x8b ? gunzipSync(blob) : blob;
  } catch (err) {
    return { error: `the layer is not valid gzip: ${(err as Error).message}` };
  }
  if (tar.readUInt32LE(0) === 0xfd2fb528)
    return { error: 'the layer is zstd-compressed, which is not read' };
  const wanted = tarPath(path);
  let longName: string | undefined;
  for (let offset = 0; offset + TAR_BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + TAR_BLOCK);
    if (header.every(b => b === 0)) break;
    const size = parseInt(tarString(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0)
      return { error: 'the layer is not a valid tar archive' };
    const type = String.fromCharCode(header[156] || 0x30);
    const dataStart = offset + TAR_BLOCK;
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
    if (type === 'x') {
      const record = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
      if (record) longName = record[1];
      continue;
    }
    if (type === 'L') {
      longName = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    const prefix = tarString(header, 345, 155);
    const name =
      longName ??
      (prefix
        ? `${prefix}/${tarString(header, 0, 100)}`
        : tarString(header, 0, 100));
    longName = undefined;
    if (tarPath(name) !== wanted) continue;
    if (type !== '0' && type !== '\0')
      return {
        error: `${path} in the layer is not a regular file (tar type ${type})`,
      };
    return { text: data.toString('utf8') };
  }
  return { error: `the layer has no file ${path}` };
}
