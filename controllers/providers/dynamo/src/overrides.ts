/**
 * Dynamo's `spec.provider.overrides` (seed 000 section 4.15). The schema is
 * what the shared loop checks (unknown keys at any depth warn, wrong types
 * fail); `readDynamoOverrides` then fills in the seed's defaults.
 */
import {
  type OverrideSchema,
  TransformError,
} from '@runway-portal/provider-shared';

export const ROUTER_MODES = ['kv', 'round-robin', 'none'] as const;
export type RouterMode = (typeof ROUTER_MODES)[number];

/** Known keys and their types. */
export const DYNAMO_OVERRIDES: OverrideSchema = {
  routerMode: 'string',
  frontend: {
    replicas: 'integer',
    resources: { cpu: 'string', memory: 'string' },
  },
};

export interface DynamoOverrides {
  routerMode: RouterMode;
  frontend: { replicas: number; resources: { cpu: string; memory: string } };
}

/** Seed 000 section 4.15 "Dynamo Defaults". */
export const DYNAMO_OVERRIDE_DEFAULTS: DynamoOverrides = {
  routerMode: 'round-robin',
  frontend: { replicas: 1, resources: { cpu: '2', memory: '4Gi' } },
};

type Raw = {
  routerMode?: string;
  frontend?: {
    replicas?: number;
    resources?: { cpu?: string; memory?: string };
  };
};

/** Overrides with defaults, from values whose types the loop has checked against `DYNAMO_OVERRIDES`. */
export function readDynamoOverrides(raw: unknown): DynamoOverrides {
  const o = (raw ?? {}) as Raw;
  const routerMode = o.routerMode ?? DYNAMO_OVERRIDE_DEFAULTS.routerMode;
  if (!(ROUTER_MODES as readonly string[]).includes(routerMode)) {
    throw new TransformError(
      'spec.provider.overrides.routerMode',
      `must be one of ${ROUTER_MODES.join(', ')}, got ${JSON.stringify(
        routerMode,
      )}`,
    );
  }
  const replicas =
    o.frontend?.replicas ?? DYNAMO_OVERRIDE_DEFAULTS.frontend.replicas;
  if (replicas < 0) {
    throw new TransformError(
      'spec.provider.overrides.frontend.replicas',
      `must be 0 or more, got ${replicas}`,
    );
  }
  const defaults = DYNAMO_OVERRIDE_DEFAULTS.frontend.resources;
  return {
    routerMode: routerMode as RouterMode,
    frontend: {
      replicas,
      resources: {
        cpu: o.frontend?.resources?.cpu || defaults.cpu,
        memory: o.frontend?.resources?.memory || defaults.memory,
      },
    },
  };
}
