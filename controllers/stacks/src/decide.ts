/**
 * What one reconcile of a stack should do, as a pure function of what the
 * reconciler looked up: resolve the distribution, check references, get or
 * generate the config, and either produce every object to apply or, on any
 * failure, produce none, so the running Deployment stays as it is (FR-097,
 * FR-101), with the reason in `ConfigGenerated`. Status and events come out
 * of the same call; events only on transitions.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  overrideConfigNamespace,
  type LlamaStackDistributionV1alpha2,
  type ValidationIssue,
} from '@runway-portal/plugin-runway-common';
import {
  resolveDistribution,
  type DistributionRegistry,
} from './config/distributions';
import { generateConfig, type SecretEnvVar } from './config/generate';
import type { HealthResult } from './health';
import type { ImageConfigLookup } from './oci/imageConfigs';
import {
  CONFIG_HASH_ANNOTATION,
  HEALTH_PATH,
  concatCaBundle,
  configMapName,
  desiredCaBundle,
  desiredConfigMap,
  desiredDeployment,
  desiredSatellites,
  portOf,
  serviceName,
  type MountedConfig,
  type ObjectOptions,
  type Stack,
} from './objects';

/** @public */
export const STACKS_FIELD_MANAGER = 'runway-stacks';
/** On the Deployment: the `spec.distribution` it was made for, to tell an operator upgrade from a user's change (FR-101). @public */
export const DISTRIBUTION_ANNOTATION = 'llamastack.io/distribution';

type Status = NonNullable<LlamaStackDistributionV1alpha2['status']>;
type Condition = NonNullable<Status['conditions']>[number];

/** @public */
export interface DecideInput {
  stack: Stack;
  registry: DistributionRegistry;
  imageOverrides?: Readonly<Record<string, string>>;
  /** Missing Secrets and ConfigMaps (runway-common's checkStackReferences). */
  referenceIssues: ValidationIssue[];
  /** How many Secret references the spec has (for SecretsResolved). */
  secretCount: number;
  /** The override ConfigMap's config text and key, when `overrideConfig` is set and it has one. */
  overrideConfig?: { key: string; text: string };
  /** The data of the CA bundle's ConfigMap (`networking.tls.caBundle`), when the stack has one. */
  caBundleData?: Readonly<Record<string, string>>;
  /**
   * What the resolved image's config labels gave (FR-027f..j; oci/imageConfigs.ts);
   * undefined when they were not read (overrideConfig, label reading off).
   */
  imageConfig?: Exclude<ImageConfigLookup, { state: 'pending' }>;
  /** The server's answer on /v1/health (health.ts); undefined when no pod with the current config was probed. */
  health?: HealthResult;
  /** What runs now. */
  live: { deployment?: KubeObject; service?: KubeObject; pvc?: KubeObject };
  now: string;
  objectOptions?: ObjectOptions;
}

/** @public */
export interface StackEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** @public */
export interface Decision {
  status: Status;
  events: StackEvent[];
  /** The objects to apply; undefined when nothing may be written (a failure keeps what runs). */
  writes?: {
    configMap?: KubeObject;
    /** The managed CA bundle (`{name}-ca-bundle`), applied before the Deployment. */
    caBundle?: KubeObject;
    deployment: KubeObject;
    satellites: ReturnType<typeof desiredSatellites>;
  };
  /** The ConfigMap the Deployment should use (for garbage collection of older ones). */
  currentConfigMap?: string;
}

const sha256 = (text: string) =>
  `sha256:${createHash('sha256').update(text).digest('hex')}`;

function condition(
  previous: Condition[] | undefined,
  now: string,
  generation: number | undefined,
  type: string,
  ok: boolean,
  reason: string,
  message: string,
): Condition {
  const before = previous?.find(c => c.type === type);
  const status = ok ? 'True' : 'False';
  return {
    type,
    status,
    reason,
    message,
    observedGeneration: generation,
    // The transition time moves only when the status does (API conventions).
    lastTransitionTime:
      before && before.status === status ? before.lastTransitionTime : now,
  } as Condition;
}

/** The image the live Deployment's server container runs. @public */
export function liveImage(
  deployment: KubeObject | undefined,
): string | undefined {
  return (deployment as any)?.spec?.template?.spec?.containers?.[0]?.image;
}

function liveHash(deployment: KubeObject | undefined): string | undefined {
  return (deployment as any)?.spec?.template?.metadata?.annotations?.[
    CONFIG_HASH_ANNOTATION
  ];
}

/** The Available condition and the replica counts, from the live Deployment and the config it should run. */
function availability(
  deployment: KubeObject | undefined,
  wantedHash: string | undefined,
) {
  const st = (deployment as any)?.status ?? {};
  const desired: number =
    (deployment as any)?.spec?.replicas ?? st.replicas ?? 1;
  const available: number = st.availableReplicas ?? 0;
  const updated: number = st.updatedReplicas ?? 0;
  const current =
    wantedHash !== undefined && liveHash(deployment) === wantedHash;
  const observed =
    (deployment as any)?.metadata?.generation === undefined ||
    st.observedGeneration >= (deployment as any).metadata.generation;
  if (!deployment)
    return {
      ok: false,
      reason: 'ReplicasUnavailable',
      message: '0/0 replicas available',
      available: 0,
    };
  if (current && observed && available >= 1 && updated >= 1) {
    return {
      ok: true,
      reason: 'MinimumReplicasAvailable',
      message: `${available}/${desired} replicas available with current config`,
      available,
    };
  }
  if (!current || !observed || updated < desired) {
    return {
      ok: false,
      reason: 'RolloutInProgress',
      message: `Rolling update in progress: ${updated}/${desired} updated`,
      available,
    };
  }
  return {
    ok: false,
    reason: 'ReplicasUnavailable',
    message: `${available}/${desired} replicas available`,
    available,
  };
}

/** The seed's "Secret not found: {name}" for each missing Secret, with where it is referenced and the fix. */
function referenceMessage(issues: ValidationIssue[]): string {
  return issues
    .map(i => {
      const secret = /^Secret "([^"]+)" not found in namespace "([^"]+)"/.exec(
        i.message,
      );
      return secret
        ? `Secret not found: ${secret[1]} (${i.path}): create it in namespace "${secret[2]}" or change ${i.path}`
        : i.message;
    })
    .join('; ');
}

/** @public */
export function decide(input: DecideInput): Decision {
  const { stack, now } = input;
  const generation = stack.metadata?.generation;
  const previous = stack.status?.conditions;
  const cond = (type: string, ok: boolean, reason: string, message: string) =>
    condition(previous, now, generation, type, ok, reason, message);
  const live = input.live.deployment;
  const namespace = stack.metadata!.namespace!;

  const base: Status = {
    ...stack.status,
    serviceURL: `http://${serviceName(
      stack,
    )}.${namespace}.svc.cluster.local:${portOf(stack)}`,
  };

  const failure = (
    reason: string,
    message: string,
    secrets?: Condition,
  ): Decision => {
    const avail = availability(live, liveHash(live));
    const conditions = [
      cond('ConfigGenerated', false, reason, message),
      ...(secrets ? [secrets] : []),
      cond('Available', avail.ok, avail.reason, avail.message),
      ...v1alpha1Conditions(
        input,
        avail.ok,
        healthCheck(avail.ok, input.health),
        cond,
      ),
    ];
    return withTransitions(stack, {
      status: {
        ...base,
        phase: 'Failed',
        availableReplicas: avail.available,
        conditions: merge(previous, conditions),
      },
      events: [],
    });
  };

  if (stack.metadata?.deletionTimestamp) {
    return { status: { ...base, phase: 'Terminating' }, events: [] };
  }

  const resolution = resolveDistribution(
    stack.spec.distribution ?? {},
    input.registry,
    input.imageOverrides,
  );
  if (!resolution.ok)
    return failure('ConfigGenerationFailed', resolution.message);

  const missingSecrets = input.referenceIssues.filter(i =>
    i.message.startsWith('Secret '),
  );
  const secretsCondition = missingSecrets.length
    ? cond(
        'SecretsResolved',
        false,
        'SecretNotFound',
        referenceMessage(missingSecrets),
      )
    : cond(
        'SecretsResolved',
        true,
        'AllSecretsFound',
        `Resolved ${input.secretCount} secret references`,
      );
  if (input.referenceIssues.length) {
    return failure(
      'ConfigGenerationFailed',
      referenceMessage(input.referenceIssues),
      secretsCondition,
    );
  }

  // FR-101: the user kept spec.distribution but this operator now resolves it to another image.
  const upgrade =
    live !== undefined &&
    liveImage(live) !== resolution.image &&
    live.metadata?.annotations?.[DISTRIBUTION_ANNOTATION] ===
      JSON.stringify(stack.spec.distribution);

  let mounted: MountedConfig;
  let configMap: KubeObject | undefined;
  let generated:
    | {
        providerCount: number;
        resourceCount: number;
        modelCount: number;
        configVersion?: number;
      }
    | undefined;
  let configSource: string;
  let secretEnv: SecretEnvVar[] = [];
  const warnings: StackEvent[] = [];
  // The CA bundle: the listed keys' certificates in one file, in a ConfigMap of ours (the source
  // may be in another namespace, which a pod cannot mount).
  const caSource = stack.spec.networking?.tls?.caBundle;
  let caBundle: { object: KubeObject; hash: string } | undefined;
  if (caSource) {
    const caNamespace = caSource.configMapNamespace || namespace;
    const joined = input.caBundleData
      ? concatCaBundle(input.caBundleData, caSource, caNamespace)
      : {
          ok: false as const,
          message: `ConfigMap "${caSource.configMapName}" not found in namespace "${caNamespace}": create it or change spec.networking.tls.caBundle.configMapName`,
        };
    if (!joined.ok)
      return failure(
        'ConfigGenerationFailed',
        joined.message,
        secretsCondition,
      );
    const hash = sha256(joined.text);
    caBundle = { object: desiredCaBundle(stack, joined.text, hash), hash };
  }

  if (stack.spec.overrideConfig) {
    const sourceNamespace = overrideConfigNamespace(stack, namespace);
    if (!input.overrideConfig) {
      return failure(
        'ConfigGenerationFailed',
        `ConfigMap "${stack.spec.overrideConfig.configMapName}" in namespace "${sourceNamespace}" has no config.yaml or run.yaml key: store the server configuration under config.yaml`,
        secretsCondition,
      );
    }
    const hash = sha256(input.overrideConfig.text);
    if (sourceNamespace === namespace) {
      mounted = {
        configMapName: stack.spec.overrideConfig.configMapName,
        key: input.overrideConfig.key,
        hash,
      };
    } else {
      // v1alpha1's userConfig.configMapNamespace: a pod mounts only its own namespace's
      // ConfigMaps, so the config is copied into an immutable one of ours, named by its hash.
      mounted = {
        configMapName: configMapName(stack.metadata!.name!, hash),
        key: 'config.yaml',
        hash,
      };
      configMap = desiredConfigMap(stack, input.overrideConfig.text, hash);
    }
    configSource = 'configmap';
  } else {
    const baseSource = baseConfigOf(resolution, input.imageConfig);
    if ('reason' in baseSource)
      return failure(baseSource.reason, baseSource.message, secretsCondition);
    const result = generateConfig({
      spec: stack.spec,
      baseConfig: baseSource.baseConfig,
    });
    if (!result.ok) {
      if (upgrade) {
        return failure(
          'UpgradeConfigFailure',
          `Config generation failed after operator upgrade: ${result.message}`,
          secretsCondition,
        );
      }
      return failure(
        result.reason,
        result.reason === 'ConfigGenerationFailed'
          ? `Failed to generate config.yaml: ${result.message}`
          : result.message,
        secretsCondition,
      );
    }
    mounted = {
      configMapName: configMapName(stack.metadata!.name!, result.contentHash),
      key: 'config.yaml',
      hash: result.contentHash,
    };
    configMap = desiredConfigMap(stack, result.configYaml, result.contentHash);
    generated = result;
    secretEnv = result.envVars;
    configSource = baseSource.source;
    for (const w of result.warnings)
      warnings.push({
        type: 'Warning',
        reason: 'ConfigWarning',
        message: w.message,
      });
  }

  const deployment = desiredDeployment(stack, {
    image: resolution.image,
    config: mounted,
    secretEnv,
    caBundleHash: caBundle?.hash,
  });
  deployment.metadata!.annotations = {
    ...deployment.metadata!.annotations,
    [DISTRIBUTION_ANNOTATION]: JSON.stringify(stack.spec.distribution),
  };
  const satellites = desiredSatellites(stack, input.objectOptions);
  const avail = availability(live, mounted.hash);
  const health = healthCheck(avail.ok, input.health);
  const sameConfig =
    stack.status?.resolvedDistribution?.configHash === mounted.hash;
  const providerCount = generated?.providerCount ?? 0;
  const conditions = [
    cond(
      'ConfigGenerated',
      true,
      'ConfigGenerationSucceeded',
      generated
        ? `Generated config.yaml with ${providerCount} providers and ${generated.modelCount} models`
        : `Using config.yaml from ConfigMap ${mounted.configMapName}`,
    ),
    secretsCondition,
    cond(
      'DeploymentUpdated',
      true,
      'DeploymentUpdateSucceeded',
      `Deployment updated with config ${mounted.configMapName}`,
    ),
    cond('Available', avail.ok, avail.reason, avail.message),
    ...v1alpha1Conditions(input, avail.ok, health, cond),
  ];
  const ingressHost = (satellites.Ingress as any)?.spec?.rules?.[0]?.host;
  const status: Status = {
    ...base,
    phase: health.phase,
    availableReplicas: avail.available,
    resolvedDistribution: {
      image: resolution.image,
      configSource,
      configHash: mounted.hash,
    },
    configGeneration: {
      configMapName: mounted.configMapName,
      // Kept while the config is the same, so an unchanged stack's status does not change.
      generatedAt: sameConfig
        ? stack.status?.configGeneration?.generatedAt ?? now
        : now,
      providerCount,
      resourceCount: generated?.resourceCount ?? 0,
      ...(generated?.configVersion !== undefined
        ? { configVersion: generated.configVersion }
        : {}),
    },
    conditions: merge(previous, conditions),
  };
  if (ingressHost)
    status.routeURL = `${
      stack.spec.networking?.tls?.enabled ? 'https' : 'http'
    }://${ingressHost}`;
  else delete status.routeURL;
  const decision = withTransitions(stack, {
    status,
    events: [],
    writes: { configMap, caBundle: caBundle?.object, deployment, satellites },
    currentConfigMap: mounted.configMapName,
  });
  if (!sameConfig) {
    decision.events.push({
      type: 'Normal',
      reason: 'ConfigUpdated',
      message: `Deployment now uses config ${mounted.configMapName} with image ${resolution.image}`,
    });
    decision.events.push(...warnings);
  }
  return decision;
}

/**
 * The base config of a generated config (seed 004 "Obtain Base Config"):
 * the image's config labels when it has them (FR-027g, also for a direct
 * image: FR-027j), else the embedded config of a named distribution; a
 * direct image without either has none (generateConfig's
 * `BaseConfigRequired`, FR-027c). Unusable labels fail naming the image; a
 * registry that could not be asked fails only a direct image (a named one
 * has its embedded config, as in an air-gapped cluster, FR-027e). Pure.
 *
 * @public
 */
export function baseConfigOf(
  resolution: { image: string; baseConfig?: string },
  imageConfig: DecideInput['imageConfig'],
):
  | { baseConfig?: string; source: 'oci-label' | 'embedded' }
  | { reason: string; message: string } {
  if (imageConfig?.state === 'read') {
    if (imageConfig.kind === 'found')
      return { baseConfig: imageConfig.config, source: 'oci-label' };
    if (imageConfig.kind === 'invalid')
      return {
        reason: imageConfig.reason,
        message:
          imageConfig.reason === 'UnsupportedConfigVersion'
            ? `${imageConfig.message} (label io.llamastack.config.version of image ${resolution.image})`
            : `Config labels of image ${resolution.image} (${imageConfig.digest}): ${imageConfig.message}`,
      };
  }
  if (resolution.baseConfig !== undefined || imageConfig?.state !== 'failed')
    return { baseConfig: resolution.baseConfig, source: 'embedded' };
  return {
    reason: 'ImageConfigUnavailable',
    message: `Cannot read the config labels of image ${resolution.image}: ${imageConfig.message}. Direct image references require either overrideConfig.configMapName or OCI config labels on the image; the operator retries with backoff`,
  };
}

/**
 * HealthCheck and the phase, as the released upstream operator derives them
 * once the Deployment is available: the server answering not OK is
 * `Failed`, no answer yet is `Initializing`, healthy is `Ready`.
 *
 * @public
 */
export function healthCheck(
  available: boolean,
  health: HealthResult | undefined,
): {
  ok: boolean;
  reason: string;
  message: string;
  phase: 'Ready' | 'Initializing' | 'Failed';
} {
  if (!available)
    return {
      ok: false,
      reason: 'HealthCheckPending',
      message: 'Deployment not ready',
      phase: 'Initializing',
    };
  if (!health)
    return {
      ok: false,
      reason: 'HealthCheckPending',
      message: `Waiting for a pod with the current config to answer on ${HEALTH_PATH}`,
      phase: 'Initializing',
    };
  switch (health.state) {
    case 'ok':
      return {
        ok: true,
        reason: 'HealthCheckPassed',
        message: `Health check passed: ${health.pods} pod${
          health.pods === 1 ? '' : 's'
        } with the current config answer {"status":"OK"} on ${HEALTH_PATH}`,
        phase: 'Ready',
      };
    case 'failed':
      return {
        ok: false,
        reason: 'HealthCheckFailed',
        message: `Health check failed: ${health.message} on ${HEALTH_PATH}: see the server's log`,
        phase: 'Failed',
      };
    default:
      return {
        ok: false,
        reason: 'HealthCheckUnreachable',
        message: `Health check failed: ${health.message}`,
        phase: 'Initializing',
      };
  }
}

/** The released upstream operator's conditions, for v1alpha1 users (phases are shared). */
function v1alpha1Conditions(
  input: DecideInput,
  available: boolean,
  health: { ok: boolean; reason: string; message: string },
  cond: (
    type: string,
    ok: boolean,
    reason: string,
    message: string,
  ) => Condition,
): Condition[] {
  const pvcPhase = (input.live.pvc as any)?.status?.phase;
  const wantsStorage = !!input.stack.spec.workload?.storage;
  let storage = {
    ok: true,
    reason: 'StorageNotRequested',
    message: 'No persistent storage requested',
  };
  if (wantsStorage) {
    storage =
      pvcPhase === 'Bound'
        ? { ok: true, reason: 'StorageReady', message: 'PVC is Bound' }
        : {
            ok: false,
            reason: 'StoragePending',
            message: `PVC is ${pvcPhase ?? 'not created yet'}`,
          };
  }
  return [
    cond(
      'DeploymentReady',
      available,
      available ? 'DeploymentReady' : 'DeploymentNotReady',
      available ? 'Deployment is ready' : 'Deployment is not ready',
    ),
    cond('HealthCheck', health.ok, health.reason, health.message),
    cond('StorageReady', storage.ok, storage.reason, storage.message),
    cond(
      'ServiceReady',
      !!input.live.service,
      input.live.service ? 'ServiceReady' : 'ServicePending',
      input.live.service ? 'Service exists' : 'Service not created yet',
    ),
  ];
}

/** New conditions replace old ones of the same type; others stay. */
function merge(
  previous: Condition[] | undefined,
  next: Condition[],
): Condition[] {
  const types = new Set(next.map(c => c.type));
  return [...next, ...(previous ?? []).filter(c => !types.has(c.type))];
}

/** Events for what changed since the last status: phase and the ConfigGenerated outcome, once per transition. */
function withTransitions(stack: Stack, decision: Decision): Decision {
  const before = stack.status;
  const find = (s: Status | undefined, type: string) =>
    s?.conditions?.find(c => c.type === type);
  const oldGen = find(before, 'ConfigGenerated');
  const newGen = find(decision.status, 'ConfigGenerated');
  if (
    newGen &&
    (oldGen?.status !== newGen.status ||
      oldGen?.reason !== newGen.reason ||
      oldGen?.message !== newGen.message)
  ) {
    decision.events.push({
      type: newGen.status === 'True' ? 'Normal' : 'Warning',
      reason: newGen.status === 'True' ? 'ConfigGenerated' : newGen.reason,
      message: newGen.message ?? '',
    });
  }
  if (before?.phase !== decision.status.phase && decision.status.phase) {
    decision.events.push({
      type: decision.status.phase === 'Failed' ? 'Warning' : 'Normal',
      reason: `Phase${decision.status.phase}`,
      message: `phase ${before?.phase ?? '(none)'} → ${decision.status.phase}`,
    });
  }
  return decision;
}

/** Whether the live status already says everything `desired` says (lastTransitionTime aside). @public */
export function statusUpToDate(
  desired: Status,
  live: Status | undefined,
): boolean {
  const strip = (s: Status | undefined) =>
    JSON.stringify({
      ...s,
      conditions: [...(s?.conditions ?? [])]
        .map(c => ({ ...c, lastTransitionTime: undefined }))
        .sort((a, b) => a.type.localeCompare(b.type)),
    });
  return strip(desired) === strip(live);
}

/**
 * Generated ConfigMaps to delete once the rollout finished: all but the
 * current one and the newest older one (the contract keeps two for
 * debugging). Before the rollout finishes nothing is deleted: old pods still mount theirs.
 *
 * @public
 */
export function configMapsToDelete(
  owned: KubeObject[],
  current: string,
  rolloutDone: boolean,
): string[] {
  if (!rolloutDone) return [];
  const older = owned
    .filter(cm => cm.metadata?.name !== current)
    .sort(
      (a, b) =>
        String(b.metadata?.creationTimestamp ?? '').localeCompare(
          String(a.metadata?.creationTimestamp ?? ''),
        ) || String(a.metadata?.name).localeCompare(String(b.metadata?.name)),
    );
  return older.slice(1).map(cm => cm.metadata!.name!);
}
