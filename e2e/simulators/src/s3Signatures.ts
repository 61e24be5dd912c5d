/**
 * A simulator of S3's request authentication (Signature Version 4), put in
 * front of an S3-compatible server that does not check signatures (s3rver
 * checks only the access key id): it recomputes each request's signature
 * from the secret key, as S3 does, answers S3's own 403 errors
 * (`InvalidAccessKeyId`, `SignatureDoesNotMatch`, `AuthorizationHeaderMalformed`)
 * when it does not match, and forwards the request unchanged when it does.
 *
 * Written from AWS's description of SigV4, not with a signing library, so
 * it checks a signer rather than agreeing with itself. Not checked: the
 * request time's skew, the payload's hash against the body (only GET and
 * listing requests pass here), presigned URLs (refused).
 */
import crypto from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** An S3 error as S3 answers it (status 403, XML body). */
export interface S3AuthError {
  code:
    | 'AccessDenied'
    | 'InvalidAccessKeyId'
    | 'SignatureDoesNotMatch'
    | 'AuthorizationHeaderMalformed';
  message: string;
}

const sha256 = (data: string) =>
  crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: crypto.BinaryLike, data: string) =>
  crypto.createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 asks for it (unreserved characters kept). */
function encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, '%20'));
  } catch {
    return text;
  }
}

/** S3's canonical URI: each path segment encoded once. Pure. */
function canonicalUri(path: string): string {
  return path
    .split('/')
    .map(segment => encode(decode(segment)))
    .join('/');
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** The query's parameters encoded and sorted by name, then value. Pure. */
function canonicalQuery(query: string): string {
  if (!query) return '';
  return (
    query
      .split('&')
      .filter(Boolean)
      .map(pair => {
        const at = pair.indexOf('=');
        const name = at < 0 ? pair : pair.slice(0, at);
        const value = at < 0 ? '' : pair.slice(at + 1);
        return [encode(decode(name)), encode(decode(value))];
      })
      // By code point, as SigV4 sorts (not by locale).
      .sort(([a, x], [b, y]) => compare(a, b) || compare(x, y))
      .map(([name, value]) => `${name}=${value}`)
      .join('&')
  );
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  const text = Array.isArray(value) ? value.join(',') : value ?? '';
  return text.trim().replace(/\s+/g, ' ');
}

/**
 * What S3 would refuse about the request's signature, or undefined when it
 * is valid for `credentials` in `region`. Pure.
 */
export function signatureProblem(
  request: { method: string; url: string; headers: IncomingHttpHeaders },
  credentials: S3Credentials,
  region: string,
): S3AuthError | undefined {
  const authorization = headerValue(request.headers, 'authorization');
  if (!authorization) {
    return {
      code: 'AccessDenied',
      message: new URL(request.url, 'http://s3').searchParams.has(
        'X-Amz-Signature',
      )
        ? 'Presigned URLs are not checked by this simulator; sign with the Authorization header'
        : 'Access Denied',
    };
  }
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) {
    return {
      code: 'AuthorizationHeaderMalformed',
      message: `The authorization header is malformed; expected AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/s3/aws4_request, SignedHeaders=..., Signature=...; got "${authorization}"`,
    };
  }
  const [, keyId, date, scopeRegion, service, signedHeaders, signature] = match;
  if (keyId !== credentials.accessKeyId) {
    return {
      code: 'InvalidAccessKeyId',
      message:
        'The AWS Access Key Id you provided does not exist in our records.',
    };
  }
  if (scopeRegion !== region || service !== 's3') {
    return {
      code: 'AuthorizationHeaderMalformed',
      message: `The authorization header is malformed; the region '${scopeRegion}' is wrong; expecting '${region}'`,
    };
  }
  const amzDate = headerValue(request.headers, 'x-amz-date');
  const names = signedHeaders.split(';');
  if (!amzDate.startsWith(date) || !names.includes('host')) {
    return {
      code: 'AuthorizationHeaderMalformed',
      message:
        'The authorization header is malformed; x-amz-date must match the credential date and host must be signed',
    };
  }
  const at = request.url.indexOf('?');
  const path = at < 0 ? request.url : request.url.slice(0, at);
  const query = at < 0 ? '' : request.url.slice(at + 1);
  const canonicalRequest = [
    request.method,
    canonicalUri(path),
    canonicalQuery(query),
    ...names.map(name => `${name}:${headerValue(request.headers, name)}`),
    '',
    signedHeaders,
    headerValue(request.headers, 'x-amz-content-sha256') || 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    sha256(canonicalRequest),
  ].join('\n');
  const key = [date, region, 's3', 'aws4_request'].reduce<Buffer>(
    (k, part) => hmac(k, part),
    Buffer.from(`AWS4${credentials.secretAccessKey}`),
  );
  const expected = hmac(key, stringToSign).toString('hex');
  if (expected === signature) return undefined;
  return {
    code: 'SignatureDoesNotMatch',
    message:
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  };
}

/** S3's XML error body. Pure. */
export function s3ErrorXml(error: S3AuthError): string {
  const escape = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${
    error.code
  }</Code><Message>${escape(error.message)}</Message></Error>`;
}

export interface S3SignatureCheck {
  /** The endpoint to give clients instead of the upstream's. */
  endpoint: string;
  /** The errors answered, oldest first. */
  refused: S3AuthError[];
  close(): Promise<void>;
}

/** Starts the check on loopback in front of `upstream` (an S3-compatible server's URL). */
export async function startS3SignatureCheck(options: {
  upstream: string;
  credentials: S3Credentials;
  /** Default us-east-1. */
  region?: string;
}): Promise<S3SignatureCheck> {
  const upstream = new URL(options.upstream);
  const refused: S3AuthError[] = [];
  const server = http.createServer((req, res) => {
    const problem = signatureProblem(
      {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
      },
      options.credentials,
      options.region ?? 'us-east-1',
    );
    if (problem) {
      refused.push(problem);
      req.resume();
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end(s3ErrorXml(problem));
      return;
    }
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      answer => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', err => {
      if (!res.headersSent) res.writeHead(502);
      res.end(`upstream ${options.upstream}: ${err.message}`);
    });
    req.pipe(forward);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
