/**
 * The generated deployments CRDs in a real API server: they install, accept
 * every upstream sample and the built-in registrations, enforce the schema,
 * and enforce each CEL rule with the same message the local validator gives.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { request } from 'node:https';
import {
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
// eslint-disable-next-line @backstage/no-mixed-plugin-imports -- test-only: the real-cluster harness (a devDependency)
import {
  apiErrorMessage,
  startCluster,
  type TestCluster,
} from '@runway-portal/e2e-cluster';
import { parse, parseAllDocuments } from 'yaml';
import { applySchemaDefaults } from '../schema/defaults';
import { CRD_DIR, crdFileName } from '../crd/files';
import { inferenceProviderConfigCrd, modelDeploymentCrd } from './crd';
import { BUILT_IN_PROVIDERS } from './providers';
import {
  SEED_FLAT_PROVIDER_CONFIG_YAML,
  SEED_THIRD_PARTY_PROVIDER_CONFIG_YAML,
} from './testing';
import {
  ENGINE_TYPE_IMMUTABLE_RULE,
  MODEL_DEPLOYMENT_SPEC_RULES,
  MODEL_RULE,
  ModelDeploymentSpecSchema,
} from './schema';
import { validateModelDeployment, validateProviderConfig } from './validate';

jest.setTimeout(120_000);

const REPO = resolve(__dirname, '../../../..');
const UPSTREAM = resolve(REPO, '../shared/upstream/airunway');
const GROUP = 'airunway.ai';
const VERSION = 'v1alpha1';

type Json = Record<string, any>;

function documents(file: string): Json[] {
  return parseAllDocuments(readFileSync(resolve(UPSTREAM, file), 'utf8'))
    .map(d => d.toJSON())
    .filter(Boolean);
}

/** GET with the admin credentials and a chosen Accept header (client-node has no Table call). */
async function getJson(
  cluster: TestCluster,
  path: string,
  accept: string,
): Promise<Json> {
  const options: Parameters<typeof request>[1] = {
    method: 'GET',
    headers: { Accept: accept },
  };
  await cluster.kubeConfig().applyToHTTPSOptions(options);
  return new Promise((resolvePromise, reject) => {
    const req = request(new URL(path, cluster.server), options, res => {
      let body = '';
      res.on('data', chunk => {
        body += chunk;
      });
      res.on('end', () => {
        try {
          resolvePromise(JSON.parse(body));
        } catch (e) {
          reject(
            new Error(
              `GET ${path}: HTTP ${res.statusCode}: ${body.slice(0, 200)}`,
            ),
          );
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${++counter}`;

/** Awaits a call expected to fail; returns the HTTP code and the API server's message. */
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

describe('deployments CRDs in a real cluster', () => {
  let cluster: TestCluster;
  let custom: CustomObjectsApi;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'runway-common-deployments',
      crds: [modelDeploymentCrd, inferenceProviderConfigCrd].map(def =>
        resolve(REPO, CRD_DIR, crdFileName(def)),
      ),
    });
    custom = cluster.kubeConfig().makeApiClient(CustomObjectsApi);
  }, 30 * 60_000);
  afterAll(() => cluster?.stop());

  const createDeployment = (body: Json) =>
    custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: 'default',
      plural: 'modeldeployments',
      body,
    }) as Promise<Json>;
  const createProvider = (body: Json) =>
    custom.createClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'inferenceproviderconfigs',
      body,
    }) as Promise<Json>;
  const deploymentWith = (spec: Json, name = uniqueName('md')): Json => ({
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'ModelDeployment',
    metadata: { name },
    spec,
  });
  const gpuSpec = (patch: Json = {}): Json => ({
    model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
    engine: { type: 'vllm' },
    resources: { gpu: { count: 1 }, memory: '32Gi' },
    ...patch,
  });

  it('accepts every upstream ModelDeployment sample', async () => {
    const samples = [
      ...documents('airunway_v1alpha1_modeldeployment.yaml'),
      ...documents('airunway_v1alpha1_modeldeployment_llmd.yaml'),
    ];
    expect(samples).toHaveLength(5);
    for (const sample of samples) {
      const created = await createDeployment({
        ...sample,
        metadata: { ...sample.metadata, namespace: 'default' },
      });
      expect(created.metadata.uid).toBeTruthy();
    }
  });

  it('accepts every upstream InferenceProviderConfig sample and the built-in registrations', async () => {
    const samples = documents('airunway_v1alpha1_inferenceproviderconfig.yaml');
    for (const sample of samples) {
      const created = await createProvider({
        ...sample,
        metadata: {
          ...sample.metadata,
          name: `upstream-${sample.metadata.name}`,
        },
      });
      expect(created.metadata.uid).toBeTruthy();
    }
    for (const registration of BUILT_IN_PROVIDERS) {
      const created = await createProvider(registration);
      // Nothing was pruned: every field we register is declared in the CRD.
      expect(created.spec).toEqual(
        applySchemaDefaults(
          inferenceProviderConfigCrd.versions[0].schema,
          registration,
        ).spec,
      );
    }
  });

  it("accepts seed 000's flat-form InferenceProviderConfig (section 3.9) and the third-party one with engine custom (section 3.14), keeping engines as written", async () => {
    for (const yaml of [
      SEED_FLAT_PROVIDER_CONFIG_YAML,
      SEED_THIRD_PARTY_PROVIDER_CONFIG_YAML,
    ]) {
      const seed = parse(yaml) as Json;
      expect(validateProviderConfig(seed)).toEqual({ valid: true, issues: [] });
      // Another name: the built-in registrations (kaito) are created above.
      const body: Json = {
        ...seed,
        metadata: { name: `seed-${seed.metadata.name}` },
      };
      const dryRun = (await custom.createClusterCustomObject({
        group: GROUP,
        version: VERSION,
        plural: 'inferenceproviderconfigs',
        body,
        dryRun: 'All',
      })) as Json;
      expect(dryRun.spec).toEqual(
        applySchemaDefaults(inferenceProviderConfigCrd.versions[0].schema, body)
          .spec,
      );
      expect(dryRun.spec.capabilities.engines).toEqual(
        body.spec.capabilities.engines,
      );
    }
  });

  it('accepts a custom-engine deployment with an image (the CEL rule refuses one without)', async () => {
    const created = await createDeployment(
      deploymentWith({
        model: { id: 'newframework/tiny', source: 'custom' },
        engine: { type: 'custom' },
        provider: { name: 'newframework' },
        image: 'ghcr.io/example/newframework-server:1.0',
      }),
    );
    expect(created.spec.engine.type).toBe('custom');
  });

  it('accepts whole-number quantities where upstream only takes strings (int-or-string)', async () => {
    const spec = {
      model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
      engine: { type: 'vllm' },
      serving: { mode: 'disaggregated' },
      scaling: {
        prefill: { gpu: { count: 1 }, memory: 68719476736 },
        decode: { gpu: { count: 1 }, memory: '64Gi' },
      },
    };
    const created = await createDeployment(deploymentWith(spec));
    expect(created.spec.scaling.prefill.memory).toBe(68719476736);
    expect(validateModelDeployment(deploymentWith(spec)).valid).toBe(true);
  });

  it('applies the same defaults as applySchemaDefaults', async () => {
    const spec = gpuSpec({
      engine: {},
      model: {
        id: 'a/b',
        storage: { volumes: [{ name: 'v', claimName: 'c', mountPath: '/v' }] },
      },
      serving: {},
      scaling: { prefill: { gpu: {} } },
    });
    const created = await createDeployment(deploymentWith(spec));
    expect(created.spec).toEqual(
      applySchemaDefaults(ModelDeploymentSpecSchema, spec),
    );
    expect(created.spec.model.source).toBe('huggingface');
    expect(created.spec.engine).toEqual({
      trustRemoteCode: false,
      enablePrefixCaching: true,
      enforceEager: false,
    });
  });

  it.each([
    [
      'an unknown engine',
      gpuSpec({ engine: { type: 'tgi' } }),
      /spec\.engine\.type: Unsupported value: "tgi"/,
    ],
    [
      'a negative GPU count',
      gpuSpec({ resources: { gpu: { count: -1 } } }),
      /spec\.resources\.gpu\.count: Invalid value: -1/,
    ],
    [
      'a string replica count',
      gpuSpec({ scaling: { replicas: 'two' } }),
      /spec\.scaling\.replicas: Invalid value: "string"/,
    ],
    [
      'a missing model',
      { engine: { type: 'llamacpp' } },
      /spec\.model: Required value/,
    ],
    [
      'an invalid volume name',
      gpuSpec({
        model: {
          id: 'a/b',
          storage: { volumes: [{ name: 'Bad_Name', claimName: 'c' }] },
        },
      }),
      /spec\.model\.storage\.volumes\[0\]\.name: Invalid value: "Bad_Name"/,
    ],
    [
      'a bad size quantity',
      gpuSpec({
        model: {
          id: 'a/b',
          storage: { volumes: [{ name: 'v', size: 'lots' }] },
        },
      }),
      /spec\.model\.storage\.volumes\[0\]\.size/,
    ],
  ])('enforces the schema: rejects %s', async (_case, spec, message) => {
    const failure = await rejection(createDeployment(deploymentWith(spec)));
    expect(failure.code).toBe(422);
    expect(failure.message).toMatch(message);
  });

  const disaggregated = (scaling: Json) => ({
    model: { id: 'meta-llama/Llama-3.1-70B-Instruct' },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling,
  });
  const worker = { replicas: 1, gpu: { count: 2 }, memory: '64Gi' };
  const violations: Array<[string, Json]> = [
    [
      'vLLM engine requires GPU (set resources.gpu.count > 0)',
      gpuSpec({ resources: { gpu: { count: 0 } } }),
    ],
    [
      'SGLang engine requires GPU (set resources.gpu.count > 0)',
      gpuSpec({ engine: { type: 'sglang' }, resources: { memory: '8Gi' } }),
    ],
    [
      'TensorRT-LLM engine requires GPU (set resources.gpu.count > 0)',
      gpuSpec({ engine: { type: 'trtllm' }, resources: undefined }),
    ],
    [
      'Cannot specify both resources.gpu and scaling.prefill/decode',
      {
        ...disaggregated({ prefill: worker, decode: worker }),
        resources: { gpu: { count: 1 } },
      },
    ],
    [
      'Disaggregated mode requires scaling.prefill and scaling.decode',
      disaggregated({ decode: worker }),
    ],
    [
      'Disaggregated mode requires scaling.prefill.gpu.count',
      disaggregated({ prefill: { memory: '64Gi' }, decode: worker }),
    ],
    [
      'Disaggregated mode requires scaling.decode.gpu.count',
      disaggregated({
        prefill: worker,
        decode: { gpu: { count: 0 }, memory: '64Gi' },
      }),
    ],
    [
      'Disaggregated mode requires scaling.prefill.memory',
      disaggregated({ prefill: { gpu: { count: 1 } }, decode: worker }),
    ],
    [
      'Disaggregated mode requires scaling.decode.memory',
      disaggregated({ prefill: worker, decode: { gpu: { count: 1 } } }),
    ],
    [
      'engine.type custom requires an image: set spec.image to the container that runs your inference server (a custom engine has no default image)',
      gpuSpec({ engine: { type: 'custom' } }),
    ],
    [
      'model.id is required when source is huggingface',
      gpuSpec({ model: { source: 'huggingface' } }),
    ],
  ];

  it('covers every create-time CEL rule of the schema', () => {
    const rules = [...MODEL_DEPLOYMENT_SPEC_RULES, MODEL_RULE].map(
      r => r.message,
    );
    expect(violations.map(([message]) => message).sort()).toEqual(
      [...rules].sort(),
    );
  });

  it.each(violations)(
    'enforces the CEL rule "%s", as the local validator does',
    async (message, spec) => {
      const body = deploymentWith(spec);
      const failure = await rejection(createDeployment(body));
      expect(failure.code).toBe(422);
      expect(failure.message).toContain(message);
      expect(validateModelDeployment(body).issues).toContainEqual(
        expect.objectContaining({ message, severity: 'error' }),
      );
    },
  );

  it('enforces the CEL transition rule: engine.type is immutable once set', async () => {
    const name = uniqueName('immutable');
    await createDeployment(deploymentWith(gpuSpec(), name));
    const patch = (target: string, type: string) =>
      custom.patchNamespacedCustomObject(
        {
          group: GROUP,
          version: VERSION,
          namespace: 'default',
          plural: 'modeldeployments',
          name: target,
          body: { spec: { engine: { type } } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    const failure = await rejection(patch(name, 'sglang'));
    expect(failure.code).toBe(422);
    expect(failure.message).toContain(ENGINE_TYPE_IMMUTABLE_RULE.message);
    // Setting the same engine again, or an engine on a deployment that had none, is fine.
    await patch(name, 'vllm');
    const open = uniqueName('open');
    await createDeployment(deploymentWith(gpuSpec({ engine: {} }), open));
    const opened = (await patch(open, 'sglang')) as Json;
    expect(opened.spec.engine.type).toBe('sglang');
  });

  it('has a status subresource with an enforced schema', async () => {
    const name = uniqueName('status');
    const created = await createDeployment(deploymentWith(gpuSpec(), name));
    const replaceStatus = (base: Json, status: Json) =>
      custom.replaceNamespacedCustomObjectStatus({
        group: GROUP,
        version: VERSION,
        namespace: 'default',
        plural: 'modeldeployments',
        name,
        body: { ...base, status },
      }) as Promise<Json>;
    const updated = await replaceStatus(created, {
      phase: 'Running',
      provider: {
        name: 'dynamo',
        selectedReason: 'default → dynamo (GPU inference default)',
      },
      engine: {
        type: 'vllm',
        selectedReason: 'explicit engine selection (spec.engine.type)',
      },
      gateway: {
        endpoint: 'http://gw/v1',
        modelName: 'llama',
        apiFormats: ['openai-chat'],
      },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'DeploymentReady',
          message: 'All replicas are ready',
          lastTransitionTime: '2026-01-30T10:00:00Z',
        },
      ],
    });
    expect(updated.status.phase).toBe('Running');
    const failure = await rejection(
      replaceStatus(updated, { phase: 'Exploding' }),
    );
    expect(failure.message).toMatch(
      /status\.phase: Unsupported value: "Exploding"/,
    );
  });

  it('serves the short names, categories and printer columns', async () => {
    const discovery = (await custom.getAPIResources({
      group: GROUP,
      version: VERSION,
    })) as Json;
    const md = discovery.resources.find(
      (r: Json) => r.name === 'modeldeployments',
    );
    const ipc = discovery.resources.find(
      (r: Json) => r.name === 'inferenceproviderconfigs',
    );
    expect(md).toMatchObject({
      shortNames: ['md'],
      categories: ['runway'],
      namespaced: true,
    });
    expect(ipc).toMatchObject({
      shortNames: ['ipc'],
      categories: ['runway'],
      namespaced: false,
    });

    // What `kubectl get modeldeployments -o wide` shows: the API server's Table rendering.
    const table = await getJson(
      cluster,
      `/apis/${GROUP}/${VERSION}/namespaces/default/modeldeployments`,
      'application/json;as=Table;v=v1;g=meta.k8s.io',
    );
    expect(table.columnDefinitions.map((c: Json) => c.name)).toEqual([
      'Name',
      'Phase',
      'Provider',
      'Engine',
      'Replicas',
      'Model',
      'Endpoint',
      'Age',
    ]);
    const row = table.rows.find((r: Json) => r.cells[0] === 'llama-8b-example');
    expect(row.cells[5]).toBe('meta-llama/Llama-3.1-8B-Instruct');
  });
});
