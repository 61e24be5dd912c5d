/*
 * Smoke test of the real portal: starts the Backstage backend (which serves the built app),
 * checks its health endpoint, checks that it serves the app's page, renders that page in a
 * real headless Chromium, and stops the backend again (also when a check fails).
 *
 * Run by scripts/test after `yarn workspace app build`. Needs Debian's Chromium (scripts/bootstrap --browser).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const screenshotDir =
  process.env.RUNWAY_SCREENSHOT_DIR ?? join(root, 'test-output', 'smoke');
const readyTimeoutMs = 180_000;

/** Starts the backend in its own process group so the whole tree can be stopped. */
function startBackend(port: number, log: string[]): ChildProcess {
  const baseUrl = `http://localhost:${port}`;
  const child = spawn('yarn', ['workspace', 'backend', 'start'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      APP_CONFIG_backend_listen_port: String(port),
      APP_CONFIG_backend_baseUrl: baseUrl,
      APP_CONFIG_app_baseUrl: baseUrl,
    },
  });
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString().split('\n'));
    log.splice(0, Math.max(0, log.length - 200));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

/** Stops the backend's whole process group: SIGTERM, then SIGKILL for whatever is left after 10 s. */
async function stopBackend(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const group = -child.pid;
  const alive = () => {
    try {
      process.kill(group, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(group, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (alive() && Date.now() < deadline) {
    await new Promise(r => setTimeout(r, 100));
  }
  if (alive()) process.kill(group, 'SIGKILL');
  while (alive()) await new Promise(r => setTimeout(r, 100));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function waitForReadiness(
  baseUrl: string,
  child: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the backend exited with code ${child.exitCode}`);
    }
    try {
      const res = await fetch(`${baseUrl}/.backstage/health/v1/readiness`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise(r => setTimeout(r, 500));
  }
  throw new Error(
    `the backend did not become ready within ${readyTimeoutMs / 1000}s`,
  );
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
  console.log(`  ok  ${message}`);
}

async function renderInChromium(baseUrl: string): Promise<string> {
  // Playwright gives every launch a new, empty profile directory and removes it afterwards.
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 800 },
    });
    const pageErrors: string[] = [];
    page.on('pageerror', err => pageErrors.push(err.message));
    await page.goto(baseUrl);
    // The guest sign-in page, or the app itself when sign-in is not required.
    await page
      .getByRole('button', { name: /enter/i })
      .click({ timeout: 60_000 })
      .catch(() => undefined);
    await page.getByText('Runway Catalog').waitFor({ timeout: 60_000 });
    const file = join(screenshotDir, 'portal-home.png');
    await page.screenshot({ path: file, fullPage: true });
    check(pageErrors.length === 0, `the page threw no errors ${pageErrors}`);
    return file;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const log: string[] = [];
  console.log(`smoke test: starting the backend on ${baseUrl}`);
  const backend = startBackend(port, log);
  const stop = () => stopBackend(backend).finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await waitForReadiness(baseUrl, backend);
    check(true, 'the backend answers /.backstage/health/v1/readiness');
    const liveness = await fetch(`${baseUrl}/.backstage/health/v1/liveness`);
    check(liveness.ok, 'the backend answers /.backstage/health/v1/liveness');
    const page = await fetch(baseUrl);
    const html = await page.text();
    check(
      page.ok && (page.headers.get('content-type') ?? '').includes('text/html'),
      'the backend serves the app page as HTML',
    );
    check(
      html.includes('<div id="root">'),
      'the app page has the React root element',
    );
    const screenshot = await renderInChromium(baseUrl);
    check(true, `the page renders in Chromium (screenshot: ${screenshot})`);
  } catch (error) {
    console.error(`smoke test failed: ${(error as Error).message}`);
    console.error(
      `--- last lines of the backend's output ---\n${log.join('\n')}`,
    );
    process.exitCode = 1;
  } finally {
    await stopBackend(backend);
  }
  check(
    await fetch(baseUrl).then(
      () => false,
      () => true,
    ),
    'the backend has stopped',
  );
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
