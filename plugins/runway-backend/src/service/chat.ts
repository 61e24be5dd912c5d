/**
 * "Try it": a chat request to a Running deployment, streamed back. The
 * route checks the user's runway.chat.send on the deployment's cluster and
 * namespace first (nothing is read or sent before), validates the body
 * (runway-common's parseChatRequest: each field and bound named), then the
 * ClusterClient sends it through the API server's service proxy with the
 * portal's credentials. The model server's server-sent events are passed on
 * whole, bounded in bytes and time; the upstream request is closed when the
 * client goes.
 */
import type {
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  type Authorizer,
  type ClusterClient,
  ResourceInvalidError,
} from '@runway-portal/plugin-runway-node';
import {
  CHAT_ANSWER_BYTES_MAX,
  CHAT_DONE,
  CHAT_EVENTS,
  CHAT_TIMEOUT_MS,
  parseChatRequest,
  runwayChatSendPermission,
  SseDecoder,
} from '@runway-portal/plugin-runway-common';
import type { Request, Response, Router } from 'express';
import type { IncomingMessage } from 'node:http';
import { eventStreamWriter, sseEvent } from './logs';

export interface ChatRoutesOptions {
  clusterClient: ClusterClient;
  httpAuth: HttpAuthService;
  authorizer: Authorizer;
  logger: LoggerService;
  /** The most bytes of answer passed on; default CHAT_ANSWER_BYTES_MAX. */
  answerBytesMax?: number;
  /** How long one answer may take; default CHAT_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** How a stream that was cut ends: the reason as the backend's own event. Pure. */
export function cutMessage(reason: 'size' | 'time', bound: number): string {
  return reason === 'size'
    ? `the answer was cut at ${bound} bytes (the portal's bound): ask for fewer max_tokens to see a whole answer`
    : `the answer was cut after ${Math.round(
        bound / 1000,
      )} s (the portal's bound): ask for fewer max_tokens, or call the endpoint directly for long answers`;
}

function passOn(
  res: Response,
  upstream: IncomingMessage,
  bounds: { bytes: number; timeoutMs: number },
  onEnd: (why: string) => void,
) {
  const write = eventStreamWriter(res, upstream);
  const json = !String(upstream.headers['content-type'] ?? '').includes(
    'text/event-stream',
  );
  const decoder = new SseDecoder();
  const textDecoder = new TextDecoder();
  let whole = '';
  let bytes = 0;
  let done = false;
  // Set below, once `finish` exists; cleared by it.
  const deadline: { timer?: NodeJS.Timeout } = {};
  const finish = (why: string, event?: string) => {
    if (done) return;
    done = true;
    clearTimeout(deadline.timer);
    upstream.destroy();
    if (event && !res.writableEnded) write(event);
    if (!res.writableEnded) res.end();
    onEnd(why);
  };
  deadline.timer = setTimeout(
    () =>
      finish(
        'timeout',
        sseEvent(cutMessage('time', bounds.timeoutMs), CHAT_EVENTS.error),
      ),
    bounds.timeoutMs,
  );
  upstream.on('data', (chunk: Buffer) => {
    if (done) return;
    bytes += chunk.length;
    if (bytes > bounds.bytes) {
      finish(
        'size',
        sseEvent(cutMessage('size', bounds.bytes), CHAT_EVENTS.error),
      );
      return;
    }
    const text = textDecoder.decode(chunk, { stream: true });
    if (json) {
      whole += text;
      return;
    }
    // Whole events only, so a cut never leaves half an event.
    const events = decoder.push(text);
    if (events.length > 0)
      write(events.map(e => sseEvent(e.data, e.event)).join(''));
  });
  upstream.on('end', () => {
    // A server that answered one JSON object (no stream): the same events a stream would be.
    if (json && whole.trim())
      write(sseEvent(whole.trim()) + sseEvent(CHAT_DONE));
    finish('end');
  });
  upstream.on('error', err =>
    finish(
      'error',
      sseEvent(
        `reading the answer failed: ${err.message}; send again to retry`,
        CHAT_EVENTS.error,
      ),
    ),
  );
  // The client went (Stop, tab closed): close the request to the model server.
  res.on('close', () => finish('client went away'));
}

/** Adds the chat route to the runway router (after the resource routes, same error handling). */
export function registerChatRoutes(router: Router, options: ChatRoutesOptions) {
  const { clusterClient, httpAuth, authorizer, logger } = options;
  const bounds = {
    bytes: options.answerBytesMax ?? CHAT_ANSWER_BYTES_MAX,
    timeoutMs: options.timeoutMs ?? CHAT_TIMEOUT_MS,
  };

  router.post(
    '/deployments/:cluster/:namespace/:name/chat',
    async (req: Request, res: Response) => {
      const { cluster, namespace, name } = req.params;
      const credentials = await httpAuth.credentials(req as any);
      await authorizer.check(runwayChatSendPermission, credentials, {
        cluster,
        namespace,
      });
      const { value, issues } = parseChatRequest(req.body);
      if (!value) {
        throw new ResourceInvalidError(
          `the chat request is not valid: ${issues
            .map(i => `${i.path || 'body'}: ${i.message}`)
            .join('; ')}`,
          issues,
        );
      }
      const aborted = new AbortController();
      res.on('close', () => aborted.abort(new Error('the client went away')));
      const { model, stream } = await clusterClient.chat(
        { cluster, namespace, name },
        value,
        aborted.signal,
      );
      logger.debug(`chat with ${namespace}/${name} (model ${model})`);
      passOn(res, stream, bounds, why =>
        logger.debug(`chat with ${namespace}/${name} ended: ${why}`),
      );
    },
  );
}
