/**
 * Each simulation as a tiny controller: watch the upstream kind, apply the
 * status `decide` returns and the Service the operator would create, with
 * the field manager `simulator-<name>`. The gateway simulator is one more
 * controller, on Gateways.
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
import {
  GATEWAY_KIND,
  gatewayStatus,
  SIMULATED_GATEWAY_CLASS,
} from './gateway';
import { KUBERAY_RAY_SERVICE, kuberaySimulation } from './kuberay';
import {
  LLAMA_STACK_SIMULATOR,
  registerLlamaStackSimulator,
  type LlamaStackSimulator,
} from './llamaStack';
import type { ModelServerPods } from './modelServerPods';
import {
  decide,
  generationOf,
  type ModelService,
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

/** The gateway implementation's simulator (see gateway.ts). */
export const GATEWAY_SIMULATOR = 'gateway';

export const SIMULATOR_NAMES = [
  ...SIMULATED_KINDS.map(k => k.simulation.name),
  GATEWAY_SIMULATOR,
  LLAMA_STACK_SIMULATOR,
];

/** Marks what a simulator created (its Services), so nobody mistakes it for an operator's. */
export const SIMULATOR_LABEL = 'runway-portal.dev/simulator';

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

export function fieldManagerOf(simulation: { name: string }): string {
  return `simulator-${simulation.name}`;
}

/** The operator's Service for `owner`, owned by it (deleted with it). Pure. */
export function modelServiceObject(
  simulator: string,
  owner: {
    apiVersion: string;
    kind: string;
    name: string;
    namespace?: string;
    uid: string;
  },
  service: ModelService,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: service.name,
      namespace: owner.namespace,
      labels: { [SIMULATOR_LABEL]: simulator },
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.name,
          uid: owner.uid,
          controller: true,
        },
      ],
    },
    spec: {
      selector: service.selector,
      ports: [
        {
          name: 'http',
          protocol: 'TCP',
          port: service.port,
          targetPort: service.targetPort,
        },
      ],
    },
  } as KubeObject;
}

export interface RegisterOptions {
  /** Names from SIMULATOR_NAMES; default all. */
  only?: string[];
  stepDelayMs?: number;
  /** Also give each upstream object a model server pod with a log (modelServerPods.ts). */
  modelServerPods?: ModelServerPods;
}

export interface Registered {
  /** `name (group/version kind)` of each simulator registered. */
  started: string[];
  /** Why a simulator did not start (its CRD is not installed). */
  skipped: string[];
  /** The llama-stack server simulator (llamaStack.ts), when registered. */
  llamaStack?: LlamaStackSimulator;
}

async function resolveKind(
  client: KubeClient,
  kind: { group: string; plural: string; kind: string },
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
  return {
    group: kind.group,
    version,
    plural: kind.plural,
    kind: kind.kind,
    namespaced: true,
  };
}

/** Registers one controller per simulator whose CRD is installed. */
export async function registerSimulators(
  mgr: Manager,
  options: RegisterOptions = {},
): Promise<Registered> {
  const stepDelayMs = options.stepDelayMs ?? DEFAULT_STEP_DELAY_MS;
  const unknown = (options.only ?? []).filter(
    n => !SIMULATOR_NAMES.includes(n),
  );
  if (unknown.length > 0) {
    throw new Error(
      `unknown simulator(s) ${unknown.join(
        ', ',
      )}: choose from ${SIMULATOR_NAMES.join(', ')}`,
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
    /** The uid of the object whose Service this process applied (once per object, as operators create it). */
    const served = new Map<string, string>();
    mgr
      .controller()
      .named(fieldManagerOf(simulation))
      .for(rt)
      .complete(async request => {
        const key = keyOf(request);
        const obj = informer.store.get(key) as UpstreamObject | undefined;
        if (!obj || (obj as KubeObject).metadata?.deletionTimestamp) {
          entered.delete(key);
          served.delete(key);
          return {};
        }
        const uid = (obj as KubeObject).metadata?.uid ?? '';
        if (served.get(key) !== uid) {
          const owner = {
            apiVersion: `${rt.group}/${rt.version}`,
            kind: rt.kind,
            name: request.name,
            namespace: request.namespace,
            uid,
          };
          const operatorService = simulation.service(obj);
          // With simulated model server pods, the Service targets their named port (the OpenAI simulator's).
          const service = options.modelServerPods
            ? {
                ...operatorService,
                targetPort: options.modelServerPods.targetPort,
              }
            : operatorService;
          await applier.apply(
            modelServiceObject(simulation.name, owner, service),
            { force: true },
          );
          await options.modelServerPods?.ensurePod(owner, service.selector);
          served.set(key, uid);
        }
        const now = new Date();
        const decision = decide(
          simulation,
          obj,
          now,
          stepDelayMs,
          entered.get(key),
        );
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
    result.started.push(
      `${simulation.name} (${rt.group}/${rt.version} ${rt.kind})`,
    );
  }
  if (!options.only || options.only.includes(GATEWAY_SIMULATOR)) {
    const rt = await resolveKind(mgr.client, GATEWAY_KIND);
    if (typeof rt === 'string')
      result.skipped.push(`${GATEWAY_SIMULATOR}: ${rt}`);
    else {
      registerGatewaySimulator(mgr, rt);
      result.started.push(
        `${GATEWAY_SIMULATOR} (${rt.group}/${rt.version} ${rt.kind}, class ${SIMULATED_GATEWAY_CLASS})`,
      );
    }
  }
  if (!options.only || options.only.includes(LLAMA_STACK_SIMULATOR)) {
    result.llamaStack = registerLlamaStackSimulator(mgr);
    result.started.push(
      `${LLAMA_STACK_SIMULATOR} (GET /v1/health of llama-stack pods, at loopback pod IPs)`,
    );
  }
  return result;
}

/** Writes address and conditions on the simulated class's Gateways (gateway.ts). */
function registerGatewaySimulator(mgr: Manager, rt: ResourceType): void {
  const informer = mgr.informers.informerFor<KubeObject>(rt);
  const applier = mgr.applier(fieldManagerOf({ name: GATEWAY_SIMULATOR }));
  mgr
    .controller()
    .named(fieldManagerOf({ name: GATEWAY_SIMULATOR }))
    .for(rt)
    .complete(async request => {
      const obj = informer.store.get(keyOf(request)) as
        | UpstreamObject
        | undefined;
      if (!obj || (obj as KubeObject).metadata?.deletionTimestamp) return {};
      const status = gatewayStatus(obj, new Date());
      if (status) {
        await applier.applyStatus(
          {
            apiVersion: `${rt.group}/${rt.version}`,
            kind: rt.kind,
            metadata: { name: request.name, namespace: request.namespace },
            status,
          },
          { force: true },
        );
      }
      return {};
    });
}
