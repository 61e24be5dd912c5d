import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';
import { KubeClient } from '../kube/client';
import { KubeApiError } from '../kube/errors';
import type { KubeObject } from '../kube/types';
import {
  ConfigMaps,
  CustomResourceDefinitions,
  MutatingWebhookConfigurations,
  Secrets,
  ValidatingWebhookConfigurations,
} from '../kube/wellKnown';
import type { ResourceType } from '../kube/resource';
import { Manager } from '../manager/manager';
import { silentLogger } from '../observability/logger';
import { eventually, START_TIMEOUT_MS } from '../testing/integration';
import { CertManager } from './certManager';
import { splitPems } from './certs';
import {
  conversionWebhook,
  mutatingWebhook,
  validatingWebhook,
} from './reviews';

jest.setTimeout(180_000);

const WidgetsV1: ResourceType = {
  group: 'conv.runtime.test',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
  namespaced: true,
};
const WidgetsV2: ResourceType = { ...WidgetsV1, version: 'v2' };
const CERT_SECRET = { namespace: 'default', name: 'runtime-webhook-certs' };

/** The certificate the server presents, as the API server would see it. */
function presentedCertificate(port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port, rejectUnauthorized: false },
      () => {
        const cert = socket.getPeerX509Certificate();
        socket.end();
        if (cert) resolve(cert);
        else reject(new Error('no certificate presented'));
      },
    );
    socket.on('error', reject);
  });
}

function webhookEntry(name: string, url: string) {
  return {
    name,
    clientConfig: { url },
    rules: [
      {
        apiGroups: [''],
        apiVersions: ['v1'],
        operations: ['CREATE'],
        resources: ['configmaps'],
      },
    ],
    objectSelector: { matchLabels: { 'webhook-test': 'true' } },
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: 5,
  };
}

function widgetSchema(spec: Record<string, unknown>) {
  return {
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: spec } },
    },
  };
}

describe('webhook server with its own certificates', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let manager: Manager;
  let running: Promise<void>;
  let port: number;
  const calls: string[] = [];

  beforeAll(async () => {
    cluster = await startCluster({ name: 'runtime-webhook' });
    client = new KubeClient(cluster.kubeConfig());
    port = await freePort();
    const base = `https://127.0.0.1:${port}`;
    // Installed without caBundle: the manager publishes its own CA.
    await client.create(ValidatingWebhookConfigurations, {
      metadata: { name: 'runtime-validate' },
      webhooks: [webhookEntry('validate.runtime.test', `${base}/validate`)],
    });
    await client.create(MutatingWebhookConfigurations, {
      metadata: { name: 'runtime-mutate' },
      webhooks: [webhookEntry('mutate.runtime.test', `${base}/mutate`)],
    });
    await client.create(CustomResourceDefinitions, {
      metadata: { name: 'widgets.conv.runtime.test' },
      spec: {
        group: 'conv.runtime.test',
        names: {
          plural: 'widgets',
          singular: 'widget',
          kind: 'Widget',
          listKind: 'WidgetList',
        },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: widgetSchema({ size: { type: 'integer' } }),
          },
          {
            name: 'v2',
            served: true,
            storage: false,
            schema: widgetSchema({
              dimensions: {
                type: 'object',
                properties: { size: { type: 'integer' } },
              },
            }),
          },
        ],
        conversion: {
          strategy: 'Webhook',
          webhook: {
            conversionReviewVersions: ['v1'],
            clientConfig: { url: `${base}/convert` },
          },
        },
      },
    });
    await eventually('the Widget CRD to be served', async () => {
      await client.list(WidgetsV1, { namespace: 'default' });
      return true;
    });

    manager = new Manager({
      name: 'webhook-test',
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      metrics: false,
      healthProbes: false,
      handleSignals: false,
      webhook: {
        host: '127.0.0.1',
        port,
        certificates: {
          secretName: CERT_SECRET.name,
          secretNamespace: CERT_SECRET.namespace,
          hosts: { ipAddresses: ['127.0.0.1'] },
          validatingWebhookConfigurations: ['runtime-validate'],
          mutatingWebhookConfigurations: ['runtime-mutate'],
          conversionCrds: ['widgets.conv.runtime.test'],
          caPropagationDelayMs: 2000,
        },
      },
    });
    const server = manager.webhookServer!;
    server.register(
      '/validate',
      validatingWebhook(req => {
        calls.push(`validate ${req.name ?? req.object?.metadata?.name}`);
        const data = (req.object as { data?: Record<string, string> }).data;
        return data?.verdict === 'deny'
          ? {
              allowed: false,
              message: 'data.verdict "deny" is not allowed: set it to "allow"',
            }
          : { allowed: true };
      }),
    );
    server.register(
      '/mutate',
      mutatingWebhook(obj => {
        calls.push(`mutate ${obj.metadata?.name}`);
        obj.metadata!.labels = {
          ...obj.metadata!.labels,
          'mutated-by': 'runtime',
        };
        return obj;
      }),
    );
    server.register(
      '/convert',
      conversionWebhook((obj, desired) => {
        calls.push(`convert ${obj.metadata?.name} to ${desired}`);
        const spec = (obj.spec ?? {}) as {
          size?: number;
          dimensions?: { size?: number };
        };
        return desired.endsWith('/v2')
          ? { ...obj, spec: { dimensions: { size: spec.size } } }
          : { ...obj, spec: { size: spec.dimensions?.size } };
      }),
    );
    running = manager.start();
    await manager.elected();
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await manager?.stop();
    await running?.catch(() => undefined);
    client?.close();
    await cluster?.stop();
  });

  const storedBundle = async () => {
    const secret = await client.get<
      KubeObject & { data: Record<string, string> }
    >(Secrets, CERT_SECRET);
    const text = (k: string) =>
      Buffer.from(secret.data[k], 'base64').toString();
    return {
      ca: text('ca.crt'),
      cert: text('tls.crt'),
      caBase64: secret.data['ca.crt'],
    };
  };

  async function expectWebhooksWork(tag: string) {
    // Denied by the validating webhook, with its message.
    await eventually(`the validating webhook to deny (${tag})`, async () => {
      const err = await client
        .create(ConfigMaps, {
          metadata: {
            name: `deny-${tag}`,
            namespace: 'default',
            labels: { 'webhook-test': 'true' },
          },
          data: { verdict: 'deny' },
        })
        .catch(e => e);
      return (
        err instanceof KubeApiError &&
        /data.verdict "deny" is not allowed/.test(err.message)
      );
    });
    // Allowed and mutated.
    const created = await client.create<KubeObject>(ConfigMaps, {
      metadata: {
        name: `allow-${tag}`,
        namespace: 'default',
        labels: { 'webhook-test': 'true' },
      },
      data: { verdict: 'allow' },
    });
    expect(created.metadata?.labels?.['mutated-by']).toBe('runtime');
    // Converted between versions by the conversion webhook.
    await client.create(WidgetsV1, {
      metadata: { name: `w-${tag}`, namespace: 'default' },
      spec: { size: 3 },
    });
    const asV2 = await client.get<KubeObject>(WidgetsV2, {
      namespace: 'default',
      name: `w-${tag}`,
    });
    expect(asV2.spec).toEqual({ dimensions: { size: 3 } });
    expect(calls).toEqual(
      expect.arrayContaining([
        `mutate allow-${tag}`,
        `validate allow-${tag}`,
        `convert w-${tag} to conv.runtime.test/v2`,
      ]),
    );
  }

  it('is called by the API server with the certificate it made itself and published', async () => {
    const stored = await storedBundle();
    const presented = await presentedCertificate(port);
    expect(presented.raw.equals(new X509Certificate(stored.cert).raw)).toBe(
      true,
    );
    expect(
      presented.checkIssued(new X509Certificate(splitPems(stored.ca)[0])),
    ).toBe(true);
    const validating = await client.get<
      KubeObject & { webhooks: Array<{ clientConfig: { caBundle: string } }> }
    >(ValidatingWebhookConfigurations, { name: 'runtime-validate' });
    expect(validating.webhooks[0].clientConfig.caBundle).toBe(stored.caBase64);
    const crd = await client.get<KubeObject & { spec: any }>(
      CustomResourceDefinitions,
      { name: 'widgets.conv.runtime.test' },
    );
    expect(crd.spec.conversion.webhook.clientConfig.caBundle).toBe(
      stored.caBase64,
    );
    expect(manager.certManager!.isReady()).toBe(true);
    await expectWebhooksWork('first');
  });

  it('keeps working after a forced rotation of the CA and serving certificate', async () => {
    const before = await storedBundle();
    // Calls keep succeeding while the rotation runs: the new CA is trusted before it is used.
    let probing = true;
    const createProbe = (i: number) =>
      client
        .create(ConfigMaps, {
          metadata: {
            name: `probe-${i}`,
            namespace: 'default',
            labels: { 'webhook-test': 'true' },
          },
        })
        .then(
          () => 0,
          () => 1,
        );
    const probe = (async () => {
      let failed = 0;
      for (let i = 0; probing; i++) failed += await createProbe(i);
      return failed;
    })();
    await manager.certManager!.rotate({ ca: true });
    await expectWebhooksWork('rotated');
    probing = false;
    expect(await probe).toBe(0);
    const after = await storedBundle();
    expect(after.cert).not.toBe(before.cert);
    expect(splitPems(after.ca)).toHaveLength(2); // new CA first, the old one still trusted
    expect(splitPems(after.ca)[1]).toBe(splitPems(before.ca)[0]);
    const presented = await presentedCertificate(port);
    expect(presented.raw.equals(new X509Certificate(after.cert).raw)).toBe(
      true,
    );
    expect(
      presented.checkIssued(new X509Certificate(splitPems(after.ca)[0])),
    ).toBe(true);
  });

  it('lets another replica adopt the stored certificate instead of making its own', async () => {
    const stored = await storedBundle();
    const replica = new CertManager(client, {
      secretName: CERT_SECRET.name,
      secretNamespace: CERT_SECRET.namespace,
      hosts: { ipAddresses: ['127.0.0.1'] },
    });
    const bundle = await replica.ensure();
    expect(bundle.cert).toBe(stored.cert);
    expect((await storedBundle()).cert).toBe(stored.cert);
  });

  it('trusts a webhook configuration created after it started within seconds, and only then reports ready', async () => {
    const late = new CertManager(client, {
      secretName: CERT_SECRET.name,
      secretNamespace: CERT_SECRET.namespace,
      hosts: { ipAddresses: ['127.0.0.1'] },
      validatingWebhookConfigurations: ['runtime-late'],
      retryIntervalMs: 200,
    });
    await late.start();
    try {
      // The configuration does not exist yet (an installer applies webhooks last).
      expect(late.isReady()).toBe(false);
      await client.create(ValidatingWebhookConfigurations, {
        metadata: { name: 'runtime-late' },
        webhooks: [
          webhookEntry(
            'late.runtime.test',
            `https://127.0.0.1:${port}/validate`,
          ),
        ],
      });
      const started = Date.now();
      while (!late.isReady() && Date.now() - started < 10_000) {
        await new Promise(resolve => setTimeout(resolve, 100));
      }
      expect(late.isReady()).toBe(true);
      const published = await client.get<any>(ValidatingWebhookConfigurations, {
        name: 'runtime-late',
      });
      expect(published.webhooks[0].clientConfig.caBundle).toBeTruthy();
    } finally {
      await late.stop();
      await client.delete(ValidatingWebhookConfigurations, {
        name: 'runtime-late',
      });
    }
  });
});
