/**
 * A stand-in for the kubelet's log endpoint, the one part of a kubelet the
 * API server calls for `pods/log` (kwok nodes have no kubelet server). It is
 * a simulator: it serves the lines `source` gives, for pods on a node whose
 * status points at it (`kubeletNodeStatus`), over HTTPS with the cluster's
 * own serving certificate (the API server does not verify kubelets unless
 * started with --kubelet-certificate-authority). Followed logs get a new
 * line every `followEveryMs` until the caller goes, and it records when each
 * follower left.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface KubeletLogRequest {
  namespace: string;
  pod: string;
  container: string;
  previous: boolean;
  follow: boolean;
  tailLines?: number;
  limitBytes?: number;
}

export interface KubeletLogFollower {
  request: KubeletLogRequest;
  openedAt: number;
  /** When the caller (the API server, for its client) closed the connection. */
  closedAt?: number;
  /** The lines written after the tail, with the time each was written. */
  written: Array<{ line: string; at: number }>;
}

export interface KubeletLogSource {
  /** The log so far; undefined answers 404, as a kubelet for an unknown container. */
  lines(request: KubeletLogRequest): string[] | undefined;
  /** The `n`th line written while following (n from 0). */
  next?(request: KubeletLogRequest, n: number): string;
}

export interface KubeletLogStandIn {
  port: number;
  requests: KubeletLogRequest[];
  followers: KubeletLogFollower[];
  stop(): Promise<void>;
}

export interface KubeletLogStandInOptions {
  /** The cluster's folder (`TestCluster.dir`): its serving certificate is reused. */
  clusterDir: string;
  source: KubeletLogSource;
  followEveryMs?: number;
}

/** The node status that sends the API server's log requests for this node to the stand-in. */
export function kubeletNodeStatus(port: number) {
  return {
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: '127.0.0.1' },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: port } },
  };
}

/**
 * The text a kubelet answers for a log: the last `tailLines` lines, then at
 * most `limitBytes` bytes of them (from their start, as the kubelet cuts).
 * Pure.
 */
export function logText(
  lines: string[],
  request: Pick<KubeletLogRequest, 'tailLines' | 'limitBytes'>,
): string {
  const shown =
    request.tailLines !== undefined ? lines.slice(-request.tailLines) : lines;
  const text = shown.map(l => `${l}\n`).join('');
  if (request.limitBytes === undefined) return text;
  return Buffer.from(text).subarray(0, request.limitBytes).toString('utf8');
}

const PATH = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/;

export async function startKubeletLogStandIn(
  options: KubeletLogStandInOptions,
): Promise<KubeletLogStandIn> {
  const pki = join(options.clusterDir, 'pki');
  const [cert, key] = await Promise.all([
    readFile(join(pki, 'apiserver.crt')),
    readFile(join(pki, 'apiserver.key')),
  ]);
  const everyMs = options.followEveryMs ?? 200;
  const requests: KubeletLogRequest[] = [];
  const followers: KubeletLogFollower[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = https.createServer({ cert, key }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const match = PATH.exec(url.pathname);
    if (!match) {
      res.writeHead(404).end('not found');
      return;
    }
    const tail = url.searchParams.get('tailLines');
    const limit = url.searchParams.get('limitBytes');
    const request: KubeletLogRequest = {
      namespace: decodeURIComponent(match[1]),
      pod: decodeURIComponent(match[2]),
      container: decodeURIComponent(match[3]),
      previous: url.searchParams.get('previous') === 'true',
      follow: url.searchParams.get('follow') === 'true',
      ...(tail ? { tailLines: Number(tail) } : {}),
      ...(limit ? { limitBytes: Number(limit) } : {}),
    };
    requests.push(request);
    const lines = options.source.lines(request);
    if (!lines) {
      res
        .writeHead(404, { 'Content-Type': 'text/plain' })
        .end(
          `container "${request.container}" in pod "${request.pod}" is not available`,
        );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write(logText(lines, request));
    // A limited log is not followed: the kubelet stops at the limit.
    if (
      !request.follow ||
      !options.source.next ||
      request.limitBytes !== undefined
    ) {
      res.end();
      return;
    }
    const follower: KubeletLogFollower = {
      request,
      openedAt: Date.now(),
      written: [],
    };
    followers.push(follower);
    let n = 0;
    const timer = setInterval(() => {
      const line = options.source.next!(request, n++);
      follower.written.push({ line, at: Date.now() });
      res.write(`${line}\n`);
    }, everyMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
      follower.closedAt = Date.now();
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    followers,
    async stop() {
      timers.forEach(t => clearInterval(t));
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
    },
  };
}
