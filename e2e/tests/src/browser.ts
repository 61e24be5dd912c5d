/**
 * Debian's Chromium through playwright-core (never a downloaded browser),
 * with the flags that keep it quiet on a closed network, and screenshots
 * written to a folder the tests print.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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
