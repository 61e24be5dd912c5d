/**
 * "Try it": an OpenAI-compatible chat request sent to a Running deployment
 * through the portal's backend (the API server's service proxy), and its
 * streamed answer. The request and its bounds are validated here, once, for
 * the backend and the browser; the answer's server-sent events are read by
 * the one decoder below on both sides.
 */
import { type Static, Type } from '@sinclair/typebox';
import { isRecord } from '../schema/json';
import { error, type ValidationIssue } from '../schema/issues';

/** The most messages one request may carry. @public */
export const CHAT_MESSAGES_MAX = 32;
/** The most bytes (UTF-8) of all messages' content together. @public */
export const CHAT_CONTENT_BYTES_MAX = 16 * 1024;
/** The most tokens an answer may ask for, and what is asked when none is given. @public */
export const CHAT_MAX_TOKENS_MAX = 2048;
/** @public */
export const CHAT_MAX_TOKENS_DEFAULT = 256;
/** The most bytes of answer the backend passes on; then it stops reading and says so. @public */
export const CHAT_ANSWER_BYTES_MAX = 256 * 1024;
/** How long one answer may take, from the request to its last byte. @public */
export const CHAT_TIMEOUT_MS = 120_000;

/** @public */
export const CHAT_ROLES = ['system', 'user', 'assistant'] as const;
/** @public */
export type ChatRole = (typeof CHAT_ROLES)[number];

/** @public */
export const ChatMessageSchema = Type.Object(
  {
    role: Type.Union(CHAT_ROLES.map(r => Type.Literal(r))),
    content: Type.String(),
  },
  { $id: 'ChatMessage', additionalProperties: false },
);
/** @public */
export type ChatMessage = Static<typeof ChatMessageSchema>;

/** @public */
export const ChatRequestSchema = Type.Object(
  {
    messages: Type.Array(ChatMessageSchema, {
      minItems: 1,
      maxItems: CHAT_MESSAGES_MAX,
    }),
    max_tokens: Type.Optional(
      Type.Integer({ minimum: 1, maximum: CHAT_MAX_TOKENS_MAX }),
    ),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
  },
  {
    $id: 'ChatRequest',
    additionalProperties: false,
    description: `An OpenAI chat completion request, bounded: 1 to ${CHAT_MESSAGES_MAX} messages, at most ${CHAT_CONTENT_BYTES_MAX} bytes of content in all, max_tokens 1 to ${CHAT_MAX_TOKENS_MAX} (default ${CHAT_MAX_TOKENS_DEFAULT}), temperature 0 to 2. The backend adds the deployment's model name and stream: true.`,
  },
);
/** @public */
export type ChatRequest = Static<typeof ChatRequestSchema>;

/**
 * Server-sent events of an answer: every unnamed event is the model
 * server's own (an OpenAI `chat.completion.chunk` as JSON, then `[DONE]`),
 * passed on as it came; this name carries the backend's own word.
 *
 * @public
 */
export const CHAT_EVENTS = {
  /** The answer stopped early (too long, too slow, the model server failed); `data` says why. */
  error: 'runway-error',
} as const;

/** The `data` of the last event of an OpenAI stream. @public */
export const CHAT_DONE = '[DONE]';

const KEYS = new Set(['messages', 'max_tokens', 'temperature']);

function messageIssues(
  messages: unknown[],
  issues: ValidationIssue[],
): ChatMessage[] {
  const valid: ChatMessage[] = [];
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (!isRecord(m)) {
      issues.push(error(at, `${at} must be an object with role and content`));
      return;
    }
    const role = m.role;
    if (!(CHAT_ROLES as readonly unknown[]).includes(role)) {
      issues.push(
        error(
          `${at}.role`,
          `${at}.role must be one of ${CHAT_ROLES.join(
            ', ',
          )}, not ${JSON.stringify(role ?? null).slice(0, 40)}`,
        ),
      );
    }
    if (typeof m.content !== 'string') {
      issues.push(error(`${at}.content`, `${at}.content must be text`));
    }
    for (const key of Object.keys(m).filter(
      k => k !== 'role' && k !== 'content',
    )) {
      issues.push(
        error(
          `${at}.${key}`,
          `${at}.${key} is not accepted: a message has only role and content`,
        ),
      );
    }
    if (typeof m.content === 'string' && typeof role === 'string')
      valid.push({ role: role as ChatRole, content: m.content });
  });
  return valid;
}

/**
 * The chat request, validated: each problem names its field and the bound
 * it broke. The value has max_tokens filled in.
 *
 * @public
 */
export function parseChatRequest(body: unknown): {
  value?: ChatRequest & { max_tokens: number };
  issues: ValidationIssue[];
} {
  const issues: ValidationIssue[] = [];
  if (!isRecord(body)) {
    issues.push(
      error(
        '',
        'the body must be a JSON object with messages: [{role, content}]',
      ),
    );
    return { issues };
  }
  for (const key of Object.keys(body).filter(k => !KEYS.has(k))) {
    issues.push(
      error(
        key,
        `${key} is not accepted: send messages, and optionally max_tokens and temperature (the portal sets the model and streaming)`,
      ),
    );
  }
  const messages = body.messages;
  let valid: ChatMessage[] = [];
  if (!Array.isArray(messages) || messages.length === 0) {
    issues.push(
      error(
        'messages',
        'messages must be a list of 1 or more {role, content} objects',
      ),
    );
  } else if (messages.length > CHAT_MESSAGES_MAX) {
    issues.push(
      error(
        'messages',
        `messages has ${messages.length} entries; at most ${CHAT_MESSAGES_MAX} are accepted: drop the oldest`,
      ),
    );
  } else {
    valid = messageIssues(messages, issues);
    const bytes = valid.reduce(
      (n, m) => n + new TextEncoder().encode(m.content).length,
      0,
    );
    if (bytes > CHAT_CONTENT_BYTES_MAX) {
      issues.push(
        error(
          'messages',
          `the messages' content is ${bytes} bytes; at most ${CHAT_CONTENT_BYTES_MAX} bytes (16 KiB) in all are accepted: shorten the prompt or drop older messages`,
        ),
      );
    }
  }
  let maxTokens = CHAT_MAX_TOKENS_DEFAULT;
  if (body.max_tokens !== undefined) {
    const n = body.max_tokens;
    if (
      typeof n !== 'number' ||
      !Number.isInteger(n) ||
      n < 1 ||
      n > CHAT_MAX_TOKENS_MAX
    )
      issues.push(
        error(
          'max_tokens',
          `max_tokens must be a whole number from 1 to ${CHAT_MAX_TOKENS_MAX}, not ${JSON.stringify(
            n,
          ).slice(0, 40)}`,
        ),
      );
    else maxTokens = n;
  }
  let temperature: number | undefined;
  if (body.temperature !== undefined) {
    const t = body.temperature;
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 2)
      issues.push(
        error(
          'temperature',
          `temperature must be a number from 0 to 2, not ${JSON.stringify(
            t,
          ).slice(0, 40)}`,
        ),
      );
    else temperature = t;
  }
  if (issues.length > 0) return { issues };
  return {
    value: {
      messages: valid,
      max_tokens: maxTokens,
      ...(temperature === undefined ? {} : { temperature }),
    },
    issues,
  };
}

/** One server-sent event as read: its name (undefined for the default) and its data lines joined. @public */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Reads server-sent events from text arriving in pieces: `push` returns the
 * events completed so far (comments and empty events are dropped).
 *
 * @public
 */
export class SseDecoder {
  private buffer = '';

  push(text: string): SseEvent[] {
    this.buffer += text.replace(/\r\n?/g, '\n');
    const events: SseEvent[] = [];
    let end = this.buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = parseBlock(block);
      if (event) events.push(event);
      end = this.buffer.indexOf('\n\n');
    }
    return events;
  }
}

function parseBlock(block: string): SseEvent | undefined {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { event, data: data.join('\n') };
}

/** What one event of an answer adds: text, the end, or the backend's error. Pure. @public */
export type ChatStreamPart =
  | { type: 'text'; text: string }
  | { type: 'done' }
  | { type: 'error'; message: string };

/** @public */
export function chatStreamPart(event: SseEvent): ChatStreamPart | undefined {
  if (event.event === CHAT_EVENTS.error)
    return { type: 'error', message: event.data };
  if (event.data === CHAT_DONE) return { type: 'done' };
  let chunk: unknown;
  try {
    chunk = JSON.parse(event.data);
  } catch {
    return undefined;
  }
  if (!isRecord(chunk)) return undefined;
  if (isRecord(chunk.error)) {
    const message = chunk.error.message;
    return {
      type: 'error',
      message: `the model server answered an error: ${
        typeof message === 'string' ? message : JSON.stringify(chunk.error)
      }`,
    };
  }
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!isRecord(choice)) return undefined;
  const delta = isRecord(choice.delta) ? choice.delta : undefined;
  // A streamed chunk carries `delta`; a whole answer (no stream) carries `message`.
  const message = isRecord(choice.message) ? choice.message : undefined;
  const content = delta ? delta.content : message?.content;
  const text = typeof content === 'string' ? content : undefined;
  return text ? { type: 'text', text } : undefined;
}
