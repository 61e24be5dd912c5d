/**
 * llm-d's `spec.provider.overrides`: the endpoint picker (EPP) the
 * InferencePool hands scheduling to (the provider's own, with another image
 * or plugin config, or one the user runs), and the routing sidecar image of
 * disaggregated decode pods. The schema is what the shared loop checks
 * (unknown keys warn, wrong types fail); `readLlmdOverrides` fills in
 * defaults and refuses combinations that cannot work.
 */
import { EPP_PORTS, defaultImage } from '@runway-portal/plugin-runway-common';
import {
  type OverrideSchema,
  TransformError,
} from '@runway-portal/provider-shared';

export const LLMD_OVERRIDES: OverrideSchema = {
  endpointPicker: {
    name: 'string',
    port: 'integer',
    image: 'string',
    config: 'string',
  },
  routingSidecar: { image: 'string' },
};

/**
 * llm-d's inference scheduler: the GAIE endpoint picker with llm-d's plugins
 * (decode/prefill filters, P/D profiles), the release of the default
 * model-server image. GAIE's plain EPP image has no P/D plugins and would
 * send requests to prefill pods too.
 */
export const DEFAULT_LLMD_EPP_IMAGE = defaultImage('llmd', 'epp');

/** Aggregated: prefix-cache aware, decode pods only (llm-d's default scheduler config). */
export const LLMD_EPP_CONFIG = `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefix-cache-scorer
- type: decode-filter
- type: max-score-picker
- type: single-profile-handler
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: decode-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
`;

/**
 * Disaggregated: a prefill pod and a decode pod per request; the prefill
 * pick travels in a header to the decode pod's routing sidecar.
 */
export const LLMD_PD_EPP_CONFIG = `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: prefill-header-handler
- type: prefix-cache-scorer
- type: prefill-filter
- type: decode-filter
- type: max-score-picker
- type: pd-profile-handler
schedulingProfiles:
- name: prefill
  plugins:
  - pluginRef: prefill-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
- name: decode
  plugins:
  - pluginRef: decode-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
`;

/** llm-d's routing sidecar, the release of the default model-server image. */
export const DEFAULT_ROUTING_SIDECAR_IMAGE = defaultImage(
  'llmd',
  'routing-sidecar',
);

export type LlmdEndpointPicker =
  /** The provider runs the picker `<deployment>-epp`; `config` undefined means the serving mode's default. */
  | { external: false; image: string; config?: string }
  /** The user runs the picker: the pool points at it and the provider deploys none. */
  | { external: true; name: string; port: number };

export interface LlmdOverrides {
  endpointPicker: LlmdEndpointPicker;
  routingSidecar: { image: string };
}

type Raw = {
  endpointPicker?: {
    name?: string;
    port?: number;
    image?: string;
    config?: string;
  };
  routingSidecar?: { image?: string };
};

const EPP = 'spec.provider.overrides.endpointPicker';

function readEndpointPicker(
  raw: Raw['endpointPicker'] = {},
): LlmdEndpointPicker {
  if (raw.name) {
    for (const key of ['image', 'config'] as const) {
      if (raw[key]) {
        throw new TransformError(
          `${EPP}.${key}`,
          `applies only to the provider's own endpoint picker: remove it, or remove ${EPP}.name`,
        );
      }
    }
    const port = raw.port ?? EPP_PORTS.grpc;
    if (port < 1 || port > 65535)
      throw new TransformError(
        `${EPP}.port`,
        `must be a port number (1-65535), got ${port}`,
      );
    return { external: true, name: raw.name, port };
  }
  if (raw.port !== undefined) {
    throw new TransformError(
      `${EPP}.port`,
      `applies only with ${EPP}.name (an endpoint picker you run): the provider's own picker listens on ${EPP_PORTS.grpc}`,
    );
  }
  return {
    external: false,
    image: raw.image || DEFAULT_LLMD_EPP_IMAGE,
    config: raw.config || undefined,
  };
}

/** Overrides with defaults, from values whose types the loop has checked against `LLMD_OVERRIDES`. */
export function readLlmdOverrides(raw: unknown): LlmdOverrides {
  const o = (raw ?? {}) as Raw;
  return {
    endpointPicker: readEndpointPicker(o.endpointPicker),
    routingSidecar: {
      image: o.routingSidecar?.image || DEFAULT_ROUTING_SIDECAR_IMAGE,
    },
  };
}
