/**
 * The generated Model and LlamaStackDistribution CRDs in a real API server:
 * they install (structural schemas, CEL rules that compile within the cost
 * budget), the API server rejects what the local validators reject (one case
 * per CEL rule, and the schema's own checks), accepts every sample, applies
 * the same defaults, shows the printer columns, and converts between
 * v1alpha1 and v1alpha2 through a conversion webhook served by this test
 * with the package's conversion functions.
 */
import * as x509 from '@peculiar/x509';
import {
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
} from '@kubernetes/client-node';
// eslint-disable-next-line @backstage/no-mixed-plugin-imports -- test-only: the real-cluster harness
import {
  startCluster,
  waitFor,
  apiErrorMessage,
  type TestCluster,
} from '@runway-portal/e2e-cluster';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request,
  type RequestOptions,
  type Server,
} from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { defaultModel } from '../models/defaults';
import { validateModel } from '../models/validate';
import {
  type CelCase,
  MODEL_CEL_CASES,
  model,
  STACK_V1ALPHA1_CEL_CASES,
  STACK_V1ALPHA2_CEL_CASES,
  stackV1,
  stackV2,
} from './__fixtures__/celCases';
import { upstreamStackSamples } from './__fixtures__/upstream';
import { convertStack } from './conversion';
import { defaultStackV1alpha1, defaultStackV1alpha2 } from './defaults';
import { normalizeStackV1alpha2 } from './normalize';
import { checkStackReferences, type StackReferenceLookup } from './references';
import { validateStack } from './validate';

jest.setTimeout(120_000);
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const START_TIMEOUT_MS = 30 * 60_000;
const REPO_ROOT = resolve(__dirname, '../../../..');
const CRD_DIR = join(REPO_ROOT, 'controllers/deploy/crds');
const MODEL_CRD = join(CRD_DIR, 'models.airunway.ai_models.yaml');
const STACK_CRD = join(CRD_DIR, 'llamastack.io_llamastackdistributions.yaml');
const V1 = 'llamastack.io/v1alpha1';
const V2 = 'llamastack.io/v1alpha2';
const NS = 'default';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

/** A CA and a serving certificate for 127.0.0.1 signed by it (PEM). */
async function servingCertificate() {
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 24 * 3600_000);
  const caKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=conversion-test-ca',
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    keys: caKeys,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
  });
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=127.0.0.1',
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
      ]),
    ],
  });
  const key = x509.PemConverter.encode(
    await webcrypto.subtle.exportKey('pkcs8', keys.privateKey),
    'PRIVATE KEY',
  );
  return { ca: ca.toString('pem'), cert: cert.toString('pem'), key };
}

/** The conversion webhook: ConversionReview in, `convertStack` applied to each object, ConversionReview out. */
function conversionHandler(calls: string[]) {
  return (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => {
    const chunks: Buffer[] = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => {
      const { request: review } = JSON.parse(
        Buffer.concat(chunks).toString('utf8'),
      );
      let response: Record<string, unknown>;
      try {
        const convertedObjects = review.objects.map((o: unknown) =>
          convertStack(o, review.desiredAPIVersion),
        );
        calls.push(
          ...review.objects.map(
            (o: any) => `${o.apiVersion}->${review.desiredAPIVersion}`,
          ),
        );
        response = {
          uid: review.uid,
          convertedObjects,
          result: { status: 'Success' },
        };
      } catch (e) {
        response = {
          uid: review.uid,
          result: { status: 'Failure', message: (e as Error).message },
        };
      }
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'ConversionReview',
          response,
        }),
      );
    });
  };
}

/** A GET with a chosen Accept header (for Table and PartialObjectMetadata responses). */
async function getAs(
  kc: KubeConfig,
  path: string,
  accept: string,
): Promise<{ status: number; body: any }> {
  const server = kc.getCurrentCluster()!.server;
  const options: RequestOptions = {
    method: 'GET',
    agent: false,
    headers: { Accept: accept },
  };
  await kc.applyToHTTPSOptions(options);
  return new Promise((resolvePromise, reject) => {
    const req = request(new URL(path, server), options, res => {
      const chunks: Buffer[] = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () =>
        resolvePromise({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function rejection(
  call: Promise<unknown>,
): Promise<{ code?: number; message: string }> {
  try {
    await call;
  } catch (e) {
    return { code: (e as { code?: number }).code, message: apiErrorMessage(e) };
  }
  throw new Error(
    'expected the API server to reject the request, but it accepted it',
  );
}

const samples = upstreamStackSamples();

const unique = (() => {
  let n = 0;
  return (base: string) => `${base.slice(0, 40)}-${++n}`;
})();

describe('the generated Model and LlamaStackDistribution CRDs in a real API server', () => {
  let cluster: TestCluster;
  let server: Server;
  let custom: CustomObjectsApi;
  let core: CoreV1Api;
  let workDir: string;
  const conversions: string[] = [];

  beforeAll(async () => {
    const tls = await servingCertificate();
    server = createServer(
      { cert: tls.cert, key: tls.key },
      conversionHandler(conversions),
    );
    await new Promise<void>(done => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;

    // The checked-in CRD, with the conversion webhook pointed at this test's server.
    const stackCrd = parse(readFileSync(STACK_CRD, 'utf8'));
    stackCrd.spec.conversion.webhook.clientConfig = {
      url: `https://127.0.0.1:${port}/convert`,
      caBundle: Buffer.from(tls.ca).toString('base64'),
    };
    workDir = mkdtempSync(join(tmpdir(), 'runway-common-crds-'));
    writeFileSync(join(workDir, 'stacks.yaml'), stringify(stackCrd));

    cluster = await startCluster({
      name: 'runway-common-models-stacks',
      crds: [MODEL_CRD, join(workDir, 'stacks.yaml')],
    });
    custom = cluster.kubeConfig().makeApiClient(CustomObjectsApi);
    core = cluster.kubeConfig().makeApiClient(CoreV1Api);
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await cluster?.stop();
    await new Promise(done => (server ? server.close(done) : done(undefined)));
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  const where = (obj: any) =>
    obj.kind === 'Model'
      ? { group: 'models.airunway.ai', version: 'v1alpha1', plural: 'models' }
      : {
          group: 'llamastack.io',
          version: obj.apiVersion.split('/')[1],
          plural: 'llamastackdistributions',
        };

  const create = (obj: any, dryRun = false) =>
    custom.createNamespacedCustomObject({
      ...where(obj),
      namespace: NS,
      body: obj,
      ...(dryRun ? { dryRun: 'All' } : {}),
    }) as Promise<any>;

  const read = (obj: any, version: string) =>
    custom.getNamespacedCustomObject({
      ...where(obj),
      version,
      namespace: NS,
      name: obj.metadata.name,
    }) as Promise<any>;

  const localIssues = (obj: any) =>
    (obj.kind === 'Model'
      ? validateModel(obj)
      : validateStack(obj)
    ).issues.filter(i => i.severity === 'error');

  describe('CEL rules: one rejection per rule', () => {
    const cases: CelCase[] = [
      ...MODEL_CEL_CASES,
      ...STACK_V1ALPHA1_CEL_CASES,
      ...STACK_V1ALPHA2_CEL_CASES,
    ];

    it.each(cases.map(c => [c.name, c] as const))('%s', async (_name, c) => {
      const failure = await rejection(create(c.object, true));
      expect(failure.code).toBe(422);
      expect(failure.message).toContain(c.message);
      // The local validator reports the same message at the path the API server names.
      const local = localIssues(c.object).find(i => i.message === c.message);
      expect(local).toBeDefined();
      // A rule at the root of the schema is reported without a field by the API server.
      expect(failure.message).toContain(
        c.rulePath === ''
          ? '<nil>: Invalid value'
          : `${local!.path}: Invalid value`,
      );
    });
  });

  describe('schema checks: the API server and the local validator agree', () => {
    it.each([
      [
        'a Model size without unit',
        model('size', { storage: { storageClass: 's', size: '20' } }),
        'spec.storage.size',
      ],
      [
        'a Model repoId without owner',
        model('repo', { source: { huggingFace: { repoId: 'llama' } } }),
        'spec.source.huggingFace.repoId',
      ],
      [
        'a Model URL without scheme',
        model('url', { source: { url: { url: 'example.com/m' } } }),
        'spec.source.url.url',
      ],
      [
        'a Model access mode',
        model('mode', {
          storage: {
            storageClass: 's',
            size: '1Gi',
            accessModes: ['Sometimes'],
          },
        }),
        'spec.storage.accessModes[0]',
      ],
      [
        'a Model without storage',
        {
          ...model('nostorage'),
          spec: { source: { url: { url: 'https://x/y' } } },
        },
        'spec.storage',
      ],
      [
        'a v1alpha2 port above 65535',
        stackV2('port', { networking: { port: 70000 } }),
        'spec.networking.port',
      ],
      [
        'a v1alpha2 unknown disabled API',
        stackV2('disabled', { disabled: ['training'] }),
        'spec.disabled[0]',
      ],
      [
        'a v1alpha2 provider id with a dot',
        stackV2('id', {
          providers: { inference: [{ id: 'a.b', provider: 'vllm' }] },
        }),
        'spec.providers.inference[0].id',
      ],
      [
        'a v1alpha2 without distribution',
        {
          apiVersion: V2,
          kind: 'LlamaStackDistribution',
          metadata: { name: 'nodist' },
          spec: {},
        },
        'spec.distribution',
      ],
      [
        'a v1alpha2 empty provider list',
        stackV2('empty', { providers: { safety: [] } }),
        'spec.providers.safety',
      ],
      [
        'a v1alpha2 storage size',
        stackV2('size', { workload: { storage: { size: 'ten' } } }),
        'spec.workload.storage.size',
      ],
      [
        'a v1alpha1 with zero workers',
        stackV1('workers', { workers: 0 }),
        'spec.server.workers',
      ],
      [
        'a v1alpha1 without server',
        {
          apiVersion: V1,
          kind: 'LlamaStackDistribution',
          metadata: { name: 'noserver' },
          spec: {},
        },
        'spec.server',
      ],
    ])('rejects %s', async (_name, obj, path) => {
      const failure = await rejection(create(obj, true));
      expect(failure.code).toBe(422);
      expect(failure.message).toContain(path);
      expect(localIssues(obj).map(i => i.path)).toContain(path);
    });

    it('rejects a Model status progress above 100 on the status subresource', async () => {
      const obj = model('progress');
      await create(obj);
      const failure = await rejection(
        custom.replaceNamespacedCustomObjectStatus({
          ...where(obj),
          namespace: NS,
          name: 'progress',
          body: {
            ...(await read(obj, 'v1alpha1')),
            status: { phase: 'Downloading', progress: 150 },
          },
        }),
      );
      expect(failure.code).toBe(422);
      expect(failure.message).toContain('status.progress');
      expect(
        validateModel({ ...obj, status: { progress: 150 } }).issues.map(
          i => i.path,
        ),
      ).toContain('status.progress');
    });
  });

  describe('valid objects', () => {
    it('accepts seed 003 example Model and stores it with the schema defaults', async () => {
      const obj = model('llama-3-8b', {
        version: '3.1',
        credentialsSecret: 'hf-credentials',
      });
      const created = await create(obj);
      expect(created.spec).toEqual(defaultModel(obj as any).spec);
    });

    it.each(samples.filter(([, o]) => o.apiVersion === V2))(
      'accepts %s and defaults it as defaultStackV1alpha2 does',
      async (_name, obj) => {
        const input = { ...obj, metadata: { name: unique(obj.metadata.name) } };
        const created = await create(input);
        expect(created.spec).toEqual(defaultStackV1alpha2(input as any).spec);
      },
    );

    it("accepts seed 004's complete example once normalized", async () => {
      const seed = normalizeStackV1alpha2(
        stackV2('seed-example', {
          providers: {
            inference: [
              {
                id: 'vllm-primary',
                provider: 'vllm',
                endpoint: 'http://vllm:8000',
                apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
                settings: { max_tokens: 8192 },
              },
            ],
            safety: { provider: 'llama-guard' },
            vectorIo: {
              provider: 'pgvector',
              settings: {
                host: { secretKeyRef: { name: 'pg-creds', key: 'host' } },
              },
            },
          },
          resources: {
            models: [
              'llama3.2-8b',
              {
                name: 'llama3.2-70b',
                provider: 'vllm-primary',
                contextLength: 128000,
              },
            ],
            tools: ['websearch', 'rag'],
            shields: ['llama-guard'],
          },
          storage: {
            kv: { type: 'sqlite' },
            sql: {
              type: 'postgres',
              connectionString: {
                secretKeyRef: { name: 'pg-creds', key: 'url' },
              },
            },
          },
          disabled: ['postTraining', 'eval'],
          networking: {
            port: 8321,
            tls: {
              enabled: true,
              secretName: 'llama-tls',
              caBundle: { configMapName: 'custom-ca' },
            },
            expose: true,
            allowedFrom: { namespaces: ['app-ns'], labels: ['llama-access'] },
          },
          workload: {
            replicas: 1,
            workers: 2,
            podDisruptionBudget: { minAvailable: 1 },
            topologySpreadConstraints: [],
            overrides: { serviceAccountName: 'custom-sa', env: [] },
          },
          externalProviders: {
            inference: [
              {
                providerId: 'custom-inference',
                image: 'registry.example.com/custom:v1',
              },
            ],
          },
        }),
      ).object as any;
      const created = await create(seed);
      expect(created.spec).toEqual(defaultStackV1alpha2(seed).spec);
    });

    it.each(samples.filter(([, o]) => o.apiVersion === V1))(
      'accepts %s through the conversion webhook and reads it back as the conversion functions predict',
      async (_name, obj) => {
        const input = {
          ...obj,
          metadata: { name: unique(obj.metadata.name), namespace: NS },
        };
        await create(input);
        // Stored: the v1alpha1 request, defaulted, converted; read: defaulted as v1alpha2, converted as asked.
        const stored = defaultStackV1alpha2(
          convertStack(defaultStackV1alpha1(input as any), V2) as any,
        );
        const asV2 = await read(input, 'v1alpha2');
        const asV1 = await read(input, 'v1alpha1');
        expect(asV2.spec).toEqual(stored.spec);
        expect(asV2.metadata.annotations).toEqual(stored.metadata?.annotations);
        expect(asV1.spec).toEqual(convertStack(stored, V1).spec);
        expect(asV1.metadata.annotations).toEqual(
          convertStack(stored, V1).metadata?.annotations,
        );
        expect(conversions).toEqual(
          expect.arrayContaining([`${V1}->${V2}`, `${V2}->${V1}`]),
        );
      },
    );

    it('round-trips a v1alpha2 object through v1alpha1 without losing fields', async () => {
      const obj = stackV2('roundtrip', {
        providers: {
          inference: [{ provider: 'vllm', endpoint: 'http://vllm:8000' }],
        },
        resources: { models: [{ name: 'm' }] },
        networking: {
          expose: { hostname: 'llama.example.com' },
          tls: { caBundle: { configMapName: 'ca' } },
        },
        workload: {
          replicas: 2,
          overrides: { env: [{ name: 'A', value: '1' }] },
        },
      });
      await create(obj);
      const asV1 = await read(obj, 'v1alpha1');
      expect(asV1.spec.network).toEqual({ exposeRoute: true });
      // A v1alpha1 client updates what it can see; the v1alpha2-only fields survive.
      asV1.spec.server.containerSpec.env = [{ name: 'A', value: '2' }];
      await custom.replaceNamespacedCustomObject({
        ...where(asV1),
        namespace: NS,
        name: 'roundtrip',
        body: asV1,
      });
      const after = await read(obj, 'v1alpha2');
      expect(after.spec.providers).toEqual(obj.spec.providers);
      expect(after.spec.resources).toEqual(obj.spec.resources);
      expect(after.spec.networking.expose).toEqual({
        hostname: 'llama.example.com',
      });
      expect(after.spec.workload.overrides.env).toEqual([
        { name: 'A', value: '2' },
      ]);
    });
  });

  describe('printer columns', () => {
    const columns = async (path: string) => {
      const table = await getAs(
        cluster.kubeConfig(),
        path,
        'application/json;as=Table;v=v1;g=meta.k8s.io',
      );
      expect(table.status).toBe(200);
      return table.body.columnDefinitions.map(
        (c: any) => `${c.name}${c.priority ? ` (wide)` : ''}`,
      );
    };

    it('are those of seed 003 for Models', async () => {
      expect(
        await columns(
          `/apis/models.airunway.ai/v1alpha1/namespaces/${NS}/models`,
        ),
      ).toEqual(['Name', 'Phase', 'Version', 'Size', 'Progress (wide)', 'Age']);
    });

    it('are those of seed 004 for v1alpha2 and of upstream for v1alpha1', async () => {
      expect(
        await columns(
          `/apis/llamastack.io/v1alpha2/namespaces/${NS}/llamastackdistributions`,
        ),
      ).toEqual([
        'Name',
        'Phase',
        'Distribution (wide)',
        'Config (wide)',
        'Providers',
        'Available',
        'Age',
      ]);
      expect(
        await columns(
          `/apis/llamastack.io/v1alpha1/namespaces/${NS}/llamastackdistributions`,
        ),
      ).toEqual([
        'Name',
        'Phase',
        'Operator Version',
        'Server Version',
        'Available',
        'Age',
      ]);
    });
  });

  describe('checkStackReferences with lookups backed by the API server', () => {
    /** Existence only: a metadata-only GET, so the Secret's data never leaves the API server. */
    const lookup = (): StackReferenceLookup => ({
      async secretExists(namespace, name) {
        const res = await getAs(
          cluster.kubeConfig(),
          `/api/v1/namespaces/${namespace}/secrets/${name}`,
          'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
        );
        if (res.status === 404) return false;
        if (res.status !== 200)
          throw new Error(
            `reading Secret ${namespace}/${name}: HTTP ${res.status}`,
          );
        expect(res.body.data).toBeUndefined();
        return true;
      },
      async configMapKeys(namespace, name) {
        try {
          const cm = await core.readNamespacedConfigMap({ namespace, name });
          return Object.keys(cm.data ?? {});
        } catch (e) {
          if ((e as { code?: number }).code === 404) return undefined;
          throw e;
        }
      },
    });

    it('finds missing Secrets and ConfigMaps, then nothing once they exist', async () => {
      const stack = {
        ...stackV2('refs', {
          providers: {
            inference: [
              {
                provider: 'vllm',
                apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
              },
            ],
          },
          networking: { tls: { caBundle: { configMapName: 'custom-ca' } } },
        }),
        metadata: { name: 'refs', namespace: NS },
      };
      const before = await checkStackReferences(stack as any, lookup());
      expect(before.map(i => i.path)).toEqual([
        'spec.providers.inference[0].apiKey.secretKeyRef.name',
        'spec.networking.tls.caBundle.configMapName',
      ]);

      await core.createNamespacedSecret({
        namespace: NS,
        body: { metadata: { name: 'vllm-creds' }, stringData: { token: 't' } },
      });
      await core.createNamespacedConfigMap({
        namespace: NS,
        body: {
          metadata: { name: 'custom-ca' },
          data: { 'ca-bundle.crt': 'pem' },
        },
      });
      await waitFor(
        'the Secret and ConfigMap to be visible',
        async () =>
          (await checkStackReferences(stack as any, lookup())).length === 0,
      );
    });
  });
});
