/**
 * Each simulation as a tiny controller: watch the upstream kind, and apply
 * the status `decide` returns with the field manager `simulator-<name>`.
 */
import {
  CustomResourceDefinitions,
  keyOf,
  type KubeClient,
  type KubeObject,
  type Manager,
  isNotFound,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { DYNAMO_GRAPH_DEPLOYMENT, dynamoSimulation } from './dynamo';
import { KAITO_WORKSPACE, kaitoSimulation } from './kaito';
import { KUBERAY_RAY_SERVICE, kuberaySimulation } from './kuberay';
import {
  decide,
  generationOf,
  type RuntimeSimulation,
  type StageEntry,
  type UpstreamObject,
} from './stages';

export interface SimulatedKind {
  simulation: RuntimeSimulation;
  group: string;
  plural: string;
  kind: string;
}

/** Every simulator, by name. */
export const SIMULATED_KINDS: readonly SimulatedKind[] = [
  { simulation: kaitoSimulation, ...KAITO_WORKSPACE },
  { simulation: dynamoSimulation, ...DYNAMO_GRAPH_DEPLOYMENT },
  { simulation: kuberaySimulation, ...KUBERAY_RAY_SERVICE },
];

export const SIMULATOR_NAMES = SIMULATED_KINDS.map(k => k.simulation.name);

/** Default time between two status steps: a few seconds to Running, as a small model would take. */
export const DEFAULT_STEP_DELAY_MS = 2000;

interface CrdShape {
  spec?: { versions?: Array<{ name?: string; storage?: boolean }> };
  status?: { conditions?: Array<{ type?: string; status?: string }> };
}

/**
 * The version to watch: the storage version, which needs no conversion
 * webhook (the Dynamo CRD converts through the Dynamo operator's webhook,
 * which a simulator does not run). Undefined until the CRD is Established.
 */
export function storageVersion(crd: CrdShape | undefined): string | undefined {
  const established = crd?.status?.conditions?.some(
    c => c.type === 'Established' && c.status === 'True',
  );
  if (!established) return undefined;
  return crd?.spec?.versions?.find(v => v.storage)?.name;
}

export function fieldManagerOf(simulation: RuntimeSimulation): string {
  return `simulator-${simulation.name}`;
}

export interface RegisterOptions {
  /** Names from SIMULATOR_NAMES; default all. */
  only?: string[];
  stepDelayMs?: number;
}

export interface Registered {
  /** `name (group/version kind)` of each simulator registered. */
  started: string[];
  /** Why a simulator did not start (its CRD is not installed). */
  skipped: string[];
}

async function resolveKind(
  client: KubeClient,
  kind: SimulatedKind,
): Promise<ResourceType | string> {
  const crdName = `${kind.plural}.${kind.group}`;
  let crd: CrdShape;
  try {
    crd = await client.get<KubeObject & CrdShape>(CustomResourceDefinitions, {
      name: crdName,
    });
  } catch (err) {
    if (isNotFound(err)) return `CRD ${crdName} is not installed`;
    throw err;
  }
  const version = storageVersion(crd);
  if (!version) return `CRD ${crdName} is not Established`;
  return { group: kind.group, version, plural: kind.plural, kind: kind.kind, namespaced: true };
}

/** Registers one controller per simulator whose CRD is installed. */
export async function registerSimulators(
  mgr: Manager,
  options: RegisterOptions = {},
): Promise<Registered> {
  const stepDelayMs = options.stepDelayMs ?? DEFAULT_STEP_DELAY_MS;
  const unknown = (options.only ?? []).filter(n => !SIMULATOR_NAMES.includes(n));
  if (unknown.length > 0) {
    throw new Error(
      `unknown simulator(s) ${unknown.join(', ')}: choose from ${SIMULATOR_NAMES.join(', ')}`,
    );
  }
  const result: Registered = { started: [], skipped: [] };
  for (const kind of SIMULATED_KINDS) {
    const { simulation } = kind;
    if (options.only && !options.only.includes(simulation.name)) continue;
    const rt = await resolveKind(mgr.client, kind);
    if (typeof rt === 'string') {
      result.skipped.push(`${simulation.name}: ${rt}`);
      continue;
    }
    const informer = mgr.informers.informerFor<KubeObject>(rt);
    const applier = mgr.applier(fieldManagerOf(simulation));
    const entered = new Map<string, StageEntry>();
    mgr
      .controller()
      .named(fieldManagerOf(simulation))
      .for(rt)
      .complete(async request => {
        const key = keyOf(request);
        const obj = informer.store.get(key) as UpstreamObject | undefined;
        if (!obj || (obj as KubeObject).metadata?.deletionTimestamp) {
          entered.delete(key);
          return {};
        }
        const now = new Date();
        const decision = decide(simulation, obj, now, stepDelayMs, entered.get(key));
        if (decision.status) {
          await applier.applyStatus(
            {
              apiVersion: `${rt.group}/${rt.version}`,
              kind: rt.kind,
              metadata: { name: request.name, namespace: request.namespace },
              status: decision.status,
            },
            { force: true },
          );
          entered.set(key, {
            generation: generationOf(obj),
            stage: decision.stage,
            atMs: now.getTime(),
          });
        }
        return decision.requeueAfterMs === undefined
          ? {}
          : { requeueAfterMs: decision.requeueAfterMs };
      });
    result.started.push(`${simulation.name} (${rt.group}/${rt.version} ${rt.kind})`);
  }
  return result;
}
