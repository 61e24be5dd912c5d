/**
 * The pure core every simulator shares. A simulated operator moves an
 * upstream object through a fixed list of statuses ("stages"), one step
 * per delay, the way the real operator's status evolves while it creates
 * nodes, pods and services. Which stage an object is in is read back from
 * its own status (conditions and their observedGeneration), so the
 * simulator keeps no state of its own and survives restarts.
 */

export type Json = Record<string, unknown>;

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A metav1.Condition as the upstream CRDs define it. */
export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** The parts of an upstream object the simulators read. */
export interface UpstreamObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    generation?: number;
    annotations?: Record<string, string>;
  };
  spec?: unknown;
  status?: unknown;
}

/** One status an operator reports: its conditions plus the other status fields. */
export interface Stage {
  conditions: Array<
    Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>
  >;
  fields: Json;
}

/** What one simulated operator reports, as pure functions of the object. */
export interface RuntimeSimulation {
  /** Short name: `kaito`, `dynamo`, `kuberay`; the field manager is `simulator-<name>`. */
  name: string;
  /** The statuses of a successful rollout, in order; the last one is settled (ready). */
  stages(obj: UpstreamObject): Stage[];
  /** The status of a failed rollout, with `message` as the operator's error. */
  failed(obj: UpstreamObject, message: string): Stage;
  /**
   * The Service the operator creates for the model server, under the name the
   * provider reports in `status.endpoint.service` (the core's gateway step
   * reads its selector and port). Labels in the operator's style; no pod
   * carries them, since no pods run.
   */
  service(obj: UpstreamObject): ModelService;
}

export interface ModelService {
  name: string;
  selector: Record<string, string>;
  port: number;
  /** A number, or the name of the pods' port. */
  targetPort: number | string;
}

/**
 * Set this annotation on an upstream object to make its simulator report a
 * failure with the annotation's value as the error message (after one step).
 */
export const FAIL_ANNOTATION = 'simulator.runway-portal.dev/fail';

export interface Decision {
  /** The status to apply now; undefined when nothing changes. */
  status?: Json;
  /** Look again after this long; undefined when the object is settled. */
  requeueAfterMs?: number;
  /** The stage the object is in once `status` (if any) is applied. */
  stage: number;
}

/**
 * When this simulator moved an object to a stage. Condition times have
 * whole seconds only, so the controller remembers the exact time; after a
 * restart the conditions' time is the fallback.
 */
export interface StageEntry {
  generation: number;
  stage: number;
  atMs: number;
}

const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};

export function generationOf(obj: UpstreamObject): number {
  return obj.metadata?.generation ?? 1;
}

export function conditionsOf(obj: UpstreamObject): Condition[] {
  const conditions = asRecord(obj.status).conditions;
  return Array.isArray(conditions) ? (conditions as Condition[]) : [];
}

/** The stages this object goes through: the rollout, or its first step then the failure. */
export function plannedStages(
  sim: RuntimeSimulation,
  obj: UpstreamObject,
): Stage[] {
  const stages = sim.stages(obj);
  const failure = obj.metadata?.annotations?.[FAIL_ANNOTATION];
  return failure === undefined ? stages : [stages[0], sim.failed(obj, failure)];
}

/**
 * Index of the stage the object's status shows, or -1 when it shows none
 * for the current generation (new object, or spec changed: start over).
 * A stage matches when every condition has its type, status and reason.
 */
export function currentStage(stages: Stage[], obj: UpstreamObject): number {
  const generation = generationOf(obj);
  const current = conditionsOf(obj);
  if (current.some(c => c.observedGeneration !== generation)) return -1;
  for (let i = stages.length - 1; i >= 0; i--) {
    const wanted = stages[i].conditions;
    const matches =
      wanted.length === current.length &&
      wanted.every(w =>
        current.some(
          c =>
            c.type === w.type && c.status === w.status && c.reason === w.reason,
        ),
      );
    if (matches) return i;
  }
  return -1;
}

/** When the object entered its current stage: the latest condition transition. */
export function enteredAt(obj: UpstreamObject): number {
  const times = conditionsOf(obj)
    .map(c => Date.parse(c.lastTransitionTime ?? ''))
    .filter(t => !Number.isNaN(t));
  return times.length > 0 ? Math.max(...times) : 0;
}

/**
 * The full status of `stage` for `obj`: conditions keep their
 * lastTransitionTime when their status did not change (metav1 semantics),
 * and carry the generation they describe.
 */
export function renderStage(
  stage: Stage,
  obj: UpstreamObject,
  now: Date,
): Json {
  const previous = conditionsOf(obj);
  const generation = generationOf(obj);
  const nowText = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const conditions: Condition[] = stage.conditions.map(c => {
    const before = previous.find(p => p.type === c.type);
    const unchanged = before?.status === c.status && before.lastTransitionTime;
    return {
      ...c,
      lastTransitionTime: unchanged ? before.lastTransitionTime : nowText,
      observedGeneration: generation,
    };
  });
  return { ...stage.fields, conditions };
}

/**
 * What to do with `obj` at time `now`: apply the first stage at once, then
 * each next stage `stepDelayMs` after the object entered the previous one.
 */
export function decide(
  sim: RuntimeSimulation,
  obj: UpstreamObject,
  now: Date,
  stepDelayMs: number,
  remembered?: StageEntry,
): Decision {
  const stages = plannedStages(sim, obj);
  const last = stages.length - 1;
  const index = currentStage(stages, obj);
  const next = (i: number): Decision => ({
    status: renderStage(stages[i], obj, now),
    requeueAfterMs: i < last ? stepDelayMs : undefined,
    stage: i,
  });
  if (index === -1) return next(0);
  if (index === last) return { stage: index };
  const known =
    remembered?.stage === index && remembered.generation === generationOf(obj);
  const since = known ? remembered.atMs : enteredAt(obj);
  const waitMs = since + stepDelayMs - now.getTime();
  if (waitMs > 0) return { requeueAfterMs: waitMs, stage: index };
  return next(index + 1);
}
