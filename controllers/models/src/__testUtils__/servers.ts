/**
 * Real local servers for the downloader's tests: plain HTTP files, and an
 * S3-compatible server (s3rver) behind e2e-simulators' SigV4 check (s3rver
 * checks only the access key id).
 */
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import aws4 from 'aws4';
import { startS3SignatureCheck } from '@runway-portal/e2e-simulators';

export interface FileServer {
  url: string;
  requests: Array<{ path: string; range?: string }>;
  close(): Promise<void>;
}

/**
 * A plain HTTP file server with `Range`. `cutAfterBytes` drops the
 * connection of downloads from byte 0 after that many bytes;
 * `announceSize` makes full GETs announce a different Content-Length
 * (a server whose file changed under the download).
 */
export async function startFileServer(
  files: Record<string, Buffer>,
  options: { cutAfterBytes?: number; announceSize?: number } = {},
): Promise<FileServer> {
  const requests: FileServer['requests'] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ path: url.pathname, range: req.headers.range });
    const content = files[url.pathname];
    if (!content) {
      res.writeHead(404).end('not found');
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Number(range[2]) : content.length - 1;
    if (start >= content.length) {
      res
        .writeHead(416, { 'content-range': `bytes */${content.length}` })
        .end();
      return;
    }
    const full = !range || (start === 0 && end === content.length - 1);
    const length =
      full && options.announceSize !== undefined
        ? options.announceSize
        : end - start + 1;
    res.writeHead(range ? 206 : 200, {
      'content-length': String(length),
      'accept-ranges': 'bytes',
      ...(range
        ? { 'content-range': `bytes ${start}-${end}/${content.length}` }
        : {}),
    });
    const body = content.subarray(start, end + 1);
    if (
      options.cutAfterBytes !== undefined &&
      start === 0 &&
      body.length > options.cutAfterBytes
    ) {
      res.write(body.subarray(0, options.cutAfterBytes), () => res.destroy());
    } else if (
      full &&
      options.announceSize !== undefined &&
      options.announceSize < body.length
    ) {
      res.end(body.subarray(0, options.announceSize));
    } else {
      res.end(body);
    }
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** s3rver's default credentials; the signature check in front of it verifies SigV4 signatures made with them. */
export const S3_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Server {
  endpoint: string;
  put(bucket: string, key: string, body: Buffer): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on loopback, storing into
 * `directory`, reached through the SigV4 check (`endpoint`): a request
 * signed with another secret key is refused as S3 refuses it.
 */
export async function startS3Server(
  directory: string,
  buckets: string[],
): Promise<S3Server> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver');
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: buckets.map(name => ({ name })),
  });
  const { port } = (await server.run()) as AddressInfo;
  const check = await startS3SignatureCheck({
    upstream: `http://127.0.0.1:${port}`,
    credentials: S3_KEYS,
  });
  return {
    endpoint: check.endpoint,
    async put(bucket, key, body) {
      const signed = aws4.sign(
        {
          host: `127.0.0.1:${port}`,
          path: `/${bucket}/${key}`,
          method: 'PUT',
          service: 's3',
          region: 'us-east-1',
          body,
          headers: { 'content-type': 'application/octet-stream' },
        },
        S3_KEYS,
      );
      await new Promise<void>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: signed.path,
            method: 'PUT',
            headers: signed.headers as Record<string, string>,
          },
          res => {
            res.resume();
            res.on('end', () =>
              (res.statusCode ?? 0) < 300
                ? resolve()
                : reject(new Error(`PUT ${key}: HTTP ${res.statusCode}`)),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close: async () => {
      await check.close();
      await server.close();
    },
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  lines: any[];
  /** The error line's message, if the run failed. */
  error?: string;
}

const DOWNLOADER = path.resolve(__dirname, '../downloader/main.ts');

/** Runs the downloader as its own process (as the Job's container would), with `env` only. */
export function runDownloader(env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--require',
        require.resolve('@backstage/cli/config/nodeTransform.cjs'),
        DOWNLOADER,
      ],
      {
        env: {
          PATH: process.env.PATH ?? '',
          PROGRESS_INTERVAL_MS: '100',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', code => {
      const lines = stdout
        .split('\n')
        .filter(l => l.startsWith('{'))
        .map(l => JSON.parse(l));
      const error = lines.find(l => l.event === 'error')?.message;
      if (code !== 0 && code !== 1 && code !== 2)
        reject(new Error(`downloader exited ${code}: ${stderr}`));
      else
        resolve({
          code: code ?? -1,
          stdout,
          lines,
          ...(error ? { error } : {}),
        });
    });
  });
}
