/**
 * The downloader's settings, read from the environment the download Job
 * sets (see `downloaderEnv` in ../resources.ts). Pure: returns the settings
 * or an error naming the variable.
 */

export type DownloadSource =
  | {
      type: 'huggingface';
      repoId: string;
      revision: string;
      token?: string;
      endpoint?: string;
    }
  | {
      type: 's3';
      bucket: string;
      key: string;
      endpoint?: string;
      region: string;
      accessKeyId?: string;
      secretAccessKey?: string;
    }
  | { type: 'url'; url: string };

export interface DownloaderConfig {
  source: DownloadSource;
  /** Where the files go (the PVC's mount). */
  dest: string;
  /** spec.storage.size as written, and in bytes. */
  storageSize: string;
  storageBytes: number;
  /** How often a progress line is printed. */
  progressIntervalMs: number;
}

const UNIT: Record<string, number> = {
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** `20Gi` → 21474836480, `20G` → 2e10 (spec.storage.size's pattern `^[0-9]+[KMGTPE]i?$`). */
export function storageSizeBytes(size: string): number | undefined {
  const match = /^([0-9]+)([KMGTPE])(i?)$/.exec(size.trim());
  if (!match) return undefined;
  const [, digits, unit, binary] = match;
  const power = 'KMGTPE'.indexOf(unit) + 1;
  return Number(digits) * (binary ? 1024 ** power : UNIT[unit]);
}

export function readConfig(
  env: Record<string, string | undefined>,
): { ok: true; config: DownloaderConfig } | { ok: false; error: string } {
  const need = (name: string) => {
    const value = env[name]?.trim();
    if (!value)
      throw new Error(
        `${name} is not set: the download Job sets it from the Model's spec`,
      );
    return value;
  };
  try {
    let source: DownloadSource;
    const type = need('MODEL_SOURCE');
    if (type === 'huggingface') {
      source = {
        type,
        repoId: need('HF_REPO_ID'),
        revision: env.HF_REVISION?.trim() || 'main',
        ...(env.HF_TOKEN?.trim() ? { token: env.HF_TOKEN.trim() } : {}),
        ...(env.HF_ENDPOINT?.trim()
          ? { endpoint: env.HF_ENDPOINT.trim() }
          : {}),
      };
    } else if (type === 's3') {
      source = {
        type,
        bucket: need('S3_BUCKET'),
        key: need('S3_KEY'),
        region:
          env.AWS_REGION?.trim() ||
          env.AWS_DEFAULT_REGION?.trim() ||
          'us-east-1',
        ...(env.S3_ENDPOINT?.trim()
          ? { endpoint: env.S3_ENDPOINT.trim().replace(/\/+$/, '') }
          : {}),
        ...(env.AWS_ACCESS_KEY_ID?.trim()
          ? { accessKeyId: env.AWS_ACCESS_KEY_ID.trim() }
          : {}),
        ...(env.AWS_SECRET_ACCESS_KEY?.trim()
          ? { secretAccessKey: env.AWS_SECRET_ACCESS_KEY.trim() }
          : {}),
      };
    } else if (type === 'url') {
      const url = need('MODEL_URL');
      if (!/^https?:\/\//.test(url))
        throw new Error(
          `MODEL_URL "${url}" is not an http:// or https:// URL (spec.source.url.url)`,
        );
      source = { type, url };
    } else {
      throw new Error(
        `MODEL_SOURCE "${type}" is not one of huggingface, s3, url`,
      );
    }
    const storageSize = need('MODEL_STORAGE_SIZE');
    const storageBytes = storageSizeBytes(storageSize);
    if (storageBytes === undefined)
      throw new Error(
        `MODEL_STORAGE_SIZE "${storageSize}" is not a size like 20Gi (spec.storage.size)`,
      );
    const interval = Number(env.PROGRESS_INTERVAL_MS ?? 2000);
    return {
      ok: true,
      config: {
        source,
        dest: env.MODEL_DEST?.trim() || '/models',
        storageSize,
        storageBytes,
        progressIntervalMs:
          Number.isFinite(interval) && interval > 0
            ? Math.min(interval, 10_000)
            : 2000,
      },
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
