/**
 * The floor of issue 21's end-to-end target: what the API server alone
 * needs for the writes every deployment makes on its way to
 * `ResourceCreated`, replayed by one client with no controller, no webhook
 * and no watcher doing anything else. No implementation of the same
 * behaviour on the same machine can be faster than this.
 *
 * The writes go to copies of the real CRDs (the ModelDeployment CRD
 * Runway installs, and KAITO's Workspace) under another API group, so
 * the running controllers, webhooks and simulators never see them, and
 * the floor can be measured in the same run as the real thing.
 */
import {
  Events,
  type KubeClient,
  type KubeObject,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import type { TestCluster } from '@runway-portal/e2e-cluster';
import { OBSERVED_IDENTITY_ANNOTATION } from '@runway-portal/plugin-runway-common';
import { providerFinalizer } from '@runway-portal/provider-shared';
import { inParallel, timed } from '@runway-portal/e2e-testing';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { modelDeployment } from '../src/workloads';

/** The API group of the copies: no controller of the system watches it. */
const FLOOR_GROUP = 'floor.bench.airunway.ai';

const REPO = resolve(__dirname, '../../..');
const DEPLOYMENTS_CRD = join(
  REPO,
  'controllers/deploy/crds/airunway.ai_modeldeployments.yaml',
);
const WORKSPACES_CRD = join(
  REPO,
  'e2e/simulators/upstream-crds/kaito-kaito.sh_workspaces.yaml',
);

/**
 * Writes the CRD of `file` moved to FLOOR_GROUP (schema and CEL rules
 * unchanged) into `dir`; returns the file and the copy's resource at the
 * version the original stores.
 */
function floorCopy(
  file: string,
  dir: string,
): { file: string; rt: ResourceType } {
  const crd = parseAllDocuments(readFileSync(file, 'utf8'))
    .map(d => d.toJSON())
    .find(d => d?.kind === 'CustomResourceDefinition');
  const { plural, kind } = crd.spec.names;
  const copy = join(dir, `${plural}.yaml`);
  writeFileSync(
    copy,
    stringify({
      ...crd,
      metadata: { name: `${plural}.${FLOOR_GROUP}` },
      spec: { ...crd.spec, group: FLOOR_GROUP },
    }),
  );
  return {
    file: copy,
    rt: {
      group: FLOOR_GROUP,
      version: (crd.spec.versions as Array<any>).find(v => v.storage).name,
      plural,
      kind,
      namespaced: true,
    },
  };
}

/** Installs the copies into `cluster`; returns their resources. */
export async function installFloorCrds(
  cluster: TestCluster,
): Promise<{ deployments: ResourceType; upstream: ResourceType }> {
  const dir = mkdtempSync(join(tmpdir(), 'runway-floor-crds-'));
  const deployments = floorCopy(DEPLOYMENTS_CRD, dir);
  const upstream = floorCopy(WORKSPACES_CRD, dir);
  await cluster.installCrds([deployments.file, upstream.file]);
  return { deployments: deployments.rt, upstream: upstream.rt };
}

const condition = (
  type: string,
  status: string,
  reason: string,
  message: string,
) => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: new Date().toISOString(),
  observedGeneration: 1,
});

/** A deployment's identity and the apiVersion its CRD serves it at. */
export interface DeploymentRef {
  apiVersion: string;
  name: string;
  namespace: string;
}

const KIND = 'ModelDeployment';

/** The core's metadata apply: the provider label and the observed identity. */
export function coreMetadata(ref: DeploymentRef, label = 'kaito'): KubeObject {
  return {
    apiVersion: ref.apiVersion,
    kind: KIND,
    metadata: {
      name: ref.name,
      namespace: ref.namespace,
      labels: { 'airunway.ai/provider': label },
      annotations: {
        [OBSERVED_IDENTITY_ANNOTATION]: JSON.stringify({
          'model.id': 'google/gemma-3-1b-it-qat-q8_0-gguf',
          'engine.type': 'llamacpp',
          'provider.name': 'kaito',
        }),
      },
    },
  };
}

/** The core's first status: engine, provider and four conditions. */
export function coreStatus(ref: DeploymentRef): KubeObject {
  return {
    apiVersion: ref.apiVersion,
    kind: KIND,
    metadata: { name: ref.name, namespace: ref.namespace },
    status: {
      observedGeneration: 1,
      engine: {
        type: 'llamacpp',
        selectedReason: 'specified in spec.engine.type',
      },
      provider: {
        name: 'kaito',
        selectedReason: 'CPU inference with llama.cpp: kaito',
      },
      conditions: [
        condition(
          'Validated',
          'True',
          'ValidationPassed',
          'Spec validation passed',
        ),
        condition(
          'EngineSelected',
          'True',
          'Specified',
          'Engine llamacpp specified in spec.engine.type',
        ),
        condition(
          'ProviderSelected',
          'True',
          'AutoSelected',
          "Selected provider 'kaito': CPU inference with llama.cpp",
        ),
        condition(
          'GatewayReady',
          'False',
          'WaitingForProvider',
          `Waiting for the model's Service from provider 'kaito' (status.endpoint.service, in namespace '${ref.namespace}'): the InferencePool selects the pods behind it`,
        ),
      ],
    },
  };
}

/** The provider's status once the upstream resource exists: phase, endpoint, replicas, three conditions. */
export function providerStatus(
  ref: DeploymentRef,
  message = 'Waiting for KAITO to deploy the workspace',
): KubeObject {
  return {
    apiVersion: ref.apiVersion,
    kind: KIND,
    metadata: { name: ref.name, namespace: ref.namespace },
    status: {
      phase: 'Deploying',
      message,
      provider: { resourceName: ref.name, resourceKind: 'Workspace' },
      replicas: { desired: 1, ready: 0, available: 0 },
      endpoint: { service: ref.name, port: 80 },
      conditions: [
        condition(
          'ProviderCompatible',
          'True',
          'Compatible',
          'Engine llamacpp is supported by kaito',
        ),
        condition(
          'ResourceCreated',
          'True',
          'ResourceCreated',
          `Created Workspace '${ref.name}'`,
        ),
        condition('Ready', 'False', 'Deploying', message),
      ],
    },
  };
}

/** An Event about the deployment, as the runtime's event recorder writes one. */
export function deploymentEvent(
  ref: DeploymentRef,
  uid: string | undefined,
  reason: string,
  message: string,
  name = `${ref.name}.${reason.toLowerCase()}`,
): KubeObject {
  const now = new Date().toISOString();
  return {
    metadata: { name, namespace: ref.namespace },
    involvedObject: {
      apiVersion: ref.apiVersion,
      kind: KIND,
      name: ref.name,
      namespace: ref.namespace,
      uid,
    },
    type: 'Normal',
    reason,
    message,
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
    source: { component: 'airunway-core' },
  } as KubeObject;
}

/**
 * The writes of one deployment until `ResourceCreated`, in the order the
 * core and a provider make them, with bodies of the same shape and size
 * (`bench:writes` prints the real ones): the create; the core's label
 * and observed-identity annotation, its status (engine, provider, four
 * conditions) and the ProviderSelected Event; the provider's finalizer,
 * the upstream object (a Workspace owned by the deployment), its status
 * (phase, endpoint, replicas, three conditions) and the ResourceCreated
 * Event.
 */
export async function floorWrites(
  client: KubeClient,
  rts: { deployments: ResourceType; upstream: ResourceType },
  i: number,
  namespace: string,
): Promise<void> {
  const md = modelDeployment(i, namespace);
  const ref: DeploymentRef = {
    apiVersion: `${FLOOR_GROUP}/${rts.deployments.version}`,
    name: md.metadata.name,
    namespace,
  };
  const created = await client.create(rts.deployments, {
    ...md,
    apiVersion: ref.apiVersion,
  } as KubeObject);
  const uid = created.metadata!.uid!;
  const core = { fieldManager: 'airunway-core', force: true };
  const provider = { fieldManager: 'airunway-provider-kaito', force: true };
  await client.apply(rts.deployments, coreMetadata(ref), core);
  await client.apply(rts.deployments, coreStatus(ref), {
    ...core,
    subresource: 'status',
  });
  const event = (reason: string, message: string) =>
    client.create(Events, deploymentEvent(ref, uid, reason, message));
  await event(
    'ProviderSelected',
    "Selected provider 'kaito': CPU inference with llama.cpp",
  );
  await client.apply(
    rts.deployments,
    {
      apiVersion: ref.apiVersion,
      kind: KIND,
      metadata: {
        name: ref.name,
        namespace,
        finalizers: [providerFinalizer('kaito')],
      },
    },
    { fieldManager: provider.fieldManager },
  );
  await client.apply(rts.upstream, workspace(ref, rts.upstream, uid), provider);
  await client.apply(rts.deployments, providerStatus(ref), {
    ...provider,
    subresource: 'status',
  });
  await event('ResourceCreated', `Created Workspace '${ref.name}'`);
}

/** The Workspace the KAITO provider writes for a llama.cpp deployment, owned by it. */
function workspace(
  ref: DeploymentRef,
  rt: ResourceType,
  uid: string,
): KubeObject {
  return {
    apiVersion: `${rt.group}/${rt.version}`,
    kind: 'Workspace',
    metadata: {
      name: ref.name,
      namespace: ref.namespace,
      labels: { 'kaito.sh/model-source': 'huggingface' },
      ownerReferences: [
        {
          apiVersion: ref.apiVersion,
          kind: KIND,
          name: ref.name,
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    resource: {
      count: 1,
      labelSelector: { matchLabels: { 'kubernetes.io/os': 'linux' } },
    },
    inference: {
      template: {
        spec: {
          containers: [
            {
              name: 'model',
              image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
              args: [
                '--model',
                'google/gemma-3-1b-it-qat-q8_0-gguf',
                '--port',
                '5000',
              ],
              ports: [{ containerPort: 5000 }],
              resources: { requests: { cpu: '8', memory: '16Gi' } },
            },
          ],
        },
      },
    },
  } as KubeObject;
}

/** How many requests `floorWrites` makes per deployment. */
export const FLOOR_WRITES_PER_DEPLOYMENT = 8;

/** Seconds for `count` deployments' floor writes, `concurrency` deployments at a time. */
export function floorRound(
  client: KubeClient,
  rts: { deployments: ResourceType; upstream: ResourceType },
  count: number,
  concurrency: number,
  namespace: string,
): Promise<number> {
  return timed(() =>
    inParallel(count, concurrency, i => floorWrites(client, rts, i, namespace)),
  );
}
