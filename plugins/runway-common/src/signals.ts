/**
 * The signals the runway backend publishes when resources change, and the
 * channel the frontend subscribes to: one definition for both ends.
 */
import type { RunwayKind } from './permissions';

/** The signal channel of a kind: `runway:deployments`, `runway:models`, `runway:stacks`. @public */
export function runwaySignalChannel(kind: RunwayKind): string {
  return `runway:${kind}`;
}

/** The message on a runway signal channel: where something changed, not what. @public */
export interface RunwaySignal {
  kind: RunwayKind;
  cluster: string;
  namespace: string;
  /** How many changes the message stands for. */
  changes: number;
  /** True when only events changed (the resources themselves did not). */
  eventsOnly: boolean;
}
