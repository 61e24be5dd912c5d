/**
 * KubeRay's `spec.provider.overrides`: the head node's resources and
 * `rayStartParams` (seed 000 section 4.15). The schema is what the shared
 * loop checks (unknown keys warn, wrong types fail).
 */
import type { OverrideSchema } from '@runway-portal/provider-shared';

export const KUBERAY_OVERRIDES: OverrideSchema = {
  head: {
    resources: { cpu: 'string', memory: 'string' },
    rayStartParams: 'stringMap',
  },
};

export interface HeadOverrides {
  resources?: { cpu?: string; memory?: string };
  rayStartParams?: Record<string, string>;
}
