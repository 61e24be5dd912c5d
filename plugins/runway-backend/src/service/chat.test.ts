/**
 * The chat route's bounds, with a model server that misbehaves on purpose
 * (too long, too slow, not streaming): the real control plane path is
 * chat.integration.test.ts.
 */
import { mockServices } from '@backstage/backend-test-utils';
import {
  type ChatStreamPart,
  chatStreamPart,
  SseDecoder,
} from '@runway-portal/plugin-runway-common';
import type {
  Authorizer,
  ClusterClient,
} from '@runway-portal/plugin-runway-node';
import express from 'express';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { cutMessage, registerChatRoutes } from './chat';

const chunk = (content: string) =>
  `data: ${JSON.stringify({
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content } }],
  })}\n\n`;

/** A backend whose model server writes `script` (text pieces, with pauses), answered with `contentType`. */
function app(
  script: Array<string | number>,
  options: {
    contentType?: string;
    answerBytesMax?: number;
    timeoutMs?: number;
  } = {},
) {
  const upstream = new PassThrough();
  (upstream as unknown as IncomingMessage).headers = {
    'content-type': options.contentType ?? 'text/event-stream',
  };
  const state = { destroyed: false };
  upstream.on('close', () => {
    state.destroyed = true;
  });
  const clusterClient = {
    chat: async () => {
      (async () => {
        for (const step of script) {
          if (state.destroyed) return;
          if (typeof step === 'number')
            await new Promise(r => setTimeout(r, step));
          else upstream.write(step);
        }
        if (!state.destroyed) upstream.end();
      })();
      return { model: 'm', stream: upstream as unknown as IncomingMessage };
    },
  } as unknown as ClusterClient;
  const router = express.Router();
  router.use(express.json());
  registerChatRoutes(router, {
    clusterClient,
    httpAuth: mockServices.httpAuth(),
    authorizer: { check: async () => undefined } as unknown as Authorizer,
    logger: mockServices.logger.mock(),
    answerBytesMax: options.answerBytesMax,
    timeoutMs: options.timeoutMs,
  });
  const server = express().use(router);
  return { server, state };
}

async function ask(server: express.Express): Promise<ChatStreamPart[]> {
  const res = await request(server)
    .post('/deployments/east/ml/llama/chat')
    .send({ messages: [{ role: 'user', content: 'hi' }] });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  return new SseDecoder()
    .push(res.text)
    .map(chatStreamPart)
    .filter((p): p is ChatStreamPart => p !== undefined);
}

describe('the chat route', () => {
  it("passes the model server's events on whole, even when they arrive split", async () => {
    const text = `${chunk('Hel')}${chunk('lo')}data: [DONE]\n\n`;
    const { server } = app([text.slice(0, 20), 5, text.slice(20)]);
    expect(await ask(server)).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'done' },
    ]);
  });

  it('cuts an answer longer than its byte bound, says so, and closes the upstream', async () => {
    const { server, state } = app(
      [chunk('x'.repeat(40)), 5, chunk('y'.repeat(40)), 5, chunk('z')],
      { answerBytesMax: 150 },
    );
    expect(await ask(server)).toEqual([
      { type: 'text', text: 'x'.repeat(40) },
      { type: 'error', message: cutMessage('size', 150) },
    ]);
    expect(state.destroyed).toBe(true);
  });

  it('cuts an answer slower than its time bound, says so, and closes the upstream', async () => {
    const { server, state } = app([chunk('slow'), 2_000, chunk('never')], {
      timeoutMs: 200,
    });
    expect(await ask(server)).toEqual([
      { type: 'text', text: 'slow' },
      { type: 'error', message: cutMessage('time', 200) },
    ]);
    expect(state.destroyed).toBe(true);
  });

  it('turns a whole (not streamed) JSON answer into the same events', async () => {
    const whole = JSON.stringify({
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' } }],
    });
    const { server } = app([whole], { contentType: 'application/json' });
    expect(await ask(server)).toEqual([
      { type: 'text', text: 'Hi!' },
      { type: 'done' },
    ]);
  });

  it('names the bound in the message of a cut', () => {
    expect(cutMessage('size', 262144)).toMatch(
      /^the answer was cut at 262144 bytes/,
    );
    expect(cutMessage('time', 120_000)).toMatch(
      /^the answer was cut after 120 s/,
    );
  });
});
