/**
 * The browser scenarios against the whole local system (two
 * clusters, controllers, simulators, Backstage), in order: each step
 * builds on the previous one, as a user's session would.
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
/** The local Gateway's address as the gateway simulator reports it (e2e/system's LOCAL_GATEWAY). */
const GATEWAY_ENDPOINT =
  'http://inference-gateway.gateway-system.gateway.invalid';

const Graphs: ResourceType = {
  group: 'nvidia.com',
  version: 'v1beta1',
  kind: 'DynamoGraphDeployment',
  plural: 'dynamographdeployments',
  namespaced: true,
};

/** The portal suite, on the browser tests' shared system (`getSystem()`, started in browser.integration.test.ts). */
export function describePortal(getSystem: () => RunningSystem): void {
  describe('portal', () => {
    const screenshotDir = screenshotFolder('browser');

    let system: RunningSystem;
    let PORTAL: string;

    let session: BrowserSession;
    let page: Page;
    let until: PortalDriver['until'];
    let go: PortalDriver['open'];

    const cluster = (name: string) => {
      const found = system.clusters.find(c => c.name === name);
      if (!found) throw new Error(`no local cluster ${name}`);
      return found;
    };
    const adminClient = (name: string) =>
      new KubeClient(cluster(name).kubeConfig());

    const visible = (text: string | RegExp) => () =>
      page.getByText(text).first().isVisible();

    /** Goes to a portal path; every runway page offers to deploy a model. */
    const open = (path: string) =>
      go(path, () =>
        page
          .getByText(/deploy a model/i)
          .first()
          .isVisible(),
      );

    beforeAll(async () => {
      process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
      system = getSystem();
      PORTAL = system.portalUrl!;
      session = await openBrowser(screenshotDir);
      page = session.page;
      ({ until, open: go } = portalDriver(session, PORTAL));
      await open('/runway');
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      await session?.close();
      process.stdout.write(`browser screenshots: ${screenshotDir}\n`);
    }, 120_000);

    it(
      'deploys a model through the wizard on dev; it reaches Running; the detail view shows the provider and the reason',
      async () => {
        await session.screenshot('dashboard-empty');
        await open('/runway/deploy');
        await page
          .getByRole('combobox', { name: 'Cluster' })
          .click({ timeout: UI_TIMEOUT_MS });
        await page.getByRole('option', { name: 'dev (local)' }).click();
        const namespace = page.getByRole('combobox', { name: 'Namespace' });
        if (await namespace.isVisible()) {
          await namespace.click();
          await page.getByRole('option', { name: NAMESPACE }).click();
        } else {
          await page.getByLabel('Namespace').fill(NAMESPACE);
        }
        await page.getByLabel('Deployment name').fill('wizard-qwen');
        await session.screenshot('wizard-target');
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByLabel('Model ID').fill('Qwen/Qwen3-0.6B');
        for (let i = 0; i < 4; i++)
          await page.getByRole('button', { name: 'Next' }).click();
        await page
          .getByRole('button', { name: 'Create' })
          .waitFor({ timeout: UI_TIMEOUT_MS });
        // The review shows the provider's own transformation, not only the ModelDeployment.
        await until(
          'the preview to show what dynamo would write',
          visible(/Objects written by provider dynamo/i),
        );
        expect(
          await page
            .getByRole('region', { name: 'Provider objects' })
            .innerText(),
        ).toContain('DynamoGraphDeployment');
        await session.screenshot('wizard-review');
        await page.getByRole('button', { name: 'Create' }).click();

        await page.waitForURL(
          /\/runway\/deployments\/dev\/default\/wizard-qwen/,
          {
            timeout: UI_TIMEOUT_MS,
          },
        );
        await until('the detail view to show Running', visible('Running'));
        const provider = page.getByText(/dynamo/i).first();
        await provider.waitFor({ timeout: UI_TIMEOUT_MS });
        const body = await page.innerText('body');
        expect(body).toMatch(/Provider[\s\S]*dynamo/i);
        // The selection reason the core wrote (status.provider.selectedReason), not only the name.
        const md = await adminClient('dev').get<
          KubeObject & {
            status?: { provider?: { name?: string; selectedReason?: string } };
          }
        >(ModelDeployments, { namespace: NAMESPACE, name: 'wizard-qwen' });
        expect(md.status?.provider?.name).toBe('dynamo');
        expect(md.status?.provider?.selectedReason).toBeTruthy();
        expect(body).toContain(md.status!.provider!.selectedReason!);
        await session.screenshot('detail-running');

        // How to call it: through the local Gateway (the core's route, the simulated implementation's address).
        const viaGateway = page.getByRole('region', {
          name: 'Through the Gateway',
        });
        await until('the detail view to show the gateway endpoint', async () =>
          (await viaGateway.innerText()).includes(GATEWAY_ENDPOINT),
        );
        const routed = await adminClient('dev').get<
          KubeObject & {
            status?: { gateway?: { endpoint?: string; modelName?: string } };
          }
        >(ModelDeployments, { namespace: NAMESPACE, name: 'wizard-qwen' });
        expect(routed.status?.gateway?.endpoint).toBe(GATEWAY_ENDPOINT);
        const gatewayText = await viaGateway.innerText();
        expect(gatewayText).toContain(routed.status!.gateway!.modelName!);
        expect(
          await page
            .getByLabel('example request through the gateway')
            .innerText(),
        ).toContain(`curl ${GATEWAY_ENDPOINT}/v1/chat/completions`);
        await session.screenshot('detail-gateway');

        await open('/runway');
        const row = page.getByRole('row').filter({ hasText: 'wizard-qwen' });
        await until('the dashboard row to show Running', async () =>
          (await row.innerText()).includes('Running'),
        );
        await session.screenshot('dashboard-running');
      },
      5 * 60_000,
    );

    it(
      'shows a deployment created with the Kubernetes API on staging without a reload',
      async () => {
        const client = adminClient('staging');
        try {
          await client.create(ModelDeployments, {
            apiVersion: 'airunway.ai/v1alpha1',
            kind: 'ModelDeployment',
            metadata: { name: 'api-gemma', namespace: NAMESPACE },
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
        // No page.goto / reload from here: the dashboard must update by itself.
        const row = page.getByRole('row').filter({ hasText: 'api-gemma' });
        await until('the API-created deployment to appear', () =>
          row.isVisible(),
        );
        expect(await row.innerText()).toContain('staging');
        await session.screenshot('dashboard-api-created');
      },
      3 * 60_000,
    );

    it(
      'names staging unreachable while its control plane is down, keeps dev, and clears by itself',
      async () => {
        await cluster('staging').stopControlPlane();
        try {
          await until(
            'staging to be shown unreachable',
            visible(/unreachable/i),
            120_000,
          );
          expect(
            await page
              .getByRole('row')
              .filter({ hasText: 'wizard-qwen' })
              .isVisible(),
          ).toBe(true);
          expect(await page.innerText('body')).toContain('dev (local)');
          await session.screenshot('staging-unreachable');
        } finally {
          await cluster('staging').startControlPlane();
        }
        await until(
          'the unreachable error to clear',
          async () =>
            !(await page
              .getByText(/unreachable/i)
              .first()
              .isVisible()),
          180_000,
        );
        await session.screenshot('staging-back');
      },
      6 * 60_000,
    );

    it(
      'deletes the deployment from the detail view; the upstream object is garbage-collected',
      async () => {
        await page
          .getByRole('row')
          .filter({ hasText: 'wizard-qwen' })
          .getByText('wizard-qwen')
          .first()
          .click();
        await page.waitForURL(
          /\/runway\/deployments\/dev\/default\/wizard-qwen/,
          {
            timeout: UI_TIMEOUT_MS,
          },
        );
        await page.getByRole('button', { name: 'Delete' }).first().click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor({ timeout: UI_TIMEOUT_MS });
        await session.screenshot('delete-confirm');
        await dialog.getByRole('button', { name: 'Delete' }).click();

        const client = adminClient('dev');
        const gone = async (rt: ResourceType) => {
          try {
            await client.get(rt, { namespace: NAMESPACE, name: 'wizard-qwen' });
            return false;
          } catch (err) {
            return isNotFound(err);
          }
        };
        try {
          await until(
            'the ModelDeployment to be deleted',
            () => gone(ModelDeployments),
            120_000,
          );
          await until(
            'the DynamoGraphDeployment to be garbage-collected',
            () => gone(Graphs),
            120_000,
          );
        } finally {
          client.close();
        }
        await open('/runway');
        await page
          .getByRole('row')
          .filter({ hasText: 'api-gemma' })
          .waitFor({ timeout: UI_TIMEOUT_MS });
        expect(
          await page
            .getByRole('row')
            .filter({ hasText: 'wizard-qwen' })
            .count(),
        ).toBe(0);
        await session.screenshot('after-delete');
      },
      5 * 60_000,
    );
  });
}
