/**
 * Models and stacks in the browser, against the whole local system (one
 * cluster, the core, providers, simulators, the model and stack operators,
 * the hub stand-in, Backstage), sharing one system to keep CI short.
 *
 * Models: add a Model from the portal (hub search with the GPU-fit check),
 * watch it download with live progress and become Ready, offer it to the
 * deployment wizard as a cached model, delete it.
 *
 * Stacks: with a Ready
 * deployment (written through the Kubernetes API), create a stack from the
 * portal that uses it through "use a running deployment", watch it become
 * Ready (the stack operator's phase once its Deployment is Available: kwok
 * runs the pods), read its generated config.yaml on the detail page, delete it.
 */
import {
  KubeClient,
  isNotFound,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
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
} from '../browser';

/** The suite's own set-up on the running system (objects, a browser, the first page). */
const SETUP_TIMEOUT_MS = 5 * 60_000;
const NAMESPACE = 'default';
const DEPLOYMENT = 'stack-model';
const STACK = 'e2e-stack';
const MODEL = 'e2e-tiny';
/** The hub stand-in's demo model (e2e/simulators' DEMO_MODEL_REPO, 16 MiB). */
const DEMO_REPO = 'runway-demo/tiny-model';
/** Slow enough (16 s for the demo model) that the page shows the download in progress. */
export const HUB_BYTES_PER_SECOND = 1024 * 1024;

const Models: ResourceType = {
  group: 'models.airunway.ai',
  version: 'v1alpha1',
  kind: 'Model',
  plural: 'models',
  namespaced: true,
};
const Stacks: ResourceType = {
  group: 'llamastack.io',
  version: 'v1alpha2',
  kind: 'LlamaStackDistribution',
  plural: 'llamastackdistributions',
  namespaced: true,
};

/** The models-stacks suite, on the browser tests' shared system (`getSystem()`, started in browser.integration.test.ts). */
export function describeModelsStacks(getSystem: () => RunningSystem): void {
  describe('models-stacks', () => {
    const screenshotDir = screenshotFolder('browser-models-stacks');

    let system: RunningSystem;
    let PORTAL: string;
    let session: BrowserSession;
    let page: Page;
    let until: PortalDriver['until'];
    let open: PortalDriver['open'];

    const kube = () => {
      const dev = system.clusters.find(c => c.name === 'dev');
      if (!dev) throw new Error('no local cluster dev');
      return new KubeClient(dev.kubeConfig());
    };

    /** Deletes what the open detail page shows, through its Delete dialog, until the cluster and the page say it is gone. */
    const deleteFromDetailPage = async (
      client: KubeClient,
      label: 'model' | 'stack',
      rt: ResourceType,
      name: string,
    ) => {
      await page.getByRole('button', { name: 'Delete' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
      await session.screenshot(`${label}-delete-confirm`);
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await until(
        `the ${label} to be gone from the cluster`,
        async () => {
          try {
            await client.get(rt, { namespace: NAMESPACE, name });
            return false;
          } catch (err) {
            return isNotFound(err);
          }
        },
        2 * 60_000,
      );
      await until('the page to say it is deleted', () =>
        page.getByText(/is deleted from cluster dev/).isVisible(),
      );
      await session.screenshot(`${label}-deleted`);
    };

    beforeAll(async () => {
      process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
      system = getSystem();
      PORTAL = system.portalUrl!;
      session = await openBrowser(screenshotDir);
      page = session.page;
      ({ until, open: open } = portalDriver(session, PORTAL));
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      await session?.close();
      process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
    }, 120_000);

    /** The target from a change in the cluster to the browser showing it (printed, not asserted: a benchmark number). */
    const CHANGE_VISIBLE_TARGET_MS = 2_000;
    /** What the test asserts: the page updates by itself (signals, or the detail page's 5 s polling at worst). */
    const CHANGE_VISIBLE_MAX_MS = 10_000;

    /**
     * Polls the cluster and the page every 100 ms until the page shows what the
     * cluster has; returns the milliseconds between the cluster having it and
     * the page showing it (0 when the page showed it in the same poll).
     */
    async function changeToPage(
      inCluster: () => Promise<boolean>,
      onPage: () => Promise<boolean>,
      timeoutMs: number,
    ): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      let clusterAt: number | undefined;
      for (;;) {
        const [cluster, shown] = await Promise.all([
          clusterAt === undefined ? inCluster().catch(() => false) : true,
          onPage().catch(() => false),
        ]);
        const now = Date.now();
        if (cluster && clusterAt === undefined) clusterAt = now;
        if (shown) return now - (clusterAt ?? now);
        if (now > deadline) {
          const shot = await session.screenshot('timeout-change-to-page');
          throw new Error(
            `timed out after ${timeoutMs} ms waiting for the page to show the change; screenshot ${shot}`,
          );
        }
        await new Promise(r => setTimeout(r, 100));
      }
    }

    /** Picks the cluster `dev` and the namespace in the first step of a form. */
    async function chooseDevAndNamespace() {
      await page
        .getByRole('combobox', { name: 'Cluster' })
        .click({ timeout: UI_TIMEOUT_MS });
      await page.getByRole('option', { name: /^dev/ }).click();
      const namespace = page.getByRole('combobox', { name: 'Namespace' });
      if (await namespace.isVisible()) {
        await namespace.click();
        await page
          .getByRole('option', { name: NAMESPACE, exact: true })
          .click();
      } else {
        await page.getByLabel('Namespace', { exact: true }).fill(NAMESPACE);
      }
    }

    it(
      'adds a Model from the portal; it downloads with live progress and becomes Ready; the wizard offers it as a cached model; delete removes it',
      async () => {
        const client = kube();
        try {
          const modelsTab = page.getByRole('tab', { name: /^Models \(/ });
          await open('/runway?kind=models', () => modelsTab.isVisible());
          await until('the empty Models tab', () =>
            page.getByText(/No models yet/).isVisible(),
          );
          await session.screenshot('models-dashboard-empty');

          const form = page.getByRole('form', { name: 'Add a model' });
          await page.getByRole('link', { name: 'Add a model' }).first().click();
          await until('the model form', () => form.isVisible());
          await chooseDevAndNamespace();
          await page.getByLabel('Model name').fill(MODEL);
          await session.screenshot('model-form-1-where');
          await page.getByRole('button', { name: 'Next' }).click();

          // The hub search goes through the backend to HF_ENDPOINT: the local hub stand-in.
          const search = page.getByRole('combobox', {
            name: 'Search the Hugging Face Hub',
          });
          await search.fill('tiny');
          const result = page.getByRole('option', {
            name: new RegExp(DEMO_REPO),
          });
          await until('the hub search to find the demo model', () =>
            result.isVisible(),
          );
          expect(await result.innerText()).toMatch(/license apache-2\.0/);
          await session.screenshot('model-form-2-hub-search');
          await result.click();
          expect(
            await page.getByLabel('Repository', { exact: true }).inputValue(),
          ).toBe(DEMO_REPO);
          const fit = page.getByLabel('GPU fit');
          await until('the GPU-fit check', () => fit.isVisible());
          expect(await fit.innerText()).toContain(DEMO_REPO);
          await session.screenshot('model-form-2-source');
          await page.getByRole('button', { name: 'Next' }).click();

          // The local clusters have no StorageClass to suggest: the field takes a typed name.
          await page
            .getByLabel('Storage class', { exact: true })
            .fill('standard');
          await page.getByLabel('Size', { exact: true }).fill('1Gi');
          await session.screenshot('model-form-3-storage');
          await page.getByRole('button', { name: 'Next' }).click();
          await until('the dry-run preview of the Model', () =>
            page.getByText(/Objects written to cluster dev/).isVisible(),
          );
          expect(await page.innerText('body')).toContain(
            `repoId: ${DEMO_REPO}`,
          );
          await session.screenshot('model-form-4-review');
          await page
            .getByRole('button', { name: 'Create', exact: true })
            .click();

          await page.waitForURL(
            new RegExp(`/runway/models/dev/${NAMESPACE}/${MODEL}$`),
            { timeout: UI_TIMEOUT_MS },
          );
          // Live progress: a percent between 0 and 100 with bytes, speed and time left.
          const progress = page.getByLabel('download progress');
          let seen = '';
          await until(
            'the page to show the download in progress',
            async () => {
              if (!(await progress.isVisible())) return false;
              seen = await progress.innerText();
              const percent = Number(/(\d+)%/.exec(seen)?.[1] ?? 'NaN');
              return percent > 0 && percent < 100;
            },
            3 * 60_000,
          );
          expect(seen).toMatch(/MiB/);
          await session.screenshot('model-detail-downloading');
          // Change in cluster -> visible in the browser (the issue sets a 2 s target, printed),
          // from the moment the API server has the model Ready to the page saying so.
          const lag = await changeToPage(
            async () =>
              (
                await client.get<KubeObject & { status?: { phase?: string } }>(
                  Models,
                  { namespace: NAMESPACE, name: MODEL },
                )
              ).status?.phase === 'Ready',
            () => page.getByLabel('phase Ready').isVisible(),
            3 * 60_000,
          );
          process.stdout.write(
            `bench: model Ready: in the cluster -> on the detail page in ${lag} ms (${(
              lag / CHANGE_VISIBLE_TARGET_MS
            ).toFixed(2)}x the ${CHANGE_VISIBLE_TARGET_MS} ms target)\n`,
          );
          expect(lag).toBeLessThanOrEqual(CHANGE_VISIBLE_MAX_MS);
          await until('the progress to reach 100%', async () =>
            (await progress.innerText()).includes('100%'),
          );
          const body = await page.innerText('body');
          expect(body).toContain(`model-${MODEL}`); // the PVC
          expect(body).toContain(DEMO_REPO);
          await session.screenshot('model-detail-ready');

          // The deployment wizard offers the Ready model as a cached model.
          await open('/runway/deploy', () =>
            page.getByRole('combobox', { name: 'Cluster' }).isVisible(),
          );
          await chooseDevAndNamespace();
          await page.getByLabel('Deployment name').fill('cached-tiny');
          await page.getByRole('button', { name: 'Next' }).click();
          const cached = page.getByRole('combobox', {
            name: 'Use a cached model',
          });
          await until('the cached models to load', async () =>
            (
              await page.innerText('body')
            ).includes(`1 Model(s) in ${NAMESPACE}`),
          );
          await cached.click();
          await page
            .getByRole('option', { name: new RegExp(`^${MODEL} \\(`) })
            .click();
          await until('the model ID to point at the cached files', async () =>
            (await page.getByLabel('Model ID').inputValue()).includes(MODEL),
          );
          // Let the select's menu finish its closing transition before the screenshot.
          await page.waitForTimeout(1_000);
          await session.screenshot('wizard-cached-model');

          const tab = page.getByRole('tab', { name: /^Models \(1\)/ });
          await open('/runway?kind=models', () => tab.isVisible());
          const row = page.getByRole('row').filter({ hasText: MODEL }).first();
          await until('the dashboard row to show Ready', async () =>
            (await row.innerText()).includes('Ready'),
          );
          await session.screenshot('models-dashboard-ready');

          await open(`/runway/models/dev/${NAMESPACE}/${MODEL}`, () =>
            page.getByLabel('phase Ready').isVisible(),
          );
          await deleteFromDetailPage(client, 'model', Models, MODEL);
        } finally {
          client.close();
        }
      },
      15 * 60_000,
    );

    it(
      'creates a stack on a running deployment from the portal; it becomes Ready; its detail shows the generated config; delete removes it',
      async () => {
        const client = kube();
        try {
          await client.create(ModelDeployments, {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { name: DEPLOYMENT, namespace: NAMESPACE },
            spec: {
              model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' },
              resources: { gpu: { count: 1 } },
            },
          } as KubeObject);
          await until(
            'the deployment to be Running',
            async () =>
              (
                await client.get<KubeObject & { status?: { phase?: string } }>(
                  ModelDeployments,
                  { namespace: NAMESPACE, name: DEPLOYMENT },
                )
              ).status?.phase === 'Running',
            5 * 60_000,
          );

          const form = page.getByRole('form', { name: 'Create a stack' });
          await open('/runway/stacks/new', () => form.isVisible());
          await page.getByRole('combobox', { name: 'Cluster' }).click();
          await page.getByRole('option', { name: 'dev (local)' }).click();
          const namespace = page.getByRole('combobox', { name: 'Namespace' });
          if (await namespace.isVisible()) {
            await namespace.click();
            await page.getByRole('option', { name: NAMESPACE }).click();
          } else {
            await page.getByLabel('Namespace', { exact: true }).fill(NAMESPACE);
          }
          await page.getByLabel('Stack name').fill(STACK);

          const picker = page.getByRole('combobox', {
            name: 'Inference provider 1: use a running deployment',
          });
          await until(
            'the picker to offer the running deployment',
            async () => (await picker.getAttribute('aria-disabled')) !== 'true',
          );
          await picker.click();
          await page
            .getByRole('option', {
              name: new RegExp(`${NAMESPACE}/${DEPLOYMENT}`),
            })
            .click();
          const endpoint = page.getByLabel('Inference provider 1 endpoint');
          await until(
            'the endpoint to be filled from the deployment',
            async () => /^http:\/\/.+\/v1$/.test(await endpoint.inputValue()),
          );
          const url = await endpoint.inputValue();
          expect(await page.getByLabel('Model 1 name').inputValue()).toBe(
            'Qwen3-0.6B',
          );
          await session.screenshot('stack-form');

          await page
            .getByRole('button', { name: 'Review', exact: true })
            .click();
          const config = page.getByLabel('config.yaml', { exact: true });
          await until('the preview to show the generated config.yaml', () =>
            config.isVisible(),
          );
          const previewed = await config.innerText();
          expect(previewed).toContain('provider_type: remote::vllm');
          expect(previewed).toContain(url);
          await session.screenshot('stack-preview');
          await page
            .getByRole('button', { name: 'Create', exact: true })
            .click();

          await page.waitForURL(
            new RegExp(`/runway/stacks/dev/${NAMESPACE}/${STACK}`),
            { timeout: UI_TIMEOUT_MS },
          );
          await until(
            'the stack to become Ready',
            () => page.getByLabel('phase Ready').isVisible(),
            5 * 60_000,
          );
          // The deployments it uses come from a second request, which may answer after the stack's own.
          await until('the detail to link the deployment it uses', async () =>
            (
              await page.innerText('body')
            ).includes(`${NAMESPACE}/${DEPLOYMENT}`),
          );
          expect(await page.innerText('body')).toContain(
            'docker.io/llamastack/distribution-starter',
          );
          await session.screenshot('stack-detail-ready');

          // The config the server runs, from the operator's ConfigMap.
          await page.getByRole('tab', { name: /config\.yaml/ }).click();
          const running = page
            .getByRole('region', { name: 'Generated config.yaml' })
            .getByLabel('config.yaml', { exact: true });
          await until('the generated config.yaml', () => running.isVisible());
          expect(await running.innerText()).toContain('remote::vllm');
          await session.screenshot('stack-detail-config');
          await page.getByRole('tab', { name: /Conditions/ }).click();
          await until('the conditions', () =>
            page.getByText('ConfigGenerated').first().isVisible(),
          );
          await session.screenshot('stack-detail-conditions');

          await deleteFromDetailPage(client, 'stack', Stacks, STACK);
        } finally {
          client.close();
        }
      },
      15 * 60_000,
    );
  });
}
