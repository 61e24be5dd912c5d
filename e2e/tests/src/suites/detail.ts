/**
 * The detail view an operator works from, against the whole local system
 * (one cluster, controllers, simulators, Backstage) in headless Chromium on
 * a 1280×800 screen: open a deployment, read its overview, follow its pod's
 * log (the simulators' model server pod, its log served through the API
 * server by a kubelet log stand-in), try it (a chat answered by the OpenAI
 * API simulator through the API server's service proxy), scale it, pause
 * it, delete it. Prints
 * the time to the first log line on screen and how late followed lines
 * arrive (numbers, not assertions).
 */
import {
  KubeClient,
  isNotFound,
  type KubeObject,
} from '@runway-portal/controller-runtime';
import { MODEL_DEPLOYMENTS_RESOURCE as ModelDeployments } from '@runway-portal/plugin-runway-common';
import type { RunningSystem } from '@runway-portal/e2e-system';
import type { Page, Request } from 'playwright-core';
import {
  openBrowser,
  portalDriver,
  screenshotFolder,
  UI_TIMEOUT_MS,
  type BrowserSession,
  type PortalDriver,
} from '../browser';

/** The suite's own set-up on the running system (objects, a browser, the first page). */
const SETUP_TIMEOUT_MS = 5 * 60_000;
const NAMESPACE = 'default';
const NAME = 'detail-qwen';
const DETAIL = `/runway/deployments/dev/${NAMESPACE}/${NAME}`;

type Md = KubeObject & {
  spec?: { scaling?: { replicas?: number } };
  metadata?: KubeObject['metadata'] & { annotations?: Record<string, string> };
};

/** The detail suite, on the browser tests' shared system (`getSystem()`, started in browser.integration.test.ts). */
export function describeDetail(getSystem: () => RunningSystem): void {
  describe('detail', () => {
    const screenshotDir = screenshotFolder('browser-detail');

    let system: RunningSystem;
    let PORTAL: string;
    let session: BrowserSession;
    let page: Page;
    let client: KubeClient;

    let until: PortalDriver['until'];
    let open: PortalDriver['open'];

    const read = () =>
      client.get<Md>(ModelDeployments, { namespace: NAMESPACE, name: NAME });

    beforeAll(async () => {
      process.stdout.write(`detail screenshots: ${screenshotDir}\n`);
      system = getSystem();
      PORTAL = system.portalUrl!;
      client = new KubeClient(system.clusters[0].kubeConfig());
      // As the portal's wizard writes it (server-side apply as runway-portal): the detail page's
      // actions then own what they change (a kubectl-made one answers Scale with a field conflict).
      await client.apply(
        ModelDeployments,
        {
          apiVersion: 'airunway.ai/v1alpha1',
          kind: 'ModelDeployment',
          metadata: { name: NAME, namespace: NAMESPACE },
          spec: {
            model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
            engine: { type: 'vllm' },
            resources: { gpu: { count: 1 } },
          },
        } as KubeObject,
        { fieldManager: 'runway-portal' },
      );
      session = await openBrowser(screenshotDir);
      page = session.page;
      ({ until, open } = portalDriver(session, PORTAL));
      await page.setViewportSize({ width: 1280, height: 800 });
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      client?.close();
      await session?.close();
      process.stdout.write(`detail screenshots: ${screenshotDir}\n`);
    }, 120_000);

    it(
      'opens a deployment: the overview (phase, replicas, engine and provider with reasons, endpoint) fits on 1280×800',
      async () => {
        const phase = page.getByLabel('phase Running');
        await open(DETAIL, () => phase.isVisible());
        const overview = page.getByRole('region', { name: 'Overview' });
        await until('the overview to show the provider', async () =>
          /Provider\s*dynamo/i.test(await overview.innerText()),
        );
        const text = await overview.innerText();
        expect(text).toMatch(/Replicas\s*1 ready \/ 1 desired/);
        expect(text).toMatch(/Engine\s*vllm — /);
        expect(text).toMatch(/Endpoint\s*http:\/\//);
        expect(await page.getByLabel('phase meaning').innerText()).toBe(
          'The model server is serving requests.',
        );
        const box = await overview.boundingBox();
        expect(box!.y + box!.height).toBeLessThanOrEqual(800);
        await session.screenshot('detail-overview');
      },
      5 * 60_000,
    );

    it(
      "follows the model server pod's log",
      async () => {
        const opened = Date.now();
        // When each request of the tab is sent and answered (ms after the click), for the numbers below.
        const requests: string[] = [];
        const since = (t: number) => `${t - opened} ms`;
        const short = (url: string) => url.replace(/^.*?\/api\//, '/api/');
        const onRequest = (r: Request) => {
          if (!/\/api\/(runway|permission)\//.test(r.url())) return;
          const sent = Date.now();
          r.response().then(
            res =>
              requests.push(
                `${r.method()} ${short(r.url())}: sent ${since(
                  sent,
                )}, answered ${since(Date.now())}${
                  res?.headers()['server-timing']
                    ? ` (Server-Timing ${res.headers()['server-timing']})`
                    : ''
                }`,
              ),
            () => {},
          );
        };
        page.on('request', onRequest);
        await page.getByRole('tab', { name: 'Logs' }).click();
        // Timed in the page, at the first frame that shows the line (not at the test's next poll).
        const shownAt = page.waitForFunction(
          () =>
            document
              .querySelector('[aria-label="log lines"]')
              ?.textContent?.includes('simulated model server') && Date.now(),
          undefined,
          { polling: 'raf', timeout: UI_TIMEOUT_MS },
        );
        // The model server pod comes first (the endpoint picker's pod, on a kwok node, has no log here).
        const picker = page.getByRole('combobox', { name: 'Pod' });
        await until('the model server pod in the picker', async () =>
          (await picker.innerText()).includes(`${NAME}-model-0`),
        );
        const log = page.getByLabel('log lines');
        const firstLineMs =
          ((await (await shownAt).jsonValue()) as number) - opened;
        page.off('request', onRequest);
        // Record in the page when each followed line appears (the stand-in stamps each with its write time).
        await page.evaluate(() => {
          const pre = document.querySelector('[aria-label="log lines"]')!;
          const seen: Array<{ line: string; at: number }> = [];
          (window as any).runwaySeen = seen;
          new MutationObserver(() => {
            const lines = (pre.textContent ?? '').split('\n');
            const last = lines[lines.length - 1];
            if (last && !seen.some(s => s.line === last))
              seen.push({ line: last, at: Date.now() });
          }).observe(pre, {
            childList: true,
            subtree: true,
            characterData: true,
          });
        });
        await until('three followed lines', async () =>
          (await log.innerText()).includes('(request 3)'),
        );
        const seen: Array<{ line: string; at: number }> = await page.evaluate(
          () => (window as any).runwaySeen,
        );
        const lates = seen
          .filter(s => s.line.includes('(request '))
          .map(s => s.at - Date.parse(s.line.split(' ')[0]))
          .sort((a, b) => a - b);
        expect(lates.length).toBeGreaterThan(0);
        process.stdout.write(
          [
            `bench: first log line on screen ${firstLineMs} ms after opening the Logs tab`,
            `bench: followed line latency (written → on screen) median ${
              lates[Math.floor(lates.length / 2)]
            } ms, max ${lates[lates.length - 1]} ms over ${lates.length} lines`,
            ...requests.map(r => `bench:   ${r}`),
            '',
          ].join('\n'),
        );
        await session.screenshot('detail-logs-following');
      },
      3 * 60_000,
    );

    it(
      'tries it: a prompt sent through the backend and the service proxy, the answer streaming in',
      async () => {
        await page.getByRole('tab', { name: 'Try it' }).click();
        const prompt = page.getByLabel('Prompt');
        await until('the prompt box', () => prompt.isVisible());
        await prompt.fill('Hello from the browser test');
        const sent = Date.now();
        await page.getByRole('button', { name: 'Send' }).click();
        // The model-server-pods simulator's OpenAI API simulator answers on the deployment's Service.
        const answer = page.getByLabel('answer');
        const failed = page.getByText('The model did not answer');
        let firstTextMs = 0;
        let retried = false;
        await until('the first words of the answer', async () => {
          // The page's own advice on a broken stream is "send again to retry": a user would, and so does
          // the test, once (a CI run saw the service proxy's stream end with "aborted"; not reproduced).
          if (!retried && (await failed.isVisible())) {
            retried = true;
            process.stdout.write(
              `Try it: first send failed (${await failed
                .locator('..')
                .innerText()}); sending again\n`,
            );
            await page.getByRole('button', { name: 'Send' }).click();
          }
          const ok = (await answer.innerText()).length > 0;
          if (ok && !firstTextMs) firstTextMs = Date.now() - sent;
          return ok;
        });
        await until('the whole answer', async () =>
          (
            await answer.innerText()
          ).includes('You said: "Hello from the browser test".'),
        );
        const wholeMs = Date.now() - sent;
        expect(await answer.innerText()).toMatch(
          /^This is a simulated answer from \S+ \(e2e\/simulators, an OpenAI API simulator, not a model\)/,
        );
        await until('Send to be enabled again', () =>
          page.getByRole('button', { name: 'Send' }).isEnabled(),
        );
        process.stdout.write(
          `bench: Try it: first words on screen ${firstTextMs} ms after Send, whole answer ${wholeMs} ms\n`,
        );
        await session.screenshot('detail-try-it');
      },
      3 * 60_000,
    );

    it(
      'scales it to 2 and pauses it, each after a confirmation',
      async () => {
        await page.getByRole('button', { name: 'Scale' }).click();
        const scale = page.getByRole('dialog', { name: `Scale ${NAME}` });
        await scale.getByLabel('Replicas').fill('2');
        await session.screenshot('detail-scale-dialog');
        await scale.getByRole('button', { name: 'Scale' }).click();
        await until(
          'spec.scaling.replicas to be 2',
          async () => (await read()).spec?.scaling?.replicas === 2,
        );
        const overview = page.getByRole('region', { name: 'Overview' });
        await until('the overview to show 2 desired', async () =>
          /\/ 2 desired/.test(await overview.innerText()),
        );
        await session.screenshot('detail-scaled');

        await page.getByRole('button', { name: 'Pause' }).click();
        const pause = page.getByRole('dialog', { name: `Pause ${NAME}?` });
        await pause.getByRole('button', { name: 'Pause' }).click();
        await until(
          'the pause annotation',
          async () =>
            (
              await read()
            ).metadata?.annotations?.['airunway.ai/reconcile-paused'] ===
            'true',
        );
        await page
          .getByRole('button', { name: 'Resume' })
          .waitFor({ timeout: UI_TIMEOUT_MS });
        await session.screenshot('detail-paused');
      },
      3 * 60_000,
    );

    it(
      'deletes it: Terminating with the finalizers left, then gone',
      async () => {
        await page.getByRole('button', { name: 'Delete' }).click();
        const dialog = page.getByRole('dialog', { name: `Delete ${NAME}?` });
        await session.screenshot('detail-delete-confirm');
        await dialog.getByRole('button', { name: 'Delete' }).click();
        const gone = page.getByText(/is deleted from cluster dev/);
        const terminating = page.getByLabel('phase Terminating');
        await until(
          'Terminating or gone',
          async () => (await terminating.isVisible()) || gone.isVisible(),
        );
        if (await terminating.isVisible())
          await session.screenshot('detail-terminating');
        await until(
          'the ModelDeployment to be deleted',
          async () => {
            try {
              await read();
              return false;
            } catch (err) {
              return isNotFound(err);
            }
          },
          120_000,
        );
        await until('the page to say it is deleted', () => gone.isVisible());
        await session.screenshot('detail-deleted');
      },
      4 * 60_000,
    );
  });
}
