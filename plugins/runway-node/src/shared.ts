/**
 * Names the frontend, the backend and the scaffolder module must agree on.
 * Isomorphic (no Node APIs), like permissions.ts, so that both can move to
 * runway-common as they are.
 */
import type { RunwayKind } from './kinds';

/** The catalog entity that owns a resource, set by the portal's forms and templates, e.g. `component:default/chatbot`. */
export const ENTITY_REF_ANNOTATION = 'runway.backstage.io/entity-ref';

/** The signal channel of a kind: `runway:deployments`, `runway:models`, `runway:stacks`. */
export function runwaySignalChannel(kind: RunwayKind): string {
  return `runway:${kind}`;
}

/** The message on a runway signal channel: where something changed, not what. */
export interface RunwaySignal {
  kind: RunwayKind;
  cluster: string;
  namespace: string;
  /** How many changes the message stands for. */
  changes: number;
  /** True when only events changed (the resources themselves did not). */
  eventsOnly: boolean;
}
