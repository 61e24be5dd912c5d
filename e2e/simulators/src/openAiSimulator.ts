/**
 * A simulator of vLLM's OpenAI-compatible API server, not a model: it
 * answers `POST /v1/chat/completions` (streamed as server-sent events of
 * `chat.completion.chunk`s ending with `data: [DONE]`, or one
 * `chat.completion`) and `GET /v1/models` in vLLM's shapes, with a made-up
 * answer that names itself a simulation and echoes the last user message,
 * one word per token, a token every `tokenDelayMs`. It listens on a
 * non-loopback address of this machine, because the API server's service
 * proxy refuses loopback and link-local endpoints: the model-server-pods
 * simulator reports that address as its pods' IP and this port as their
 * `http` port, so the endpoints controller sends a Service's proxy there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

export const OPENAI_SIMULATOR = 'openai';
/** The `data` of the last event of a stream, as OpenAI's and vLLM's servers send it. */
const CHAT_DONE_DATA = '[DONE]';

export interface ChatCall {
  at: number;
  path: string;
  model?: string;
  stream: boolean;
  messages: Array<{ role: string; content: string }>;
  /** When the caller went before the answer ended. */
  abortedAt?: number;
}

export interface OpenAiSimulator {
  /** The address it listens on (not loopback). */
  host: string;
  port: number;
  /** Every chat request received, in order. */
  calls: ChatCall[];
  stop(): Promise<void>;
}

export interface OpenAiSimulatorOptions {
  /** Default: the first non-loopback, non-link-local IPv4 address of this machine. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Time between two streamed tokens; default 30 ms. */
  tokenDelayMs?: number;
  /** What GET /v1/models lists when no model was asked for yet; default `simulated-model`. */
  defaultModel?: string;
}

/** The first IPv4 address of this machine that the API server may proxy to (not loopback, not link-local). */
export function proxyableHostAddress(
  interfaces = networkInterfaces(),
): string | undefined {
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv4' || a.internal) continue;
      if (a.address.startsWith('127.') || a.address.startsWith('169.254.'))
        continue;
      return a.address;
    }
  }
  return undefined;
}

/** The answer's words: says it is simulated and echoes the last user message. Pure. */
export function simulatedAnswer(
  model: string,
  messages: Array<{ role: string; content: string }>,
): string[] {
  const last = [...messages].reverse().find(m => m.role === 'user');
  const prompt = (last?.content ?? '').replace(/\s+/g, ' ').trim();
  const quoted = prompt.length > 200 ? `${prompt.slice(0, 200)}…` : prompt;
  const text = `This is a simulated answer from ${model} (e2e/simulators, an OpenAI API simulator, not a model). You said: "${quoted}".`;
  return text.split(/(?<= )/);
}

function chunk(
  id: string,
  created: number,
  model: string,
  delta: Record<string, string>,
  finishReason: string | null,
) {
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** vLLM's error body. */
function sendError(res: http.ServerResponse, code: number, message: string) {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      object: 'error',
      message,
      type: code === 404 ? 'NotFoundError' : 'BadRequestError',
      param: null,
      code,
    }),
  );
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1024 * 1024) throw new Error('request body over 1 MiB');
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startOpenAiSimulator(
  options: OpenAiSimulatorOptions = {},
): Promise<OpenAiSimulator> {
  const host = options.host ?? proxyableHostAddress();
  if (!host) {
    throw new Error(
      'the OpenAI simulator needs a non-loopback IPv4 address on this machine (the API server refuses to proxy to loopback and link-local addresses); pass host',
    );
  }
  const tokenDelayMs = options.tokenDelayMs ?? 30;
  const calls: ChatCall[] = [];
  const models = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;

  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      const ids = models.size
        ? [...models]
        : [options.defaultModel ?? 'simulated-model'];
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: ids.map(id => ({
            id,
            object: 'model',
            created: Math.floor(Date.now() / 1000),
            owned_by: 'vllm',
            root: id,
            parent: null,
            max_model_len: 4096,
          })),
        }),
      );
      return;
    }
    if (req.method === 'GET' && (path === '/health' || path === '/ping')) {
      res.writeHead(200);
      res.end();
      return;
    }
    if (path !== '/v1/chat/completions') {
      sendError(res, 404, `no route ${req.method} ${path}`);
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, 405, 'use POST');
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = (await readJson(req)) as Record<string, unknown>;
    } catch (err) {
      sendError(res, 400, `the body is not JSON: ${(err as Error).message}`);
      return;
    }
    const messages = Array.isArray(body?.messages)
      ? (body.messages as Array<{ role: string; content: string }>)
      : undefined;
    const call: ChatCall = {
      at: Date.now(),
      path,
      model: typeof body?.model === 'string' ? body.model : undefined,
      stream: body?.stream === true,
      messages: messages ?? [],
    };
    calls.push(call);
    if (!messages || messages.length === 0) {
      sendError(res, 400, 'messages: a list of 1 or more messages is required');
      return;
    }
    const model = call.model ?? options.defaultModel ?? 'simulated-model';
    models.add(model);
    const maxTokens =
      typeof body.max_tokens === 'number' && body.max_tokens > 0
        ? body.max_tokens
        : 16;
    const words = simulatedAnswer(model, messages);
    const tokens = words.slice(0, maxTokens);
    const finishReason = tokens.length < words.length ? 'length' : 'stop';
    const id = `chatcmpl-sim-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const promptTokens = messages.reduce(
      (n, m) => n + String(m.content).split(/\s+/).length,
      0,
    );
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: tokens.length,
      total_tokens: promptTokens + tokens.length,
    };
    if (!call.stream) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: tokens.join('') },
              logprobs: null,
              finish_reason: finishReason,
            },
          ],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
    });
    const send = (data: unknown) =>
      res.write(
        `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
      );
    send(chunk(id, created, model, { role: 'assistant', content: '' }, null));
    let i = 0;
    const timer = setInterval(() => {
      if (i < tokens.length) {
        send(chunk(id, created, model, { content: tokens[i++] }, null));
        return;
      }
      clearInterval(timer);
      timers.delete(timer);
      send(chunk(id, created, model, {}, finishReason));
      send(CHAT_DONE_DATA);
      res.end();
    }, tokenDelayMs);
    timers.add(timer);
    res.on('close', () => {
      if (!res.writableFinished) call.abortedAt = Date.now();
      clearInterval(timer);
      timers.delete(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    calls,
    stop: () =>
      new Promise<void>(resolve => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
