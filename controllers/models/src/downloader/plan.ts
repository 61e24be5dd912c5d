/**
 * Before writing anything, the downloader learns every file and its size:
 * the hub's file list (with sha256 of LFS files), S3's listing, or the
 * URL's Content-Length. Errors say which field or Secret key to fix.
 */
import aws4 from 'aws4';
import {
  authHeaders,
  fileUrl,
  HubError,
  listModelFiles,
} from '@runway-portal/hub';
import type { DownloadSource } from './config';
import { DownloadError, readText, send, totalSizeOf } from './http';

export interface PlannedFile {
  /** Relative path under the destination. */
  path: string;
  /** Bytes; undefined only for a URL whose server gives no length. */
  size?: number;
  sha256?: string;
  url: string;
  headers: (url: URL) => Record<string, string>;
}

function hubProblem(
  err: HubError,
  repoId: string,
  hasToken: boolean,
): DownloadError {
  if (err.code === 'unauthorized' || err.code === 'gated') {
    const fix = hasToken
      ? `the token in key HF_TOKEN of the Secret named by spec.credentialsSecret was refused or has no access: check that token, or request access on the model's page`
      : `it is gated or private and no token was given: create a Secret with key HF_TOKEN (a token with access) and name it in spec.credentialsSecret`;
    return new DownloadError(
      `HuggingFace answered ${err.status ?? 401} for ${repoId}: ${fix}`,
      true,
      err.status,
    );
  }
  if (err.code === 'not-found') {
    return new DownloadError(
      `HuggingFace has no ${repoId} at that revision (HTTP 404): check spec.source.huggingFace.repoId and revision`,
      true,
      404,
    );
  }
  return new DownloadError(err.message, false, err.status);
}

async function huggingFacePlan(
  source: Extract<DownloadSource, { type: 'huggingface' }>,
): Promise<PlannedFile[]> {
  let files;
  try {
    files = await listModelFiles(source.repoId, {
      revision: source.revision,
      token: source.token,
      endpoint: source.endpoint,
    });
  } catch (err) {
    if (err instanceof HubError)
      throw hubProblem(err, source.repoId, Boolean(source.token));
    throw err;
  }
  if (files.length === 0)
    throw new DownloadError(
      `HuggingFace lists no files in ${source.repoId} at ${source.revision}: check spec.source.huggingFace`,
      true,
    );
  return files.map(f => ({
    path: f.path,
    size: f.size,
    ...(f.sha256 ? { sha256: f.sha256 } : {}),
    url: fileUrl(source.repoId, f.path, {
      endpoint: source.endpoint,
      revision: source.revision,
    }),
    headers: () => authHeaders(source.token),
  }));
}

type S3Source = Extract<DownloadSource, { type: 's3' }>;

/** Path-style with an endpoint (MinIO and most S3-compatible servers), virtual-hosted on AWS. */
export function s3ObjectUrl(source: S3Source, key: string): URL {
  const encoded = key.split('/').map(encodeURIComponent).join('/');
  if (source.endpoint)
    return new URL(`${source.endpoint}/${source.bucket}/${encoded}`);
  return new URL(
    `https://${source.bucket}.s3.${source.region}.amazonaws.com/${encoded}`,
  );
}

/** SigV4 headers for a GET of `url` (no keys: unsigned, for public buckets). Range is added unsigned. */
export function s3Headers(source: S3Source, url: URL): Record<string, string> {
  if (!source.accessKeyId || !source.secretAccessKey) return {};
  const signed = aws4.sign(
    {
      host: url.host,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      service: 's3',
      region: source.region,
      headers: {},
    },
    {
      accessKeyId: source.accessKeyId,
      secretAccessKey: source.secretAccessKey,
    },
  );
  return signed.headers as Record<string, string>;
}

function xmlValues(xml: string, tag: string): string[] {
  const decode = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  return [
    ...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g')),
  ].map(m => decode(m[1]));
}

/** What to fix for S3's authentication error codes, by code (the Secret's keys named). */
const S3_AUTH_FIXES: Record<string, string> = {
  SignatureDoesNotMatch:
    'the secret key AWS_SECRET_ACCESS_KEY of the Secret named by spec.credentialsSecret does not match its key id AWS_ACCESS_KEY_ID: put the secret of that key id in AWS_SECRET_ACCESS_KEY',
  InvalidAccessKeyId:
    'the key id AWS_ACCESS_KEY_ID of the Secret named by spec.credentialsSecret is unknown to S3: check it (and spec.source.s3.endpoint)',
};

function s3Problem(
  source: S3Source,
  status: number,
  body: string,
  what: string,
): DownloadError {
  const code = xmlValues(body, 'Code')[0] ?? '';
  if (status === 403 || status === 401) {
    const fix = !source.accessKeyId
      ? 'access needs credentials: create a Secret with keys AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY and name it in spec.credentialsSecret'
      : S3_AUTH_FIXES[code] ??
        'the keys AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY of the Secret named by spec.credentialsSecret were refused: check them and the bucket policy';
    return new DownloadError(
      `S3 answered ${status}${code ? ` ${code}` : ''} for ${what}: ${fix}`,
      true,
      status,
    );
  }
  if (status === 404) {
    return new DownloadError(
      `S3 answered 404${
        code ? ` ${code}` : ''
      } for ${what}: check spec.source.s3.bucket and key${
        source.endpoint ? ' and endpoint' : ''
      }`,
      true,
      status,
    );
  }
  return new DownloadError(
    `S3 answered ${status}${code ? ` ${code}` : ''} for ${what}`,
    status >= 400 && status < 500,
    status,
  );
}

async function s3Plan(source: S3Source): Promise<PlannedFile[]> {
  // Like `aws s3 cp s3://bucket/key /models/ --recursive`: every object under the prefix key/; a key that is one object is that file.
  const prefix = source.key.endsWith('/') ? source.key : `${source.key}/`;
  const objects: Array<{ key: string; size: number }> = [];
  let token: string | undefined;
  do {
    const base = source.endpoint
      ? new URL(`${source.endpoint}/${source.bucket}`)
      : new URL(`https://${source.bucket}.s3.${source.region}.amazonaws.com/`);
    base.searchParams.set('list-type', '2');
    base.searchParams.set('prefix', prefix);
    if (token) base.searchParams.set('continuation-token', token);
    const res = await send({
      url: base.toString(),
      headers: u => s3Headers(source, u),
    });
    const body = await readText(res);
    if ((res.statusCode ?? 0) >= 300)
      throw s3Problem(
        source,
        res.statusCode ?? 0,
        body,
        `s3://${source.bucket}/${prefix}`,
      );
    for (const contents of xmlValues(body, 'Contents')) {
      const key = xmlValues(contents, 'Key')[0];
      const size = Number(xmlValues(contents, 'Size')[0]);
      if (key && !key.endsWith('/')) objects.push({ key, size });
    }
    token =
      xmlValues(body, 'IsTruncated')[0] === 'true'
        ? xmlValues(body, 'NextContinuationToken')[0]
        : undefined;
  } while (token);
  if (objects.length === 0 && !source.key.endsWith('/')) {
    // A one-byte ranged GET (what the keys sign) gives the object's size.
    const url = s3ObjectUrl(source, source.key);
    const probe = await send({
      url: url.toString(),
      headers: u => ({ ...s3Headers(source, u), range: 'bytes=0-0' }),
    });
    const body = await readText(probe);
    if ((probe.statusCode ?? 0) >= 300)
      throw s3Problem(
        source,
        probe.statusCode ?? 0,
        body,
        `s3://${source.bucket}/${source.key}`,
      );
    objects.push({ key: source.key, size: totalSizeOf(probe) ?? 0 });
  }
  if (objects.length === 0)
    throw new DownloadError(
      `S3 has no objects under s3://${source.bucket}/${prefix}: check spec.source.s3.key`,
      true,
      404,
    );
  return objects.map(o => ({
    path:
      o.key === source.key
        ? o.key.split('/').pop()!
        : o.key.slice(prefix.length),
    size: o.size,
    url: s3ObjectUrl(source, o.key).toString(),
    headers: u => s3Headers(source, u),
  }));
}

/** The URL's file name, or `model` (the seed's `curl -o /models/model`) when it has none. */
export function urlFileName(url: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  return /^[A-Za-z0-9._-]+$/.test(last) && last !== '.' && last !== '..'
    ? last
    : 'model';
}

async function urlPlan(url: string): Promise<PlannedFile[]> {
  // A one-byte range tells the total size even where HEAD is not allowed.
  const res = await send({ url, headers: () => ({ range: 'bytes=0-0' }) });
  res.resume();
  const status = res.statusCode ?? 0;
  if (status === 401 || status === 403) {
    throw new DownloadError(
      `${url} answered ${status}: the URL needs credentials; put them in the URL (spec.source.url.url), e.g. a pre-signed URL`,
      true,
      status,
    );
  }
  if (status === 404 || status === 410)
    throw new DownloadError(
      `${url} answered ${status} (not found): check spec.source.url.url`,
      true,
      status,
    );
  if (status >= 400)
    throw new DownloadError(
      `${url} answered HTTP ${status}`,
      status < 500,
      status,
    );
  return [
    {
      path: urlFileName(url),
      size: totalSizeOf(res),
      url,
      headers: () => ({}),
    },
  ];
}

export async function planDownload(
  source: DownloadSource,
): Promise<PlannedFile[]> {
  switch (source.type) {
    case 'huggingface':
      return huggingFacePlan(source);
    case 's3':
      return s3Plan(source);
    default:
      return urlPlan(source.url);
  }
}
