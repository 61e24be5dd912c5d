/**
 * A browser-like subscriber of Backstage signals for tests: a WebSocket to
 * the real signals backend, subscribed to channels, collecting messages.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';

export interface SignalMessage {
  channel: string;
  message: Record<string, unknown>;
  receivedAt: number;
}

export interface SignalSubscriber {
  messages: SignalMessage[];
  /** Resolves with the first message (already received or coming) that matches. */
  waitFor(
    match: (m: SignalMessage) => boolean,
    timeoutMs: number,
  ): Promise<SignalMessage>;
  close(): void;
}

function connectOnce(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    // The first upgrade passes through Backstage's HTTP router (hence the credentials), which
    // is when the signals backend starts handling upgrades; until then an attempt just times out.
    const ws = new WebSocket(url, {
      headers: { Authorization: mockCredentials.user.header() },
      handshakeTimeout: 1000,
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

export async function subscribeSignals(
  server: Server,
  channels: string[],
): Promise<SignalSubscriber> {
  const { port } = server.address() as AddressInfo;
  const url = `ws://localhost:${port}/api/signals`;
  let ws: WebSocket | undefined;
  for (let attempt = 0; attempt < 10 && !ws; attempt++) {
    ws = await connectOnce(url).catch(() => undefined);
  }
  if (!ws) throw new Error(`could not open a WebSocket to ${url}`);
  const socket = ws;
  const messages: SignalMessage[] = [];
  const waiters = new Set<(m: SignalMessage) => void>();
  socket.on('message', data => {
    const parsed = JSON.parse(data.toString()) as {
      channel: string;
      message: Record<string, unknown>;
    };
    const m = { ...parsed, receivedAt: Date.now() };
    messages.push(m);
    for (const w of waiters) w(m);
  });
  for (const channel of channels)
    socket.send(JSON.stringify({ action: 'subscribe', channel }));
  // Let the subscriptions arrive before anyone publishes.
  await new Promise(r => setTimeout(r, 200));
  return {
    messages,
    waitFor(match, timeoutMs) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(onMessage);
          reject(
            new Error(
              `no matching signal within ${timeoutMs} ms (got ${JSON.stringify(
                messages,
              )})`,
            ),
          );
        }, timeoutMs);
        function onMessage(m: SignalMessage) {
          if (!match(m)) return;
          clearTimeout(timer);
          waiters.delete(onMessage);
          resolve(m);
        }
        waiters.add(onMessage);
      });
    },
    close: () => socket.close(),
  };
}
