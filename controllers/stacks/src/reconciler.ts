/**
 * The stack controller: a thin loop around `decide`. It reads the stack and
 * what it owns from shared caches, looks up the referenced Secrets (existence
 * only) and ConfigMaps, and writes what `decide` returns: first the new
 * immutable ConfigMap, then the Deployment in one apply (image, config, env
 * together: FR-100), then the other objects; nothing at all when `decide`
 * reports a failure (FR-097). Old generated ConfigMaps are deleted once the
 * rollout finished.
 */
import {
  ConfigMaps,
  Deployments,
  generationChanged,
  isNotFound,
  keyOf,
  or,
  PersistentVolumeClaims,
  Pods,
  Services,
  annotationsChanged,
  labelsChanged,
  type Manager,
  type Predicate,
  type Reconciler,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import {
  CONFIG_MAP_CONFIG_KEYS,
  checkStackReferences,
  overrideConfigNamespace,
  stackSecretReferences,
} from '@runway-portal/plugin-runway-common';
import {
  resolveDistribution,
  type DistributionRegistry,
} from './config/distributions';
import {
  configMapsToDelete,
  decide,
  STACKS_FIELD_MANAGER,
  statusUpToDate,
} from './decide';
import { healthOf, probePods, probeTargets } from './health';
import { clusterLookup, getConfigMap, pullCredentials } from './lookups';
import {
  ImageConfigs,
  retryDelay,
  type ImageConfigsOptions,
} from './oci/imageConfigs';
import { StackMetrics } from './metrics';
import {
  CA_BUNDLE_LABEL,
  CONFIG_HASH_ANNOTATION,
  CONFIG_MAP_LABEL,
  caBundleName,
  INSTANCE_LABEL,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  hpaName,
  ingressName,
  networkPolicyName,
  pdbName,
  pvcName,
  serviceName,
  type ObjectOptions,
  type Stack,
} from './objects';

export const Stacks: ResourceType = {
  group: 'llamastack.io',
  version: 'v1alpha2',
  plural: 'llamastackdistributions',
  kind: 'LlamaStackDistribution',
  namespaced: true,
};
export const Ingresses: ResourceType = {
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'ingresses',
  kind: 'Ingress',
  namespaced: true,
};
export const NetworkPolicies: ResourceType = {
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'networkpolicies',
  kind: 'NetworkPolicy',
  namespaced: true,
};
export const PodDisruptionBudgets: ResourceType = {
  group: 'policy',
  version: 'v1',
  plural: 'poddisruptionbudgets',
  kind: 'PodDisruptionBudget',
  namespaced: true,
};
export const HorizontalPodAutoscalers: ResourceType = {
  group: 'autoscaling',
  version: 'v2',
  plural: 'horizontalpodautoscalers',
  kind: 'HorizontalPodAutoscaler',
  namespaced: true,
};

/** The optional objects by kind, with their resource types (absent from the desired set means delete). */
const SATELLITE_TYPES: Record<string, ResourceType> = {
  Service: Services,
  Ingress: Ingresses,
  NetworkPolicy: NetworkPolicies,
  PersistentVolumeClaim: PersistentVolumeClaims,
  PodDisruptionBudget: PodDisruptionBudgets,
  HorizontalPodAutoscaler: HorizontalPodAutoscalers,
};

const SATELLITE_NAMES: Record<string, (stack: Stack) => string> = {
  Service: serviceName,
  Ingress: ingressName,
  NetworkPolicy: networkPolicyName,
  PersistentVolumeClaim: pvcName,
  PodDisruptionBudget: pdbName,
  HorizontalPodAutoscaler: hpaName,
};

export interface StackControllerOptions {
  registry: DistributionRegistry;
  imageOverrides?: Readonly<Record<string, string>>;
  objectOptions?: ObjectOptions;
  /** Referenced Secrets are not watched (that would need reading them): they are checked again this often. */
  recheckIntervalMs?: number;
  /** How soon a stack whose Deployment is available but whose server is not healthy (yet) is probed again; default 5 s. */
  healthRecheckMs?: number;
  maxConcurrentReconciles?: number;
  /** Read distribution images' config labels (FR-027f..j) with these settings; undefined: embedded configs only. */
  imageConfigs?: ImageConfigsOptions;
}

/** How soon a stack waiting for its image's first label read is looked at again. */
const IMAGE_CONFIG_PENDING_MS = 500;

/** Status changes of the Deployment (replicas becoming available) matter; its own metadata churn does not. */
const deploymentStatusChanged: Predicate = {
  update: (old, obj) =>
    JSON.stringify((old as any).status ?? null) !==
    JSON.stringify((obj as any).status ?? null),
};

export function registerStackController(
  mgr: Manager,
  options: StackControllerOptions,
) {
  const managed = { labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY}` };
  const stacks = mgr.informers.informerFor<Stack>(Stacks);
  const deployments = mgr.informers.informerFor(Deployments, managed);
  // The server pods (they carry the template's managed-by label): the ones to ask for /v1/health.
  const pods = mgr.informers.informerFor(Pods, managed);
  const configMaps = mgr.informers.informerFor(ConfigMaps, {
    labelSelector: `${CONFIG_MAP_LABEL}=true`,
  });
  // The optional objects, cached, so deciding to delete one costs no request when it does not exist.
  const satelliteCaches = Object.fromEntries(
    Object.entries(SATELLITE_TYPES).map(([kind, rt]) => [
      kind,
      mgr.informers.informerFor(rt, managed),
    ]),
  );
  const applier = mgr.applier(STACKS_FIELD_MANAGER);
  const events = mgr.eventRecorder(STACKS_FIELD_MANAGER);
  const metrics = new StackMetrics(mgr.metrics.registry, () =>
    stacks.store.list(),
  );
  const lookup = clusterLookup(mgr.client);
  const recheck = options.recheckIntervalMs ?? 60_000;
  /** Unhealthy probes in a row, per stack: each one waits longer before the next (a probe may take its timeout). */
  const healthMisses = new Map<string, number>();
  const imageConfigs =
    options.imageConfigs &&
    new ImageConfigs({
      ...options.imageConfigs,
      onSettled: (image, requester, result) => {
        if (result.state === 'failed')
          mgr.logger.info('image config labels not read', {
            image,
            requester,
            error: result.message,
            retryInMs: result.retryInMs,
          });
      },
    });

  const reconcile: Reconciler = async request => {
    const key = keyOf(request);
    const stack = stacks.store.get(key);
    if (!stack || stack.metadata?.deletionTimestamp) {
      healthMisses.delete(key);
      return {}; // owned objects go with it (garbage collection)
    }
    const namespace = stack.metadata!.namespace!;
    const name = stack.metadata!.name!;
    const deployment = deployments.store.get(key);

    const referenceIssues = (
      await checkStackReferences(stack, lookup, namespace)
    ).filter(i => i.severity === 'error');
    let overrideConfig: { key: string; text: string } | undefined;
    const overrideName = stack.spec.overrideConfig?.configMapName;
    if (overrideName && referenceIssues.length === 0) {
      const cm = await getConfigMap(
        mgr.client,
        overrideConfigNamespace(stack, namespace),
        overrideName,
      );
      const data = (cm?.data ?? {}) as Record<string, string>;
      const found = CONFIG_MAP_CONFIG_KEYS.find(
        k => typeof data[k] === 'string',
      );
      if (found) overrideConfig = { key: found, text: data[found] };
    }

    // The image's config labels (FR-027g): answered from memory, read in the background; only the
    // first read of an image makes the stack wait (requeued, nothing written meanwhile).
    const resolved = resolveDistribution(
      stack.spec.distribution ?? {},
      options.registry,
      options.imageOverrides,
    );
    const serviceAccount =
      stack.spec.workload?.overrides?.serviceAccountName ?? 'default';
    const imageConfig =
      imageConfigs && resolved.ok && !stack.spec.overrideConfig
        ? imageConfigs.lookup(
            resolved.image,
            `${namespace}/${serviceAccount}`,
            () => pullCredentials(mgr.client, namespace, serviceAccount),
          )
        : undefined;
    if (imageConfig?.state === 'pending')
      return { requeueAfterMs: IMAGE_CONFIG_PENDING_MS };

    const caSource = stack.spec.networking?.tls?.caBundle;
    const caBundleData =
      caSource && referenceIssues.length === 0
        ? ((
            await getConfigMap(
              mgr.client,
              caSource.configMapNamespace || namespace,
              caSource.configMapName,
            )
          )?.data as Record<string, string> | undefined)
        : undefined;

    // The pods running what the live Deployment runs: with a new config the stack is not
    // Available yet, so their health is asked only when it is the current one.
    const liveHash = (deployment as any)?.spec?.template?.metadata
      ?.annotations?.[CONFIG_HASH_ANNOTATION];
    const health = liveHash
      ? healthOf(
          await probePods(probeTargets(stack, pods.store.list(), liveHash)),
        )
      : undefined;

    const started = process.hrtime.bigint();
    const decision = decide({
      stack,
      registry: options.registry,
      imageOverrides: options.imageOverrides,
      referenceIssues,
      secretCount: stackSecretReferences(stack.spec).length,
      overrideConfig,
      caBundleData,
      imageConfig,
      health,
      live: {
        deployment,
        service: satelliteCaches.Service.store.get(
          `${namespace}/${serviceName(stack)}`,
        ),
        pvc: satelliteCaches.PersistentVolumeClaim.store.get(
          `${namespace}/${pvcName(stack)}`,
        ),
      },
      now: new Date().toISOString(),
      objectOptions: options.objectOptions,
    });
    const generated = decision.status.conditions?.find(
      c => c.type === 'ConfigGenerated',
    );
    metrics.configGeneration.observe(
      {
        result:
          generated?.status === 'True' ? 'ok' : generated?.reason ?? 'unknown',
      },
      Number(process.hrtime.bigint() - started) / 1e9,
    );

    if (decision.writes) {
      const {
        configMap,
        caBundle,
        deployment: desired,
        satellites,
      } = decision.writes;
      // The ConfigMap first: the Deployment must never point at a config that does not exist yet.
      if (
        configMap &&
        !configMaps.store.get(`${namespace}/${configMap.metadata!.name}`)
      ) {
        await applier.apply(configMap, { force: true });
      }
      // The CA bundle too, and only when its content changed (the cache has it: same label).
      const caKey = `${namespace}/${caBundleName(stack)}`;
      const liveCa = configMaps.store.get(caKey);
      if (
        caBundle &&
        JSON.stringify(liveCa?.data) !== JSON.stringify((caBundle as any).data)
      ) {
        await applier.apply(caBundle, { force: true });
      } else if (
        !caBundle &&
        liveCa?.metadata?.ownerReferences?.some(
          o => o.uid === stack.metadata?.uid,
        )
      ) {
        await deleteIgnoringMissing(
          mgr,
          ConfigMaps,
          namespace,
          caBundleName(stack),
        );
      }
      const previousHash = (deployment as any)?.spec?.template?.metadata
        ?.annotations;
      await applier.apply(desired, { force: true });
      if (
        JSON.stringify(previousHash) !==
        JSON.stringify((desired as any).spec.template.metadata.annotations)
      ) {
        metrics.configUpdates.inc({ namespace });
      }
      for (const [kind, object] of Object.entries(satellites)) {
        const rt = SATELLITE_TYPES[kind];
        if (object) await applier.apply(object, { force: true });
        else {
          const live = satelliteCaches[kind].store.get(
            `${namespace}/${SATELLITE_NAMES[kind](stack)}`,
          );
          // Only what this stack owns; the PVC stays (removing a field must not lose data; it goes with the stack).
          const owned = live?.metadata?.ownerReferences?.some(
            o => o.uid === stack.metadata?.uid,
          );
          if (owned && rt !== PersistentVolumeClaims) {
            await deleteIgnoringMissing(
              mgr,
              rt,
              namespace,
              live!.metadata!.name!,
            );
          }
        }
      }
    }

    if (!statusUpToDate(decision.status, stack.status)) {
      await applier.applyStatus(
        {
          apiVersion: 'llamastack.io/v1alpha2',
          kind: 'LlamaStackDistribution',
          metadata: { name, namespace },
          status: decision.status,
        },
        { force: true },
      );
    }
    for (const e of decision.events)
      events.event(stack, e.type, e.reason, e.message);

    // Old generated ConfigMaps go once every replica runs the current one.
    const rolloutDone =
      decision.status.conditions?.some(
        c => c.type === 'Available' && c.status === 'True',
      ) ?? false;
    const st = (deployment as any)?.status;
    if (
      decision.currentConfigMap &&
      rolloutDone &&
      st &&
      st.updatedReplicas === st.replicas
    ) {
      const owned = configMaps.store
        .list()
        .filter(
          cm =>
            cm.metadata?.namespace === namespace &&
            cm.metadata?.labels?.[INSTANCE_LABEL] === name &&
            cm.metadata?.labels?.[CA_BUNDLE_LABEL] !== 'true',
        )
        .filter(cm =>
          cm.metadata?.ownerReferences?.some(
            o => o.uid === stack.metadata?.uid,
          ),
        );
      for (const old of configMapsToDelete(
        owned,
        decision.currentConfigMap,
        true,
      )) {
        await deleteIgnoringMissing(mgr, ConfigMaps, namespace, old);
      }
    }
    // Available but not healthy (yet): ask again soon, as upstream requeues an Initializing stack.
    const available = decision.status.conditions?.some(
      c => c.type === 'Available' && c.status === 'True',
    );
    const healthy = decision.status.conditions?.some(
      c => c.type === 'HealthCheck' && c.status === 'True',
    );
    if (available && !healthy) {
      const misses = (healthMisses.get(key) ?? 0) + 1;
      healthMisses.set(key, misses);
      return {
        requeueAfterMs: retryDelay(
          misses,
          options.healthRecheckMs ?? 5000,
          recheck,
        ),
      };
    }
    healthMisses.delete(key);
    // A direct image whose registry failed: look again when the next read is due (at least 1 s
    // later: while that read runs, the answer is still the failure, due now).
    if (imageConfig?.state === 'failed' && decision.status.phase === 'Failed')
      return {
        requeueAfterMs: Math.min(
          recheck,
          Math.max(imageConfig.retryInMs, 1000),
        ),
      };
    return { requeueAfterMs: recheck };
  };

  const controller = mgr
    .controller()
    .named('llamastackdistribution')
    .for<Stack>(Stacks, {
      predicates: [or(generationChanged, annotationsChanged, labelsChanged)],
    })
    .owns(Deployments, { predicates: [deploymentStatusChanged] })
    .owns(Services)
    .owns(PersistentVolumeClaims)
    .withOptions({
      maxConcurrentReconciles: options.maxConcurrentReconciles ?? 8,
    })
    .complete(reconcile);
  return { controller, stacks, deployments, configMaps, metrics };
}

/**
 * When to probe an available but unhealthy stack again: `first`, doubling
 * with each miss in a row, at most `max` (the recheck interval), so
 * unreachable servers cannot fill the workers with probes. Pure; the same
 * backoff as a failed registry read's.
 */
export const healthRecheckDelay = retryDelay;

async function deleteIgnoringMissing(
  mgr: Manager,
  rt: ResourceType,
  namespace: string,
  name: string,
) {
  try {
    await mgr.client.delete(rt, { namespace, name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
