/**
 * The network part of reading a distribution image's config labels: a
 * minimal client of the OCI distribution API (`/v2/<name>/manifests/<ref>`,
 * `/v2/<name>/blobs/<digest>`), anonymous, with the registry's Bearer token
 * flow, or Basic credentials from the pull Secrets (FR-027h). Every answer
 * is checked against the digest that named it. One deadline covers a whole
 * read, so a slow registry costs at most `timeoutMs`.
 */
import {
  credentialFor,
  digestMatches,
  fileFromLayer,
  imageLabels,
  MANIFEST_ACCEPT,
  parseChallenge,
  parseImageReference,
  readConfigLabels,
  readManifest,
  sha256Digest,
  type Descriptor,
  type ImageReference,
  type RegistryCredential,
} from './image';

export interface RegistryClientOptions {
  /** Registries (`host:port`) spoken to over plain HTTP; every other one over HTTPS. */
  insecureRegistries?: readonly string[];
  /** Deadline of one whole read (manifests, config, layer); default 10 s. */
  timeoutMs?: number;
  /** Largest layer read for `io.llamastack.config.layer`; default 64 MiB. */
  maxLayerBytes?: number;
  fetch?: typeof fetch;
}

/** What the labels of one image (by digest) give. */
export type ImageConfigRead =
  | { kind: 'found'; digest: string; config: string; version?: number }
  | { kind: 'none'; digest: string }
  | {
      kind: 'invalid';
      digest: string;
      reason: 'UnsupportedConfigVersion' | 'ConfigGenerationFailed';
      message: string;
    };

/** The registry did not answer, refused, or answered something unreadable; the message says which. */
export class RegistryError extends Error {}

const MAX_JSON_BYTES = 4 * 1024 * 1024;

const seconds = (ms: number) =>
  ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;

const deadlineError = (registry: string, timeoutMs = 10_000) =>
  new RegistryError(`no answer from ${registry} within ${seconds(timeoutMs)}`);

/** The OCI error body's first `code: message`, or the status text. */
async function answerOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const first = JSON.parse(text)?.errors?.[0];
    if (first?.code)
      return `${res.status} ${first.code}${
        first.message ? `: ${first.message}` : ''
      }`;
  } catch {
    // not JSON: the status says it
  }
  return `${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
}

/** One conversation with a registry about one repository: the token it hands out is kept for the rest. */
class Session {
  private authorization?: string;
  private challenged = false;
  private readonly base: string;

  constructor(
    private readonly ref: ImageReference,
    private readonly credential: RegistryCredential | undefined,
    private readonly options: RegistryClientOptions,
    private readonly signal: AbortSignal,
  ) {
    const insecure = (options.insecureRegistries ?? []).includes(ref.registry);
    this.base = `${insecure ? 'http' : 'https'}://${ref.registry}/v2/${
      ref.repository
    }`;
  }

  private async send(
    url: string,
    init: { method?: string; headers?: Record<string, string> },
  ): Promise<Response> {
    const doFetch = this.options.fetch ?? fetch;
    try {
      return await doFetch(url, { ...init, signal: this.signal });
    } catch (err) {
      if (this.signal.aborted)
        throw deadlineError(this.ref.registry, this.options.timeoutMs);
      const cause = (err as { cause?: { code?: string; message?: string } })
        .cause;
      throw new RegistryError(
        `cannot reach ${this.ref.registry}: ${
          cause?.code ?? cause?.message ?? (err as Error).message
        }`,
      );
    }
  }

  /** A request under `/v2/<name>/`, answering one challenge (Bearer token or Basic) before giving up. */
  async request(
    path: string,
    accept: string,
    method = 'GET',
  ): Promise<Response> {
    const headers = (): Record<string, string> => ({
      Accept: accept,
      ...(this.authorization ? { Authorization: this.authorization } : {}),
    });
    const url = `${this.base}/${path}`;
    let res = await this.send(url, { method, headers: headers() });
    if (res.status === 401 && !this.challenged) {
      this.challenged = true;
      await res.arrayBuffer().catch(() => undefined);
      await this.authenticate(res.headers.get('www-authenticate'));
      res = await this.send(url, { method, headers: headers() });
    }
    return res;
  }

  private async authenticate(header: string | null) {
    const challenge = parseChallenge(header);
    const basic = this.credential
      ? `Basic ${Buffer.from(
          `${this.credential.username}:${this.credential.password}`,
        ).toString('base64')}`
      : undefined;
    if (challenge?.scheme === 'basic') {
      if (!basic)
        throw new RegistryError(
          `${this.ref.registry} asks for credentials and no pull Secret of the stack's ServiceAccount has any for it`,
        );
      this.authorization = basic;
      return;
    }
    if (challenge?.scheme !== 'bearer' || !challenge.params.realm)
      throw new RegistryError(
        `${this.ref.registry} answered 401 without a Bearer or Basic challenge`,
      );
    const tokenUrl = new URL(challenge.params.realm);
    if (challenge.params.service)
      tokenUrl.searchParams.set('service', challenge.params.service);
    tokenUrl.searchParams.set(
      'scope',
      challenge.params.scope ?? `repository:${this.ref.repository}:pull`,
    );
    const res = await this.send(tokenUrl.toString(), {
      headers: basic ? { Authorization: basic } : {},
    });
    if (!res.ok)
      throw new RegistryError(
        `the token service of ${this.ref.registry} (${
          tokenUrl.origin
        }) answered ${await answerOf(res)}${
          basic ? '' : ' (anonymous: no pull Secret has credentials for it)'
        }`,
      );
    const body = (await res.json().catch(() => ({}))) as {
      token?: string;
      access_token?: string;
    };
    const token = body.token ?? body.access_token;
    if (!token)
      throw new RegistryError(
        `the token service of ${this.ref.registry} answered without a token`,
      );
    this.authorization = `Bearer ${token}`;
  }

  async bytes(
    path: string,
    accept: string,
    what: string,
    maxBytes: number,
  ): Promise<{ data: Buffer; contentType?: string; digest?: string }> {
    const res = await this.request(path, accept);
    if (!res.ok)
      throw new RegistryError(
        `${this.ref.registry} answered ${await answerOf(res)} for ${what}`,
      );
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new RegistryError(
        `${what} is ${length} bytes, more than the ${maxBytes} read`,
      );
    }
    const data = Buffer.from(await res.arrayBuffer());
    if (data.length > maxBytes)
      throw new RegistryError(
        `${what} is more than the ${maxBytes} bytes read`,
      );
    return {
      data,
      contentType: res.headers.get('content-type') ?? undefined,
      digest: res.headers.get('docker-content-digest') ?? undefined,
    };
  }

  /** The digest the reference names now: HEAD (free of pull quotas), GET when the registry gives none. */
  async digestOf(): Promise<string> {
    if (this.ref.reference.includes(':')) {
      // A digest reference: still asked, so only who may pull the image gets its config.
      const res = await this.request(
        `manifests/${this.ref.reference}`,
        MANIFEST_ACCEPT,
        'HEAD',
      );
      if (!res.ok)
        throw new RegistryError(
          `${this.ref.registry} answered ${res.status} for the manifest of ${this.ref.repository}@${this.ref.reference}`,
        );
      return this.ref.reference;
    }
    const head = await this.request(
      `manifests/${this.ref.reference}`,
      MANIFEST_ACCEPT,
      'HEAD',
    );
    const digest = head.headers.get('docker-content-digest');
    if (head.ok && digest) return digest;
    const got = await this.bytes(
      `manifests/${this.ref.reference}`,
      MANIFEST_ACCEPT,
      `the manifest of ${this.ref.repository}:${this.ref.reference}`,
      MAX_JSON_BYTES,
    );
    return sha256Digest(got.data);
  }

  async verified(
    kind: 'manifests' | 'blobs',
    descriptor: Descriptor,
    accept: string,
    what: string,
    maxBytes = MAX_JSON_BYTES,
  ) {
    const got = await this.bytes(
      `${kind}/${descriptor.digest}`,
      accept,
      what,
      maxBytes,
    );
    if (!digestMatches(got.data, descriptor.digest))
      throw new RegistryError(
        `${what} from ${this.ref.registry} does not match its digest ${descriptor.digest}`,
      );
    return got;
  }
}

/**
 * Reads the config labels of `image` (FR-027f): the digest its reference
 * names now, then, unless `known(digest)` has it (FR-027i), the manifest
 * (linux/amd64 from an index), the config blob's labels and, for the layer
 * variant, the layer. Throws `RegistryError` when the registry cannot be
 * asked or refuses; a readable image with unusable labels is `invalid`.
 */
export async function readImageConfig(
  image: string,
  credentials: readonly RegistryCredential[],
  options: RegistryClientOptions = {},
  known: (digest: string) => ImageConfigRead | undefined = () => undefined,
): Promise<ImageConfigRead> {
  const ref = parseImageReference(image);
  if ('error' in ref) throw new RegistryError(ref.error);
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const session = new Session(
    ref,
    credentialFor(ref.registry, credentials),
    options,
    signal,
  );
  try {
    return await readWith(session, image, options, known);
  } catch (err) {
    // The deadline may strike while a body is read, not only while waiting for headers.
    if (signal.aborted && !(err instanceof RegistryError))
      throw deadlineError(ref.registry, options.timeoutMs);
    throw err;
  }
}

async function readWith(
  session: Session,
  image: string,
  options: RegistryClientOptions,
  known: (digest: string) => ImageConfigRead | undefined,
): Promise<ImageConfigRead> {
  const digest = await session.digestOf();
  const cached = known(digest);
  if (cached) return cached;

  let descriptor: Descriptor = { digest };
  for (let depth = 0; ; depth++) {
    const got = await session.verified(
      'manifests',
      descriptor,
      MANIFEST_ACCEPT,
      `manifest ${descriptor.digest}`,
    );
    const step = readManifest(got.data.toString('utf8'), got.contentType);
    if (step.kind === 'error')
      throw new RegistryError(`${image}: ${step.message}`);
    if (step.kind === 'index') {
      if (depth > 0)
        throw new RegistryError(`${image}: an index inside an index`);
      descriptor = step.next;
      continue;
    }
    const blob = await session.verified(
      'blobs',
      step.config,
      '*/*',
      `config blob ${step.config.digest}`,
    );
    let labels: Record<string, string>;
    try {
      labels = imageLabels(blob.data.toString('utf8'));
    } catch {
      throw new RegistryError(`${image}: the config blob is not JSON`);
    }
    const read = readConfigLabels(labels);
    if (read.kind === 'none') return { kind: 'none', digest };
    if (read.kind === 'invalid') return { ...read, digest };
    if (read.kind === 'base64')
      return {
        kind: 'found',
        digest,
        config: read.config,
        version: read.version,
      };
    const layer = step.layers.find(l => l.digest === read.layer);
    if (!layer)
      return {
        kind: 'invalid',
        digest,
        reason: 'ConfigGenerationFailed',
        message: `label io.llamastack.config.layer names ${read.layer}, which is not a layer of this image`,
      };
    const maxLayer = options.maxLayerBytes ?? 64 * 1024 * 1024;
    if ((layer.size ?? 0) > maxLayer)
      return {
        kind: 'invalid',
        digest,
        reason: 'ConfigGenerationFailed',
        message: `the config layer ${read.layer} is ${layer.size} bytes; at most ${maxLayer} are read: put config.yaml in a small layer of its own or use io.llamastack.config.base64`,
      };
    const layerBlob = await session.verified(
      'blobs',
      layer,
      '*/*',
      `layer ${layer.digest}`,
      maxLayer,
    );
    const file = fileFromLayer(layerBlob.data, read.path);
    if ('error' in file)
      return {
        kind: 'invalid',
        digest,
        reason: 'ConfigGenerationFailed',
        message: `label io.llamastack.config.path "${read.path}": ${file.error}`,
      };
    return { kind: 'found', digest, config: file.text, version: read.version };
  }
}
