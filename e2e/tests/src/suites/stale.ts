/**
 * Stale clusters look stale, in the browser, against the whole local system:
 * the `staging` control plane is stopped and its dashboard chip, card and
 * rows turn stale (red chip, "last seen N s ago", dimmed numbers and rows
 * with their age) within the backend's bound, while `dev` stays current; the
 * detail page of a staging deployment says its data is stale; staging is
 * started again and everything clears by itself, without a reload.
 */
import { KubeClient, type KubeObject } from '@runway-portal/controller-runtime';
import { MODEL_DEPLOYMENTS_RESOURCE as ModelDeployments } from '@runway-portal/plugin-runway-common';
import type { RunningSystem } from '@runway-portal/e2e-system';
import type { Page } from 'playwright-core';
import {
  openBrowser,
  portalDriver,
  screenshotFolder,
  UI_TIMEOUT_MS,
  type BrowserSession,
  type PortalDriver,
  watchSignalSubscriptions,
} from '../browser';

/** The suite's own set-up on the running system (objects, a browser, the first page). */
const SETUP_TIMEOUT_MS = 5 * 60_000;
/**
 * The backend's bound for a stopped cluster to be unreachable (a health
 * probe every 5 s with a 2 s timeout), plus the page's signal debounce and
 * rendering on a busy machine.
 */
const STALE_BOUND_MS = 7_000 + 5_000;
const NAMESPACE = 'default';

/** The stale suite, on the browser tests' shared system (`getSystem()`, started in browser.integration.test.ts). */
export function describeStale(getSystem: () => RunningSystem): void {
  describe('stale', () => {
    const screenshotDir = screenshotFolder('browser-stale');

    let system: RunningSystem;
    let PORTAL: string;
    let session: BrowserSession;
    let page: Page;
    let until: PortalDriver['until'];
    let open: PortalDriver['open'];
    let subscribedChannels: () => string[];

    const cluster = (name: string) => {
      const found = system.clusters.find(c => c.name === name);
      if (!found) throw new Error(`no local cluster ${name}`);
      return found;
    };

    const card = (name: string) => page.getByTestId(`cluster-card-${name}`);
    const attr = (name: string, attribute: string) =>
      card(name).getAttribute(attribute, { timeout: 2_000 });
    const row = (name: string) =>
      page.getByRole('row').filter({ hasText: name }).first();

    beforeAll(async () => {
      process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
      system = getSystem();
      PORTAL = system.portalUrl!;
      // One deployment per cluster, written with the Kubernetes API: rows to watch.
      for (const [name, target] of [
        ['dev-llama', 'dev'],
        ['staging-gemma', 'staging'],
      ]) {
        const client = new KubeClient(cluster(target).kubeConfig());
        try {
          await client.create(ModelDeployments, {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { name, namespace: NAMESPACE },
            spec: {
              model: {
                id: 'google/gemma-3-1b-it-qat-q8_0-gguf',
                source: 'huggingface',
              },
              engine: { type: 'llamacpp' },
              resources: { cpu: '4', memory: '8Gi' },
              image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
            },
          } as KubeObject);
        } finally {
          client.close();
        }
      }
      session = await openBrowser(screenshotDir);
      page = session.page;
      subscribedChannels = watchSignalSubscriptions(page);
      ({ until, open: open } = portalDriver(session, PORTAL));
      await open('/runway', () => card('staging').isVisible());
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      await session?.close();
      process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
    }, 120_000);

    it(
      "turns staging's chip, card and rows stale when it stops, and clears them by itself when it is back",
      async () => {
        await until(
          'both rows on the dashboard',
          async () =>
            (await row('dev-llama').isVisible()) &&
            (await row('staging-gemma').isVisible()),
        );
        await until(
          'staging to be current',
          async () => (await attr('staging', 'data-stale')) === 'false',
        );
        expect(await attr('staging', 'data-state')).not.toBe('unreachable');
        expect(
          await row('staging-gemma').getAttribute('data-stale'),
        ).toBeNull();
        await session.screenshot('stale-1-before');
        // The page's signal connection opens after its first load: wait for its subscription, as a
        // user's open page has had it (the backend signals the cluster's state change on it).
        await until(
          'the page to subscribe to the deployments signal',
          async () => subscribedChannels().includes('runway:deployments'),
        );

        await cluster('staging').stopControlPlane();
        const stoppedAt = Date.now();
        try {
          await until(
            "staging's card to turn unreachable and stale",
            async () =>
              (await attr('staging', 'data-state')) === 'unreachable' &&
              (await attr('staging', 'data-stale')) === 'true',
            STALE_BOUND_MS + 60_000,
          );
          const tookMs = Date.now() - stoppedAt;
          process.stdout.write(`staging shown stale after ${tookMs} ms\n`);
          expect(tookMs).toBeLessThan(STALE_BOUND_MS);
          const chip = page.getByTestId('cluster-state-staging');
          expect(await chip.innerText()).toBe('unreachable');
          expect(await chip.getAttribute('class')).toContain(
            'MuiChip-colorError',
          );
          expect(
            await page.getByTestId('cluster-last-seen-staging').innerText(),
          ).toMatch(/^Last seen \d+ s ago\.$/);
          const numbers = page.getByLabel(
            'last known numbers of cluster staging',
          );
          expect(await numbers.innerText()).toMatch(/Stale: as of \d+ s ago/);
          expect(await numbers.innerText()).toMatch(
            /Providers ready: \d+\/\d+/,
          );
          await until('the staging row to be stale, with its age', async () =>
            /stale \d+s/.test(
              await row('staging-gemma').getByTestId('stale-badge').innerText(),
            ),
          );
          expect(await row('staging-gemma').getAttribute('data-stale')).toBe(
            'true',
          );
          // dev is untouched.
          expect(await attr('dev', 'data-stale')).toBe('false');
          expect(await attr('dev', 'data-state')).not.toBe('unreachable');
          expect(await row('dev-llama').getAttribute('data-stale')).toBeNull();
          await session.screenshot('stale-2-staging-unreachable');

          // The resource page says it too.
          await row('staging-gemma').getByRole('link').first().click();
          await page.waitForURL(/\/runway\/deployments\/staging\//, {
            timeout: UI_TIMEOUT_MS,
          });
          const notice = page.getByTestId('stale-notice');
          await until('the detail page to say its data is stale', async () =>
            /Stale: cluster staging is unreachable/.test(
              await notice.innerText(),
            ),
          );
          await session.screenshot('stale-3-detail-stale');
          await page.goBack({ timeout: UI_TIMEOUT_MS });
          await until('the dashboard again', () => card('staging').isVisible());
        } finally {
          await cluster('staging').startControlPlane();
        }
        const startedAt = Date.now();
        // No reload: the page clears by itself.
        await until(
          'staging to be current again',
          async () =>
            (await attr('staging', 'data-stale')) === 'false' &&
            (await attr('staging', 'data-state')) !== 'unreachable' &&
            (await row('staging-gemma').getAttribute('data-stale')) === null,
          180_000,
        );
        process.stdout.write(
          `staging current again ${
            Date.now() - startedAt
          } ms after its start\n`,
        );
        expect(await page.getByTestId('stale-badge').count()).toBe(0);
        await session.screenshot('stale-4-staging-back');
      },
      10 * 60_000,
    );
  });
}
