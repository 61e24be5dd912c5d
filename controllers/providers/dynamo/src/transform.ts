/**
 * ModelDeployment → DynamoGraphDeployment, for both API versions Dynamo has
 * stored: v1alpha1 (`spec.services` map, `extraPodSpec.mainContainer`, a
 * `/bin/sh -c` command as in seed 000 section 4.2) and v1beta1
 * (`spec.components` list with full pod templates, as Dynamo's current
 * examples). Pure: the same input gives the same object. The shared loop
 * adds namespace, owner reference and labels.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  DEFAULT_GPU_RESOURCE,
  containerVolumeMounts,
  defaultImage,
  gpuResourceName,
  podVolumes,
  type ModelDeployment,
  type ModelDeploymentSpec,
  type MountableVolume,
} from '@runway-portal/plugin-runway-common';
import {
  TransformError,
  huggingFaceTokenEnvFrom,
  modelServerEnv,
  podStorageOf,
} from '@runway-portal/provider-shared';
import {
  DYNAMO_ENGINES,
  type DynamoApiVersion,
  type DynamoEngine,
  type WorkerRole,
  shellCommand,
  workerCommand,
} from './engine';
import { type DynamoOverrides, readDynamoOverrides } from './overrides';

export const DYNAMO_GROUP = 'nvidia.com';
export const DGD_KIND = 'DynamoGraphDeployment';
export const DGD_PLURAL = 'dynamographdeployments';
/** The Dynamo release whose runtime images are the defaults (runway-common's image table). */
export { DYNAMO_RUNTIME_VERSION } from '@runway-portal/plugin-runway-common';
/** The frontend's HTTP port; its Service is `<name>-frontend` (seed 000 section 4.14). */
export const FRONTEND_PORT = 8000;

/** The engine's runtime image from runway-common's image table (TensorRT-LLM is `tensorrtllm-runtime`, not the seed's `trtllm-runtime`). */
export function defaultDynamoImage(engine: DynamoEngine): string {
  return defaultImage('dynamo', engine);
}

export type Json = Record<string, unknown>;

export interface DynamoTransform {
  object: KubeObject;
  /** Settings the engine ignores, each naming the field. */
  warnings: string[];
}

interface Worker {
  name: string;
  role: WorkerRole;
  replicas: number;
  gpus: number;
  memory?: string;
  cpu?: string;
}

const WORKER_PREFIX: Record<DynamoEngine, string> = {
  vllm: 'Vllm',
  sglang: 'Sglang',
  trtllm: 'Trtllm',
};

/** Worker groups: one aggregated group, or a prefill and a decode group. */
export function workersOf(
  spec: ModelDeploymentSpec,
  engine: DynamoEngine,
): Worker[] {
  const prefix = WORKER_PREFIX[engine];
  const quantity = (q: string | number | undefined) =>
    q === undefined ? undefined : String(q);
  if (spec.serving?.mode === 'disaggregated') {
    const group = (role: 'prefill' | 'decode', name: string): Worker => {
      const s = spec.scaling?.[role];
      return {
        name,
        role,
        replicas: s?.replicas ?? 1,
        gpus: s?.gpu?.count ?? 0,
        memory: quantity(s?.memory),
      };
    };
    return [
      group('prefill', `${prefix}PrefillWorker`),
      group('decode', `${prefix}DecodeWorker`),
    ];
  }
  return [
    {
      name: `${prefix}Worker`,
      role: 'aggregated',
      replicas: spec.scaling?.replicas ?? 1,
      gpus: spec.resources?.gpu?.count ?? 0,
      memory: quantity(spec.resources?.memory),
      cpu: quantity(spec.resources?.cpu),
    },
  ];
}

function imageOf(spec: ModelDeploymentSpec, engine: DynamoEngine): string {
  return spec.engine?.image || spec.image || defaultDynamoImage(engine);
}

/** Pod-level settings shared by all components: node selector, tolerations. */
function podScheduling(spec: ModelDeploymentSpec): Json {
  const pod: Json = {};
  if (spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0)
    pod.nodeSelector = spec.nodeSelector;
  if (spec.tolerations && spec.tolerations.length > 0)
    pod.tolerations = spec.tolerations;
  return pod;
}

function podMetadata(spec: ModelDeploymentSpec): Json | undefined {
  const meta = spec.podTemplate?.metadata;
  const out: Json = {};
  if (meta?.labels && Object.keys(meta.labels).length > 0)
    out.labels = meta.labels;
  if (meta?.annotations && Object.keys(meta.annotations).length > 0)
    out.annotations = meta.annotations;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Storage of the workers (never the frontend: it loads no weights). A writable
 * compilationCache volume goes to Dynamo's own compilation-cache field (the
 * operator then sets the backend's cache variables); every other volume is
 * a plain pod volume, which also carries `readOnly` (Dynamo's
 * `volumeMounts` cannot).
 */
interface WorkerStorage {
  compilationCache?: MountableVolume;
  volumes: MountableVolume[];
  /** HF_HOME at the model cache, unless spec.env sets it. */
  env: Array<{ name: string; value: string }>;
}

function workerStorage(md: ModelDeployment): WorkerStorage {
  // Dynamo's backends get VLLM_CACHE_ROOT from its compilation-cache field, not from us.
  const { volumes, env } = podStorageOf(md, { runsVllm: false });
  const compilationCache = volumes.find(
    v => v.purpose === 'compilationCache' && !v.readOnly,
  );
  return {
    compilationCache,
    volumes: volumes.filter(v => v !== compilationCache),
    env,
  };
}

/** The user's env, then what storage implies. */
function workerEnv(
  spec: ModelDeploymentSpec,
  storage: WorkerStorage,
): unknown[] | undefined {
  const env = modelServerEnv(spec, storage);
  return env.length > 0 ? env : undefined;
}

/** Pod volumes and the main container's mounts, or nothing. */
function podStorage(storage: WorkerStorage): {
  volumes?: unknown[];
  volumeMounts?: unknown[];
} {
  if (storage.volumes.length === 0) return {};
  return {
    volumes: podVolumes(storage.volumes),
    volumeMounts: containerVolumeMounts(storage.volumes),
  };
}

function routerEnv(overrides: DynamoOverrides) {
  // Dynamo's frontend reads its routing strategy from DYN_ROUTER_MODE.
  return [{ name: 'DYN_ROUTER_MODE', value: overrides.routerMode }];
}

function withoutUndefined<T extends Json>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as T;
}

// ---- v1alpha1 ----

function v1alpha1Services(
  md: ModelDeployment,
  engine: DynamoEngine,
  overrides: DynamoOverrides,
  storage: WorkerStorage,
  warnings: string[],
): Json {
  const spec = md.spec;
  const name = md.metadata?.name ?? '';
  const image = imageOf(spec, engine);
  const secret = spec.secrets?.huggingFaceToken || undefined;
  const extraPodMetadata = podMetadata(spec);
  const gpuType =
    gpuResourceName(spec) === DEFAULT_GPU_RESOURCE
      ? undefined
      : gpuResourceName(spec);
  const cache = storage.compilationCache;

  const services: Json = {
    Frontend: withoutUndefined({
      componentType: 'frontend',
      dynamoNamespace: name,
      replicas: overrides.frontend.replicas,
      envFromSecret: secret,
      envs: routerEnv(overrides),
      extraPodMetadata,
      resources: {
        requests: {
          cpu: overrides.frontend.resources.cpu,
          memory: overrides.frontend.resources.memory,
        },
      },
      extraPodSpec: { ...podScheduling(spec), mainContainer: { image } },
    }),
  };
  for (const worker of workersOf(spec, engine)) {
    const command = workerCommand(
      engine,
      spec,
      worker.role,
      worker.gpus,
      'v1alpha1',
    );
    warnings.push(...command.warnings);
    // Fresh lists per worker: the objects are serialised, never shared.
    const { volumes, volumeMounts } = podStorage(storage);
    services[worker.name] = withoutUndefined({
      componentType: 'worker',
      subComponentType: worker.role === 'aggregated' ? undefined : worker.role,
      dynamoNamespace: name,
      replicas: worker.replicas,
      envFromSecret: secret,
      envs: workerEnv(spec, storage),
      extraPodMetadata,
      resources: withoutUndefined({
        limits: withoutUndefined({
          gpu: String(worker.gpus),
          gpuType,
          memory: worker.memory,
        }),
        requests: worker.cpu ? { cpu: worker.cpu } : undefined,
      }),
      volumeMounts: cache
        ? [
            {
              name: cache.claimName,
              mountPoint: cache.mountPath,
              useAsCompilationCache: true,
            },
          ]
        : undefined,
      extraPodSpec: withoutUndefined({
        ...podScheduling(spec),
        volumes,
        mainContainer: withoutUndefined({
          image,
          command: ['/bin/sh', '-c'],
          args: [shellCommand(command)],
          volumeMounts,
        }),
      }),
    });
  }
  return services;
}

// ---- v1beta1 ----

function v1beta1Components(
  md: ModelDeployment,
  engine: DynamoEngine,
  overrides: DynamoOverrides,
  storage: WorkerStorage,
  warnings: string[],
): Json[] {
  const spec = md.spec;
  const image = imageOf(spec, engine);
  // A fresh list per container: the object is serialised, never shared.
  const envFrom = () => huggingFaceTokenEnvFrom(spec);
  const metadata = podMetadata(spec);
  const gpuResource = gpuResourceName(spec);
  const cache = storage.compilationCache;

  const components: Json[] = [
    {
      name: 'Frontend',
      type: 'frontend',
      replicas: overrides.frontend.replicas,
      podTemplate: withoutUndefined({
        metadata,
        spec: {
          ...podScheduling(spec),
          containers: [
            withoutUndefined({
              name: 'main',
              image,
              env: routerEnv(overrides),
              envFrom: envFrom(),
              resources: {
                requests: {
                  cpu: overrides.frontend.resources.cpu,
                  memory: overrides.frontend.resources.memory,
                },
              },
            }),
          ],
        },
      }),
    },
  ];
  for (const worker of workersOf(spec, engine)) {
    const command = workerCommand(
      engine,
      spec,
      worker.role,
      worker.gpus,
      'v1beta1',
    );
    warnings.push(...command.warnings);
    const limits: Json = withoutUndefined({ memory: worker.memory });
    if (worker.gpus > 0) limits[gpuResource] = String(worker.gpus);
    const { volumes, volumeMounts } = podStorage(storage);
    components.push(
      withoutUndefined({
        name: worker.name,
        type: worker.role === 'aggregated' ? 'worker' : worker.role,
        replicas: worker.replicas,
        compilationCache: cache
          ? { pvcName: cache.claimName, mountPath: cache.mountPath }
          : undefined,
        podTemplate: withoutUndefined({
          metadata,
          spec: withoutUndefined({
            ...podScheduling(spec),
            volumes,
            containers: [
              withoutUndefined({
                name: 'main',
                image,
                command: ['python3', '-m', command.module],
                args: command.args,
                env: workerEnv(spec, storage),
                envFrom: envFrom(),
                resources: withoutUndefined({
                  limits: Object.keys(limits).length > 0 ? limits : undefined,
                  requests: worker.cpu ? { cpu: worker.cpu } : undefined,
                }),
                volumeMounts,
              }),
            ],
          }),
        }),
      }),
    );
  }
  return components;
}

/**
 * Builds the DynamoGraphDeployment for a resolved ModelDeployment (defaults
 * applied, engine filled in) in the given API version. Throws
 * TransformError for input Dynamo cannot run.
 */
export function buildDynamoGraphDeployment(
  md: ModelDeployment,
  version: DynamoApiVersion,
): DynamoTransform {
  const engine = md.spec?.engine?.type;
  if (!engine || !(DYNAMO_ENGINES as readonly string[]).includes(engine)) {
    throw new TransformError(
      'spec.engine.type',
      `${JSON.stringify(
        engine ?? '',
      )} cannot run on Dynamo: use vllm, sglang or trtllm`,
    );
  }
  const dynamoEngine = engine as DynamoEngine;
  const overrides = readDynamoOverrides(md.spec.provider?.overrides);
  const storage = workerStorage(md);
  const warnings: string[] = [];
  const spec: Json = { backendFramework: dynamoEngine };
  if (version === 'v1alpha1') {
    spec.services = v1alpha1Services(
      md,
      dynamoEngine,
      overrides,
      storage,
      warnings,
    );
    // v1alpha1 components mount a compilation cache by reference to the graph's PVC list.
    if (storage.compilationCache)
      spec.pvcs = [{ name: storage.compilationCache.claimName, create: false }];
  } else {
    spec.components = v1beta1Components(
      md,
      dynamoEngine,
      overrides,
      storage,
      warnings,
    );
  }
  return {
    object: {
      apiVersion: `${DYNAMO_GROUP}/${version}`,
      kind: DGD_KIND,
      metadata: { name: md.metadata?.name },
      spec,
    },
    warnings,
  };
}

/** The frontend Service Dynamo creates for a graph deployment (seed 000 section 4.2). */
export function frontendEndpoint(md: ModelDeployment): {
  service: string;
  port: number;
} {
  return { service: `${md.metadata?.name}-frontend`, port: FRONTEND_PORT };
}
