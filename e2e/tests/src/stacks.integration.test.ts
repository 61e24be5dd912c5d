/**
 * Stacks in the browser, against the whole local system (one cluster, the
 * core, providers, simulators, the stack operator, Backstage): with a Ready
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
import {
  REPO_ROOT,
  startSystem,
  type RunningSystem,
} from '@runway-portal/e2e-system';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser, type BrowserSession } from './browser';

const START_TIMEOUT_MS = 30 * 60_000;
const UI_TIMEOUT_MS = 90_000;
const NAMESPACE = 'default';
const DEPLOYMENT = 'stack-model';
const STACK = 'e2e-stack';

const ModelDeployments: ResourceType = {
  group: 'airunway.ai',
  version: 'v1alpha1',
  kind: 'ModelDeployment',
  plural: 'modeldeployments',
  namespaced: true,
};
const Stacks: ResourceType = {
  group: 'llamastack.io',
  version: 'v1alpha2',
  kind: 'LlamaStackDistribution',
  plural: 'llamastackdistributions',
  namespaced: true,
};

const screenshotDir = join(
  REPO_ROOT,
  'test-output',
  'browser-stacks',
  new Date().toISOString().replace(/[:.]/g, '-'),
);
const stateDir = mkdtempSync(join(tmpdir(), 'runway-stacks-system-'));

let system: RunningSystem;
let PORTAL: string;
let session: BrowserSession;
let page: Page;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const kube = () => {
  const dev = system.clusters.find(c => c.name === 'dev');
  if (!dev) throw new Error('no local cluster dev');
  return new KubeClient(dev.kubeConfig());
};

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
    await new Promise(r => setTimeout(r, 500));
  }
}

/** Goes to a portal path, entering as the guest when the app asks; `ready` says the page is there. */
async function open(path: string, ready: () => Promise<boolean>) {
  await page.goto(`${PORTAL}${path}`, { timeout: UI_TIMEOUT_MS });
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

beforeAll(async () => {
  process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
  system = await startSystem({
    clusters: ['dev'],
    backstage: true,
    stepDelayMs: 1000,
    ports: { app: await freePort(), backend: await freePort() },
    stateDir,
    honourLocalConfig: false,
    log: () => {},
  });
  PORTAL = system.portalUrl!;
  session = await openBrowser(screenshotDir);
  page = session.page;
}, START_TIMEOUT_MS);

afterAll(async () => {
  await session?.close();
  await system?.stop();
  rmSync(stateDir, { recursive: true, force: true });
  process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
}, 120_000);

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
        .getByRole('option', { name: new RegExp(`${NAMESPACE}/${DEPLOYMENT}`) })
        .click();
      const endpoint = page.getByLabel('Inference provider 1 endpoint');
      await until('the endpoint to be filled from the deployment', async () =>
        /^http:\/\/.+\/v1$/.test(await endpoint.inputValue()),
      );
      const url = await endpoint.inputValue();
      expect(await page.getByLabel('Model 1 name').inputValue()).toBe(
        'Qwen3-0.6B',
      );
      await session.screenshot('stack-form');

      await page.getByRole('button', { name: 'Review', exact: true }).click();
      const config = page.getByLabel('config.yaml', { exact: true });
      await until('the preview to show the generated config.yaml', () =>
        config.isVisible(),
      );
      const previewed = await config.innerText();
      expect(previewed).toContain('provider_type: remote::vllm');
      expect(previewed).toContain(url);
      await session.screenshot('stack-preview');
      await page.getByRole('button', { name: 'Create', exact: true }).click();

      await page.waitForURL(
        new RegExp(`/runway/stacks/dev/${NAMESPACE}/${STACK}`),
        { timeout: UI_TIMEOUT_MS },
      );
      await until(
        'the stack to become Ready',
        () => page.getByLabel('phase Ready').isVisible(),
        5 * 60_000,
      );
      const body = await page.innerText('body');
      expect(body).toContain('docker.io/llamastack/distribution-starter');
      expect(body).toContain(`${NAMESPACE}/${DEPLOYMENT}`);
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

      await page.getByRole('button', { name: 'Delete' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
      await session.screenshot('stack-delete-confirm');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await until(
        'the stack to be gone from the cluster',
        async () => {
          try {
            await client.get(Stacks, { namespace: NAMESPACE, name: STACK });
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
      await session.screenshot('stack-deleted');
    } finally {
      client.close();
    }
  },
  15 * 60_000,
);
