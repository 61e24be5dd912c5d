import type {
  KubeObject,
  ResourceType,
} from '@runway-portal/controller-runtime';
import type {
  DeploymentPhase,
  InferenceProviderConfig,
  ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { OverrideSchema } from './overrides';

/** The upstream custom resource a provider translates a ModelDeployment into. @public */
export interface UpstreamKind {
  group: string;
  kind: string;
  /** Lower-case plural, e.g. `workspaces`; the CRD is `<plural>.<group>`. */
  plural: string;
  /** Versions the provider can write, most preferred first (e.g. ['v1beta1', 'v1alpha1']). */
  versions: string[];
}

/** What `transform` gets besides the deployment. @public */
export interface TransformContext {
  /** The upstream apiVersion detected in the cluster, e.g. `kaito.sh/v1beta1`. */
  apiVersion: string;
  /**
   * The upstream release the installed CRD shows, from the definition's
   * `upstreamRelease` (e.g. KAITO `0.9.0`); undefined when the provider does
   * not detect one or the caller does not know it (the preview).
   */
  upstreamRelease?: string;
  /**
   * What the definition's `prepare` looked up for this deployment (e.g.
   * KAITO's GGUF file from the hub); undefined when it has no `prepare` or
   * the caller did not run it (the preview).
   */
  inputs?: Record<string, string>;
}

/**
 * The objects a deployment becomes. The first is the primary upstream
 * resource (its kind is `UpstreamKind`); any others are helpers of kinds
 * listed in `ProviderDefinition.extraKinds`. Name and namespace are required;
 * owner reference and labels are added by the loop.
 *
 * @public
 */
export interface TransformResult {
  objects: KubeObject[];
  /** Non-fatal notes for the user (each becomes a Warning event). */
  warnings?: string[];
}

/** The status fields a provider owns (seed 001 ownership table). @public */
export interface MappedStatus {
  phase: DeploymentPhase;
  message: string;
  /** True when the deployment serves traffic (condition Ready). */
  ready: boolean;
  /** Reason of the Ready condition, e.g. `WorkspaceSucceeded`. */
  reason: string;
  replicas?: { desired?: number; ready?: number; available?: number };
  endpoint?: { service?: string; port?: number };
}

/**
 * Everything provider-specific. All functions are pure: the shared loop
 * does every read and write.
 *
 * @public
 */
export interface ProviderDefinition {
  /** Provider name as in `status.provider.name`, e.g. `kaito`. */
  name: string;
  /** The InferenceProviderConfig this provider registers (runway-common's built-in data). */
  registration: InferenceProviderConfig;
  /** Version string reported in the registration status, e.g. `kaito-provider:v0.1.0`. */
  version: string;
  upstream: UpstreamKind;
  /**
   * The upstream release the installed CRD is consistent with, for
   * providers whose output depends on it (pure: the CRD as the API server
   * returns it). The loop passes it to `transform` as `upstreamRelease`.
   */
  upstreamRelease?(crd: KubeObject): string | undefined;
  /**
   * Looks up what the pure transform needs from outside the cluster (the
   * only impure step a definition may have), before each transform in the
   * loop; the result becomes `TransformContext.inputs`. Throw
   * `TransformError` for input that cannot work (it goes to the status, as
   * from `transform`); any other error is retried with backoff.
   */
  prepare?(
    md: ModelDeployment,
    ctx: TransformContext,
  ): Promise<Record<string, string> | undefined>;
  /** Kinds besides the upstream one that `transform` may return (ConfigMaps, Services...). */
  extraKinds?: ResourceType[];
  /**
   * Parallel reconciles when `--max-concurrent-reconciles` is not given;
   * unset: `DEFAULT_PROVIDER_WORKERS`. For providers whose reconciles wait
   * longer than most (llm-d's on the API server's ClusterIP allocator).
   */
  maxConcurrentReconciles?: number;
  /** Known `spec.provider.overrides` keys and types; unknown keys warn, wrong types fail. */
  overrides: OverrideSchema;
  /**
   * Desired objects for a deployment (spec defaulted, `spec.engine.type`
   * resolved). Throw `TransformError` for input it cannot translate.
   */
  transform(md: ModelDeployment, ctx: TransformContext): TransformResult;
  /**
   * Unified status from the live upstream resource (with status as its
   * operator wrote it). `extras` are the live helper objects, in the order
   * `transform` returned them (after the primary), for providers whose
   * status comes from them too (e.g. Deployments).
   */
  mapStatus(
    md: ModelDeployment,
    upstream: KubeObject,
    extras?: KubeObject[],
  ): MappedStatus;
}

/** Input a provider cannot translate: the message goes to the deployment's status. @public */
export class TransformError extends Error {
  readonly name = 'TransformError';
  constructor(
    /** The spec field at fault, e.g. `spec.image`. */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}
