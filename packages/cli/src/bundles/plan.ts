/**
 * Pure planning: from the rendered bundles to the ordered list of objects an
 * install applies (and an uninstall deletes, in reverse). No cluster access.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import { COMPONENT_LABEL, DEFAULT_NAMESPACE } from './catalog';
import { objectId } from './kustomize';

/**
 * Apply order. CRDs before anything that may use them; webhook configurations
 * last, once the Service they call answers (else every write of their kind is
 * refused by a webhook that points at nothing).
 */
export const PHASES = ['namespace', 'crd', 'workload', 'webhook'] as const;
/** @public */
export type Phase = (typeof PHASES)[number];

/** @public */
export interface PlannedObject {
  id: string;
  object: KubeObject;
  phase: Phase;
  /** The namespace and CRDs: part of every bundle, owned by none. */
  shared: boolean;
  /** Bundles that contain it. */
  components: string[];
}

export interface BundleObjects {
  component: string;
  objects: KubeObject[];
}

export interface PlanOptions {
  /** Namespace of the controllers (default airunway-system). */
  namespace?: string;
  /** Image tag of Runway's own images (ghcr.io/runway-portal/...). */
  version?: string;
}

const WEBHOOK_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);
const OWN_IMAGE = /^ghcr\.io\/runway-portal\//;

/** @public */
export function phaseOf(object: KubeObject): Phase {
  if (object.kind === 'Namespace') return 'namespace';
  if (object.kind === 'CustomResourceDefinition') return 'crd';
  if (WEBHOOK_KINDS.has(object.kind ?? '')) return 'webhook';
  return 'workload';
}

/** `Deployment airunway-system/airunway-core`, `CustomResourceDefinition models.models.airunway.ai`. */
export function describeObject(object: KubeObject): string {
  const ns = object.metadata?.namespace;
  return `${object.kind} ${ns ? `${ns}/` : ''}${object.metadata?.name}`;
}

/** Rewrites every string that names the default namespace (object namespaces, subjects, flags, service hosts). */
function renamespace(value: unknown, namespace: string): unknown {
  if (namespace === DEFAULT_NAMESPACE) return value;
  if (typeof value === 'string') {
    return value.replace(
      new RegExp(`\\b${DEFAULT_NAMESPACE}\\b`, 'g'),
      namespace,
    );
  }
  if (Array.isArray(value)) return value.map(v => renamespace(v, namespace));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, renamespace(v, namespace)]),
    );
  }
  return value;
}

function retag(value: unknown, version: string): unknown {
  if (Array.isArray(value)) return value.map(v => retag(v, version));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) =>
        k === 'image' && typeof v === 'string' && OWN_IMAGE.test(v)
          ? [k, `${v.replace(/[:@][^/]*$/, '')}:${version}`]
          : [k, retag(v, version)],
      ),
    );
  }
  return value;
}

/** One bundle object as the CLI applies it: namespace, image tag, component label. */
export function customize(
  object: KubeObject,
  component: string,
  options: PlanOptions,
): KubeObject {
  let out = renamespace(
    object,
    options.namespace ?? DEFAULT_NAMESPACE,
  ) as KubeObject;
  if (options.version) out = retag(out, options.version) as KubeObject;
  if (!isShared(out)) {
    out = {
      ...out,
      metadata: {
        ...out.metadata,
        labels: { ...out.metadata?.labels, [COMPONENT_LABEL]: component },
      },
    };
  }
  return out;
}

export function isShared(object: KubeObject): boolean {
  const phase = phaseOf(object);
  return phase === 'namespace' || phase === 'crd';
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/**
 * The objects of several bundles, each once, in apply order (phase, then
 * bundle order). An object two bundles define must be identical in both
 * (the namespace and the CRDs are); otherwise the plan fails naming both.
 *
 * @public
 */
export function buildPlan(
  bundles: BundleObjects[],
  options: PlanOptions = {},
): PlannedObject[] {
  const byId = new Map<string, PlannedObject>();
  for (const bundle of bundles) {
    for (const raw of bundle.objects) {
      const object = customize(raw, bundle.component, options);
      const id = objectId(object);
      const existing = byId.get(id);
      if (!existing) {
        byId.set(id, {
          id,
          object,
          phase: phaseOf(object),
          shared: isShared(object),
          components: [bundle.component],
        });
        continue;
      }
      if (
        !existing.shared ||
        canonical(existing.object) !== canonical(object)
      ) {
        throw new Error(
          `${describeObject(
            object,
          )} is defined by both ${existing.components.join(', ')} and ${
            bundle.component
          }, differently: a bundle may share only the namespace and CRDs, identical`,
        );
      }
      existing.components.push(bundle.component);
    }
  }
  const all = [...byId.values()];
  return PHASES.flatMap(phase => all.filter(p => p.phase === phase));
}

/**
 * A provider bundle: at least one Deployment, and RBAC that lets it write its
 * registration (an InferenceProviderConfig); that is what makes it a provider.
 *
 * @public
 */
export function providerBundleProblem(
  objects: KubeObject[],
): string | undefined {
  if (objects.length === 0) return 'it holds no Kubernetes objects';
  if (!objects.some(o => o.kind === 'Deployment'))
    return 'it has no Deployment (a provider runs as one)';
  const registers = objects.some(
    o =>
      (o.kind === 'ClusterRole' || o.kind === 'Role') &&
      (
        (o as { rules?: Array<{ apiGroups?: string[]; resources?: string[] }> })
          .rules ?? []
      ).some(
        r =>
          r.apiGroups?.includes('airunway.ai') &&
          r.resources?.some(
            res => res === 'inferenceproviderconfigs' || res === '*',
          ),
      ),
  );
  if (!registers)
    return 'no ClusterRole lets it write an InferenceProviderConfig (airunway.ai), so it cannot register as a provider';
  return undefined;
}

/** The component name of a third-party bundle: its first Deployment's name. */
export function bundleName(objects: KubeObject[]): string {
  return (
    objects.find(o => o.kind === 'Deployment')?.metadata?.name ?? 'provider'
  );
}

interface ConversionShape {
  spec?: {
    conversion?: { webhook?: { clientConfig?: { service?: unknown } } };
  };
}

interface WorkloadShape {
  spec?: {
    selector?: Record<string, string>;
    template?: { metadata?: { labels?: Record<string, string> } };
  };
}

/** Whether a Service's selector picks pods with these labels. */
function selects(
  selector: Record<string, string> | undefined,
  labels: Record<string, string>,
): boolean {
  const pairs = Object.entries(selector ?? {});
  return pairs.length > 0 && pairs.every(([k, v]) => labels[k] === v);
}

/**
 * The plan for controllers that run outside the cluster (`--out-of-cluster`:
 * the local system, a controller run from a laptop): everything but what
 * runs them in the cluster, that is their Deployments and the Services in
 * front of those Deployments' pods. Each webhook configuration is kept as an
 * empty one (no webhooks, so it intercepts nothing and never points at
 * nothing): the controller in url mode fills it in, which its RBAC allows
 * by name while creating it is not. Likewise a CRD's conversion webhook by
 * Service loses its `conversion` (the API server's default, None) until its
 * operator points it at itself; a later install then owns no field of it.
 *
 * @public
 */
export function outOfClusterPlan(plan: PlannedObject[]): PlannedObject[] {
  const podLabels = plan
    .filter(p => p.object.kind === 'Deployment')
    .map(p => (p.object as WorkloadShape).spec?.template?.metadata?.labels)
    .filter((l): l is Record<string, string> => Boolean(l));
  return plan
    .filter(
      p =>
        p.object.kind !== 'Deployment' &&
        !(
          p.object.kind === 'Service' &&
          podLabels.some(labels =>
            selects((p.object as WorkloadShape).spec?.selector, labels),
          )
        ),
    )
    .map(p => {
      if (p.phase === 'webhook')
        return {
          ...p,
          object: {
            apiVersion: p.object.apiVersion,
            kind: p.object.kind,
            metadata: p.object.metadata,
          },
        };
      const crd = p.object as KubeObject & ConversionShape;
      if (
        p.phase === 'crd' &&
        crd.spec?.conversion?.webhook?.clientConfig?.service
      ) {
        const { conversion: _byService, ...spec } = crd.spec;
        return { ...p, object: { ...crd, spec } as KubeObject };
      }
      return p;
    });
}
