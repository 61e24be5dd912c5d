/**
 * Parts of the backend's preview response (`POST /<kind>/<cluster>/preview`)
 * that the frontend shows: one definition for both ends. Types only.
 */

/** The engine and provider the core controller would select, with its reason. */
export interface SelectionPreview {
  engine: { ok: boolean; engine?: string; reason: string; auto?: boolean };
  provider?: { ok: boolean; provider?: string; reason: string; auto?: boolean };
}

/**
 * Why there are provider objects or not: `available`; `not-applicable`
 * (models and stacks); `no-provider` (no engine or provider can be
 * selected, with the core's reason); `provider-unavailable` (not
 * registered, not ready, or no upstream CRD in that cluster);
 * `not-built-in` (registered there, but this portal does not have its
 * transformation); `invalid` (the provider rejects the spec; `field` names
 * the field when it does); `error` (the provider's transformation failed).
 */
export type ProviderObjectsStatus =
  | 'available'
  | 'not-applicable'
  | 'no-provider'
  | 'provider-unavailable'
  | 'not-built-in'
  | 'invalid'
  | 'error';

/**
 * The objects the selected provider would write for a ModelDeployment (KAITO
 * Workspace, DynamoGraphDeployment, ...). `TObject` is each end's type of a
 * Kubernetes object.
 */
export interface ProviderObjects<TObject> {
  status: ProviderObjectsStatus;
  message: string;
  provider?: string;
  /** The upstream apiVersion the provider reports in its InferenceProviderConfig (`status.upstreamCRDVersion`). */
  apiVersion?: string;
  field?: string;
  objects: TObject[];
  /** The provider's notes (unknown override keys, transform warnings): events on the deployment once it runs. */
  warnings: string[];
}
