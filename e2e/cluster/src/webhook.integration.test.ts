import * as x509 from '@peculiar/x509';
import { AdmissionregistrationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { startCluster, waitFor, type TestCluster } from './index';
import { apiFailure, START_TIMEOUT_MS } from './testing';

jest.setTimeout(60_000);
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

/** A CA and a serving certificate for 127.0.0.1 signed by it (PEM). */
async function makeServingCertificate() {
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 24 * 3600_000);
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, [
    'sign',
    'verify',
  ]);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=webhook-test-ca',
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    keys: caKeys as CryptoKeyPair,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
    ],
  });
  const serverKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, [
    'sign',
    'verify',
  ]);
  const serving = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=127.0.0.1',
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    publicKey: serverKeys.publicKey as CryptoKey,
    signingKey: caKeys.privateKey as CryptoKey,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
      ]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  const key = x509.PemConverter.encode(
    await webcrypto.subtle.exportKey(
      'pkcs8',
      serverKeys.privateKey as CryptoKey,
    ),
    'PRIVATE KEY',
  );
  return {
    caPem: ca.toString('pem'),
    certPem: serving.toString('pem'),
    keyPem: key,
  };
}

interface AdmissionCall {
  operation: string;
  name: string;
  username: string;
}

describe('a validating admission webhook served by the test', () => {
  let cluster: TestCluster;
  let server: Server;
  let core: CoreV1Api;
  const calls: AdmissionCall[] = [];

  beforeAll(async () => {
    const tls = await makeServingCertificate();
    server = createServer(
      { cert: tls.certPem, key: tls.keyPem },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', chunk => chunks.push(chunk));
        req.on('end', () => {
          const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const { uid, object, operation, userInfo } = review.request;
          calls.push({
            operation,
            name: object.metadata.name,
            username: userInfo.username,
          });
          const denied = object.data?.verdict === 'deny';
          res.setHeader('Content-Type', 'application/json');
          res.end(
            JSON.stringify({
              apiVersion: 'admission.k8s.io/v1',
              kind: 'AdmissionReview',
              response: denied
                ? {
                    uid,
                    allowed: false,
                    status: {
                      code: 403,
                      message: `verdict "deny" is not allowed on ${object.metadata.name}`,
                    },
                  }
                : { uid, allowed: true },
            }),
          );
        });
      },
    );
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;

    cluster = await startCluster({ name: 'webhook' });
    core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    await cluster
      .kubeConfig()
      .makeApiClient(AdmissionregistrationV1Api)
      .createValidatingWebhookConfiguration({
        body: {
          metadata: { name: 'verdicts' },
          webhooks: [
            {
              name: 'verdicts.e2e.runway.dev',
              clientConfig: {
                url: `https://127.0.0.1:${port}/validate`,
                caBundle: Buffer.from(tls.caPem).toString('base64'),
              },
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
            },
          ],
        },
      });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await cluster?.stop();
    await new Promise(resolve => server?.close(resolve));
  });

  const configMap = (name: string, verdict: string) => ({
    metadata: { name, labels: { 'webhook-test': 'true' } },
    data: { verdict },
  });

  it('is called by the API server and can deny a request', async () => {
    // The API server loads new webhook configurations asynchronously.
    await waitFor('the webhook to be in effect', async () => {
      const probe = await apiFailure(
        core.createNamespacedConfigMap({
          namespace: 'default',
          dryRun: 'All',
          body: configMap('probe', 'deny'),
        }),
      ).catch(() => undefined);
      return probe?.code === 403;
    });

    const failure = await apiFailure(
      core.createNamespacedConfigMap({
        namespace: 'default',
        body: configMap('rejected', 'deny'),
      }),
    );
    expect(failure.code).toBe(403);
    expect(failure.message).toMatch(
      /admission webhook "verdicts\.e2e\.runway\.dev" denied the request: verdict "deny" is not allowed on rejected/,
    );
    await expect(
      core.readNamespacedConfigMap({ name: 'rejected', namespace: 'default' }),
    ).rejects.toMatchObject({ code: 404 });

    const allowed = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: configMap('accepted', 'allow'),
    });
    expect(allowed.metadata?.uid).toBeTruthy();
    expect(calls).toEqual(
      expect.arrayContaining([
        { operation: 'CREATE', name: 'rejected', username: 'runway-admin' },
        { operation: 'CREATE', name: 'accepted', username: 'runway-admin' },
      ]),
    );
  });

  it('is not called for objects outside its selector', async () => {
    const before = calls.length;
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'unlabelled' }, data: { verdict: 'deny' } },
    });
    expect(calls.length).toBe(before);
  });
});
