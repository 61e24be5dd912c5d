/**
 * Pod logs: the pods of a resource, one container's log as a bounded tail
 * (JSON) or followed (server-sent events, ended when the client goes), and
 * the resource's log (its pods with its first pod's log: the Logs tab's one
 * first request). Each answer says in `Server-Timing` how long each step took.
 * Each route checks the user's runway.logs.read on the resource's cluster
 * and namespace first; only then does the ClusterClient read, with the
 * portal's own credentials, and only the resource's own pods.
 */
import type {
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { LineDecoder } from '@runway-portal/controller-runtime';
import {
  type Authorizer,
  type ClusterClient,
  ResourceInvalidError,
} from '@runway-portal/plugin-runway-node';
import {
  LOG_BYTES_MAX,
  LOG_EVENTS,
  type LogAnswer,
  type LogStart,
  type PodsAnswer,
  parseLogQuery,
  type ResourceLogAnswer,
  runwayLogsReadPermission,
  type RunwayKind,
} from '@runway-portal/plugin-runway-common';
import type { Request, Response, Router } from 'express';
import type { Readable } from 'node:stream';

export interface LogRoutesOptions {
  clusterClient: ClusterClient;
  httpAuth: HttpAuthService;
  authorizer: Authorizer;
  logger: LoggerService;
  /** A comment line every this often keeps idle followed logs open through proxies; default 15 s. */
  heartbeatMs?: number;
}

/** One server-sent event; a line has no newline, so one `data` field carries it. */
export function sseEvent(data: string, event?: string): string {
  const lines = data.split(/\r?\n/);
  return `${event ? `event: ${event}\n` : ''}${lines
    .map(l => `data: ${l}`)
    .join('\n')}\n\n`;
}

/** One step of answering a log request and how long it took. */
export interface TimedStep {
  name: string;
  ms: number;
}

/** The `Server-Timing` header of steps (what a browser's devtools and the benchmarks show). Pure. */
export function serverTiming(steps: readonly TimedStep[]): string {
  return steps.map(s => `${s.name};dur=${s.ms.toFixed(1)}`).join(', ');
}

/** Records how long each step took since the previous one ended (or since the request came). */
export function stepTimer(now: () => number = () => performance.now()) {
  let last = now();
  const steps: TimedStep[] = [];
  return {
    steps,
    step: (name: string) => {
      const t = now();
      steps.push({ name, ms: t - last });
      last = t;
    },
  };
}

/** The last `tailLines` of a log read whole (bounded by `limitBytes` upstream). */
export function lastLines(text: string, tailLines: number): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.slice(-tailLines);
}

async function readBounded(
  stream: Readable,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    // The API server honours limitBytes; this guards against one that does not.
    if (size >= maxBytes) {
      stream.destroy();
      return {
        text: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'),
        truncated: true,
      };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/**
 * Starts an event stream: nothing between the backend and the browser may
 * hold it back (`no-transform` keeps compression middleware off it,
 * `X-Accel-Buffering` a proxy's buffer), and each write is flushed.
 * Returns the writer (false: the client reads slower than the log comes).
 */
function startEvents(res: Response): (text: string) => boolean {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  // No Nagle delay for the small writes of a log line.
  res.socket?.setNoDelay(true);
  const flush = () => (res as unknown as { flush?: () => void }).flush?.();
  return text => {
    const ok = res.write(text);
    flush();
    return ok;
  };
}

/** A writer that pauses `source` while the client reads slower than it comes, so nothing piles up in the backend. */
function withBackpressure(
  res: Response,
  send: (text: string) => boolean,
  source: Readable,
): (text: string) => void {
  return text => {
    if (!send(text)) {
      source.pause();
      res.once('drain', () => source.resume());
    }
  };
}

/** An event stream fed by `source` (Try it's answers): the headers, then a writer with backpressure. */
export function eventStreamWriter(
  res: Response,
  source: Readable,
): (text: string) => void {
  return withBackpressure(res, startEvents(res), source);
}

function follow(
  res: Response,
  send: (text: string) => boolean,
  stream: Readable,
  heartbeatMs: number,
  onEnd: () => void,
) {
  const write = withBackpressure(res, send, stream);
  const decoder = new LineDecoder();
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
  let done = false;
  const finish = (event?: string) => {
    if (done) return;
    done = true;
    clearInterval(heartbeat);
    stream.destroy();
    if (event && !res.writableEnded) send(event);
    if (!res.writableEnded) res.end();
    onEnd();
  };
  stream.on('data', (chunk: Buffer) => {
    const lines = decoder.push(chunk);
    if (lines.length > 0) write(lines.map(l => sseEvent(l)).join(''));
  });
  stream.on('end', () => {
    const rest = decoder.end();
    if (rest.length > 0) write(rest.map(l => sseEvent(l)).join(''));
    finish(sseEvent('', LOG_EVENTS.end));
  });
  stream.on('error', err =>
    finish(
      sseEvent(
        `reading the log failed: ${err.message}; reload to try again`,
        LOG_EVENTS.error,
      ),
    ),
  );
  // The client went (tab closed, page left): stop reading from the cluster.
  res.on('close', () => finish());
}

/** The log query, validated (400 naming each parameter at fault). */
function logQueryOf(req: Request) {
  const { value, issues } = parseLogQuery(req.query as Record<string, unknown>);
  if (!value) {
    throw new ResourceInvalidError(
      `the log request is not valid: ${issues
        .map(i => `${i.path}: ${i.message}`)
        .join('; ')}`,
      issues,
    );
  }
  return value;
}

/** An abort signal that fires when the client goes. */
function untilClientGoes(res: Response): AbortSignal {
  const aborted = new AbortController();
  res.on('close', () => aborted.abort(new Error('the client went away')));
  return aborted.signal;
}

/** Adds the log routes to the runway router (after the resource routes, same error handling). */
export function registerLogRoutes(router: Router, options: LogRoutesOptions) {
  const { clusterClient, httpAuth, authorizer, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  async function authorize(req: Request) {
    const { cluster, namespace } = req.params;
    const credentials = await httpAuth.credentials(req as any);
    await authorizer.check(runwayLogsReadPermission, credentials, {
      cluster,
      namespace,
    });
  }

  router.get('/:kind/:cluster/:namespace/:name/pods', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const { cluster, namespace, name } = req.params;
    const timer = stepTimer();
    await authorize(req);
    timer.step('authz');
    const answer = await clusterClient.resourcePods(
      kind,
      { cluster, namespace, name },
      timer.step,
    );
    res.setHeader('Server-Timing', serverTiming(timer.steps));
    res.json(answer satisfies PodsAnswer);
  });

  router.get(
    '/:kind/:cluster/:namespace/:name/pods/:pod/log',
    async (req, res) => {
      const kind = req.params.kind as RunwayKind;
      const { cluster, namespace, name, pod } = req.params;
      const timer = stepTimer();
      await authorize(req);
      timer.step('authz');
      const query = logQueryOf(req);
      const { container, stream } = await clusterClient.podLog(
        kind,
        { cluster, namespace, name },
        pod,
        query,
        { signal: untilClientGoes(res), onStep: timer.step },
      );
      res.setHeader('Server-Timing', serverTiming(timer.steps));
      if (query.follow) {
        logger.debug(`following the log of ${namespace}/${pod} ${container}`);
        follow(res, startEvents(res), stream, heartbeatMs, () =>
          logger.debug(`stopped following ${namespace}/${pod} ${container}`),
        );
        return;
      }
      const { text, truncated } = await readBounded(stream, LOG_BYTES_MAX);
      res.json({
        pod,
        container,
        previous: query.previous,
        lines: lastLines(text, query.tailLines),
        truncated,
      } satisfies LogAnswer);
    },
  );

  // The Logs tab's first request: the resource's pods and its first pod's log in one answer.
  router.get('/:kind/:cluster/:namespace/:name/log', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const { cluster, namespace, name } = req.params;
    const timer = stepTimer();
    await authorize(req);
    timer.step('authz');
    const query = logQueryOf(req);
    const answer = await clusterClient.resourceLog(
      kind,
      { cluster, namespace, name },
      query,
      { signal: untilClientGoes(res), onStep: timer.step },
    );
    res.setHeader('Server-Timing', serverTiming(timer.steps));
    const { pods, pod, container, stream, error } = answer;
    if (!query.follow) {
      if (error) throw error;
      if (!stream || !pod || !container) {
        res.json({ pods } satisfies ResourceLogAnswer);
        return;
      }
      const { text, truncated } = await readBounded(stream, LOG_BYTES_MAX);
      res.json({
        pods,
        log: {
          pod,
          container,
          previous: query.previous,
          lines: lastLines(text, query.tailLines),
          truncated,
        },
      } satisfies ResourceLogAnswer);
      return;
    }
    const send = startEvents(res);
    const start: LogStart = {
      pods,
      ...(pod ? { pod } : {}),
      ...(container ? { container } : {}),
    };
    send(sseEvent(JSON.stringify(start), LOG_EVENTS.start));
    if (stream && pod && container) {
      follow(res, send, stream, heartbeatMs, () =>
        logger.debug(`stopped following ${namespace}/${pod} ${container}`),
      );
      return;
    }
    // No pod yet, or its log cannot be read: the pods are known, the stream ends saying why.
    send(
      error
        ? sseEvent(
            `could not read the log of pod ${pod}: ${error.message}`,
            LOG_EVENTS.error,
          )
        : sseEvent('', LOG_EVENTS.end),
    );
    res.end();
  });
}
