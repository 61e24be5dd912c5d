/**
 * Debian's Chromium through playwright-core (never a downloaded browser),
 * with the flags that keep it quiet on a closed network, and screenshots
 * written to a folder the tests print.
 */
import { REPO_ROOT } from '@runway-portal/e2e-system';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type BrowserContext,
  type Page,
  type WebSocket,
} from 'playwright-core';

export const CHROMIUM = process.env.RUNWAY_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Saves `<n>-<step>.png` in the screenshot folder; returns its path. */
  screenshot(step: string): Promise<string>;
  close(): Promise<void>;
}

/** A new screenshot folder for one run of a suite: `test-output/<suite>/<start time>` in the repository. */
export function screenshotFolder(suite: string): string {
  return join(
    REPO_ROOT,
    'test-output',
    suite,
    new Date().toISOString().replace(/[:.]/g, '-'),
  );
}

export async function openBrowser(
  screenshotDir: string,
): Promise<BrowserSession> {
  mkdirSync(screenshotDir, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'runway-chromium-'));
  // A fresh profile per run: nothing cached from an earlier session.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  let n = 0;
  return {
    context,
    page,
    async screenshot(step) {
      n += 1;
      const path = join(
        screenshotDir,
        `${String(n).padStart(2, '0')}-${step}.png`,
      );
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** How long a page step may take before the test fails with a screenshot. */
export const UI_TIMEOUT_MS = 90_000;

/** How often `until` checks the page: a step is seen at most this late. */
export const UNTIL_POLL_MS = 200;

/** Waiting and navigating in the portal, with a screenshot when a wait times out. */
export interface PortalDriver {
  /** Polls `check` every `UNTIL_POLL_MS`; on timeout saves `timeout-<what>` and fails naming it. */
  until(
    what: string,
    check: () => Promise<boolean>,
    timeoutMs?: number,
  ): Promise<void>;
  /** Goes to a portal path, entering as the guest when the app asks (it may on any full load); `ready` says the page is there. */
  open(path: string, ready: () => Promise<boolean>): Promise<void>;
}

export function portalDriver(
  session: BrowserSession,
  portalUrl: string,
): PortalDriver {
  const { page } = session;
  async function until(
    what: string,
    check: () => Promise<boolean>,
    timeoutMs = UI_TIMEOUT_MS,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline) {
        const shot = await session.screenshot(
          `timeout-${what.replace(/\W+/g, '-')}`,
        );
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; screenshot ${shot}`,
        );
      }
      await new Promise(r => setTimeout(r, UNTIL_POLL_MS));
    }
  }
  async function open(path: string, ready: () => Promise<boolean>) {
    await page.goto(`${portalUrl}${path}`, { timeout: UI_TIMEOUT_MS });
    const enter = page.getByRole('button', { name: /^enter$/i });
    await until(
      `${path} to load`,
      async () => (await enter.isVisible()) || ready(),
    );
    if (await enter.isVisible()) {
      await enter.click();
      await until(`${path} after the guest sign-in`, ready);
    }
  }
  return { until, open };
}

/**
 * The channel of a Backstage signals client frame `{"action":"subscribe",
 * "channel":…}`, with `+` for a subscribe and `-` for an unsubscribe;
 * undefined for any other frame. Pure.
 */
export function signalSubscription(
  payload: string | Buffer,
): { channel: string; subscribed: boolean } | undefined {
  try {
    const frame = JSON.parse(payload.toString());
    if (typeof frame?.channel !== 'string') return undefined;
    if (frame.action === 'subscribe')
      return { channel: frame.channel, subscribed: true };
    if (frame.action === 'unsubscribe')
      return { channel: frame.channel, subscribed: false };
  } catch {
    // Not JSON: not a subscription.
  }
  return undefined;
}

/**
 * Follows the page's signal subscriptions (the frames it sends on its
 * `/api/signals` WebSocket); returns the channels subscribed on a socket
 * that is still open. Call before the page loads: a test waits on this
 * event instead of a fixed sleep for the page's signal connection.
 */
export function watchSignalSubscriptions(page: Page): () => string[] {
  const bySocket = new Map<WebSocket, Set<string>>();
  page.on('websocket', socket => {
    if (!new URL(socket.url()).pathname.endsWith('/signals')) return;
    const channels = new Set<string>();
    bySocket.set(socket, channels);
    socket.on('framesent', ({ payload }) => {
      const change = signalSubscription(payload);
      if (change?.subscribed) channels.add(change.channel);
      else if (change) channels.delete(change.channel);
    });
    socket.on('close', () => bySocket.delete(socket));
  });
  return () => [...bySocket.values()].flatMap(channels => [...channels]);
}
