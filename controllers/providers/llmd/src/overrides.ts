/**
 * llm-d's `spec.provider.overrides`: which endpoint picker (EPP) the
 * InferencePool hands scheduling to, and the routing sidecar image of
 * disaggregated decode pods. The schema is what the shared loop checks
 * (unknown keys warn, wrong types fail); `readLlmdOverrides` fills in
 * defaults.
 */
import { type OverrideSchema, TransformError } from '@runway-portal/provider-shared';

export const LLMD_OVERRIDES: OverrideSchema = {
  endpointPicker: { name: 'string', port: 'integer' },
  routingSidecar: { image: 'string' },
};

/** The GAIE inferencepool chart's EPP port (its Service is `<pool>-epp`). */
export const DEFAULT_EPP_PORT = 9002;
/** llm-d's routing sidecar, the release of the default model-server image. */
export const DEFAULT_ROUTING_SIDECAR_IMAGE = 'ghcr.io/llm-d/llm-d-routing-sidecar:v0.4.0';

export interface LlmdOverrides {
  /** EPP Service; `name` undefined means `<deployment>-epp`. */
  endpointPicker: { name?: string; port: number };
  routingSidecar: { image: string };
}

type Raw = { endpointPicker?: { name?: string; port?: number }; routingSidecar?: { image?: string } };

/** Overrides with defaults, from values whose types the loop has checked against `LLMD_OVERRIDES`. */
export function readLlmdOverrides(raw: unknown): LlmdOverrides {
  const o = (raw ?? {}) as Raw;
  const port = o.endpointPicker?.port ?? DEFAULT_EPP_PORT;
  if (port < 1 || port > 65535) {
    throw new TransformError('spec.provider.overrides.endpointPicker.port', `must be a port number (1-65535), got ${port}`);
  }
  return {
    endpointPicker: { name: o.endpointPicker?.name || undefined, port },
    routingSidecar: { image: o.routingSidecar?.image || DEFAULT_ROUTING_SIDECAR_IMAGE },
  };
}
