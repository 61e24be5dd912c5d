/**
 * Drives the running portal in headless Chromium: opens the dashboard,
 * deploys a model through the wizard, and screenshots every stage, so a
 * person can check what the pages really show.
 *
 *   PORTAL_URL=http://localhost:3000 OUT=/tmp/runway-shots yarn screenshots
 *
 * Needs the portal running (scripts/start) with clusters configured.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

const url = process.env.PORTAL_URL ?? 'http://localhost:3000';
const out = process.env.OUT ?? '/tmp/runway-shots';
const cluster = process.env.CLUSTER_TITLE ?? 'East (GPU)';
const name = process.env.DEPLOYMENT_NAME ?? `phi-${Date.now().toString(36)}`;
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function shot(page: Page, file: string) {
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(out, file), fullPage: true });
  console.log(`wrote ${join(out, file)}`);
}

async function signIn(page: Page) {
  // The local portal signs in as a guest; a page that is already signed in has no such button.
  const guest = page.getByRole('button', { name: 'Enter' });
  const shown = await guest.waitFor({ timeout: 30_000 }).then(
    () => true,
    () => false,
  );
  if (shown) await guest.click();
}

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

async function main() {
  mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: FLAGS,
  });
  try {
    const page = await browser.newPage({
      viewport: { width: 1440, height: 1000 },
    });
    await page.goto(`${url}/runway`);
    await signIn(page);
    await page
      .getByRole('heading', { name: 'Deployments' })
      .waitFor({ timeout: 60_000 });
    await page.waitForTimeout(2000);
    await shot(page, '1-dashboard-before.png');

    await page.getByRole('link', { name: 'Deploy a model' }).first().click();
    await choose(page, 'Cluster', cluster);
    await page.getByLabel('Deployment name').fill(name);
    await shot(page, '2-wizard-target.png');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Model ID').fill('microsoft/Phi-3-mini-4k-instruct');
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByRole('status', { name: 'engine and provider selection' })
      .waitFor();
    await shot(page, '3-wizard-selection.png');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('GPUs per replica').fill('1');
    await shot(page, '4-wizard-resources.png');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByText(/Objects written to cluster|The cluster rejected the preview/)
      .waitFor({ timeout: 30_000 });
    await shot(page, '5-wizard-review.png');
    await page.getByRole('button', { name: 'Create' }).click();
    await page
      .getByRole('heading', { name, exact: true, level: 1 })
      .waitFor({ timeout: 30_000 });
    await page.waitForTimeout(5000);
    await page.reload();
    await page
      .getByRole('heading', { name, exact: true, level: 1 })
      .waitFor({ timeout: 30_000 });
    await shot(page, '6-detail.png');

    await page.goto(`${url}/runway`);
    await page.getByRole('link', { name }).waitFor({ timeout: 30_000 });
    await shot(page, '7-dashboard-after.png');

    // Editing an identity field: warned as you type, confirmed on review (not saved here).
    await page.getByRole('link', { name }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Model ID').fill('Qwen/Qwen2.5-7B-Instruct');
    await page.getByText(/deletes and recreates/).waitFor();
    await shot(page, '7a-edit-identity-warning.png');
    for (let i = 0; i < 4; i++)
      await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByText('This change recreates the deployment')
      .waitFor({ timeout: 30_000 });
    await shot(page, '7b-edit-review.png');

    await page.goto(`${url}/catalog/default/component/chatbot/runway`);
    await page
      .getByText('Resources labelled')
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    await shot(page, '8-entity-tab.png');

    // From the entity tab: a CPU-only deployment in another cluster, labelled for the entity.
    const entityDeployment = `${name}-cpu`;
    await page.getByRole('link', { name: 'Deploy a model' }).click();
    await choose(page, 'Cluster', process.env.SECOND_CLUSTER_TITLE ?? 'West');
    await page.getByLabel('Deployment name').fill(entityDeployment);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Model ID').fill('Qwen/Qwen2.5-0.5B-Instruct');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('GPUs per replica').fill('0');
    await page.getByRole('button', { name: 'Next' }).click();
    // KAITO has no default llama.cpp image: name one (its controller says so otherwise).
    await page
      .getByLabel('Container image')
      .fill('ghcr.io/sozercan/llama-cpp-runner:latest');
    await shot(page, '9-wizard-advanced-entity-label.png');
    await page.getByRole('button', { name: 'Next' }).click();
    await page
      .getByText(/Objects written to cluster/)
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Create' }).click();
    await page
      .getByRole('heading', { name: entityDeployment, exact: true, level: 1 })
      .waitFor({ timeout: 30_000 });
    await page.goto(`${url}/catalog/default/component/chatbot/runway`);
    await page
      .getByRole('link', { name: entityDeployment })
      .waitFor({ timeout: 30_000 });
    await shot(page, '10-entity-tab-after.png');
  } finally {
    await browser.close();
  }
}

main().catch(err => {
  console.error(err);
  process.exitCode = 1;
});
