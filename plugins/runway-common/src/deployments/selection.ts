/**
 * Engine selection (seed 002) and provider selection (seeds 000/001/002):
 * pure functions of a ModelDeployment spec and the registered
 * InferenceProviderConfig objects. Provider knowledge is only in those
 * objects (capabilities, CEL selection rules with priorities); see
 * providers.ts for the built-in ones.
 */
import { evaluateCondition, toCel } from '../cel/cel';
import { applySpecDefaults, gpuRequested } from './defaults';
import { AUTO_SELECTED_ENGINES, type EngineType } from './constants';
import { engineCapabilities, isProviderReady } from './normalise';
import type { InferenceProviderConfig, ModelDeploymentSpec } from './types';

/** @public */
export const NO_HEALTHY_PROVIDERS = 'No healthy providers available';
/** @public */
export const EXPLICIT_PROVIDER_REASON = 'explicit provider selection';
/** @public */
export const EXPLICIT_ENGINE_REASON =
  'explicit engine selection (spec.engine.type)';

/** @public */
export type EngineSelection =
  | { ok: true; engine: EngineType; reason: string; auto: boolean }
  | { ok: false; reason: string };

type AutoSelectedEngine = (typeof AUTO_SELECTED_ENGINES)[number];

function isAutoSelected(engine: string): engine is AutoSelectedEngine {
  return (AUTO_SELECTED_ENGINES as readonly string[]).includes(engine);
}

function servingMode(
  spec: ModelDeploymentSpec,
): 'aggregated' | 'disaggregated' {
  return spec.serving?.mode === 'disaggregated'
    ? 'disaggregated'
    : 'aggregated';
}

function byName(
  a: InferenceProviderConfig,
  b: InferenceProviderConfig,
): number {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  if (x < y) return -1;
  return x > y ? 1 : 0;
}

/**
 * Resolves the engine: `spec.engine.type` when set; otherwise the most
 * preferred engine (vllm > sglang > trtllm > llamacpp) that a ready provider
 * offers for the deployment's GPU/CPU need and serving mode (`custom` is
 * never chosen here: it needs the deployment's own image). When
 * `spec.provider.name` is set, only that provider's engines count.
 *
 * @public
 */
export function selectEngine(
  spec: ModelDeploymentSpec,
  providers: InferenceProviderConfig[],
): EngineSelection {
  const explicit = spec.engine?.type;
  if (explicit)
    return {
      ok: true,
      engine: explicit,
      reason: EXPLICIT_ENGINE_REASON,
      auto: false,
    };

  const wanted = spec.provider?.name;
  const candidates = [...providers]
    .sort(byName)
    .filter(
      p => isProviderReady(p) && (!wanted || p.metadata?.name === wanted),
    );
  if (candidates.length === 0) {
    const detail = wanted
      ? `provider ${wanted} is not registered or not ready`
      : NO_HEALTHY_PROVIDERS;
    return { ok: false, reason: `engine.type is required: ${detail}` };
  }

  const gpu = gpuRequested(spec);
  const mode = servingMode(spec);
  const need = `${gpu ? 'GPU' : 'CPU-only'}, ${mode} serving`;
  const offeredBy = new Map<AutoSelectedEngine, string[]>();
  let customOffered = false;
  for (const provider of candidates) {
    for (const capability of engineCapabilities(provider)) {
      const modes = capability.servingModes?.length
        ? capability.servingModes
        : ['aggregated'];
      const fits =
        modes.includes(mode) &&
        (gpu ? capability.gpuSupport === true : capability.cpuSupport === true);
      if (fits && capability.name === 'custom') customOffered = true;
      if (!fits || !isAutoSelected(capability.name)) continue;
      offeredBy.set(capability.name, [
        ...(offeredBy.get(capability.name) ?? []),
        provider.metadata?.name ?? '',
      ]);
    }
  }
  const engine = AUTO_SELECTED_ENGINES.find(e => offeredBy.has(e));
  if (!engine) {
    const names = candidates.map(p => p.metadata?.name).join(', ');
    return {
      ok: false,
      reason: `engine.type is required: no ready provider (${names}) offers an engine for ${need}${
        customOffered
          ? ' (custom is never chosen automatically: set spec.engine.type: custom and spec.image)'
          : ''
      }`,
    };
  }
  const offered = AUTO_SELECTED_ENGINES.filter(e => offeredBy.has(e));
  const alternatives =
    offered.length > 1 ? `preferred over ${offered.slice(1).join(', ')}; ` : '';
  return {
    ok: true,
    engine,
    auto: true,
    reason: `${engine} for ${need} (${alternatives}offered by ${offeredBy
      .get(engine)!
      .join(', ')})`,
  };
}

/** @public */
export interface RuleOutcome {
  condition: string;
  priority: number;
  matched: boolean;
  /** Set when the rule could not be evaluated; such a rule is skipped. */
  error?: string;
}

/** @public */
export interface ProviderOutcome {
  name: string;
  ready: boolean;
  rules: RuleOutcome[];
}

/** @public */
export type ProviderSelection =
  | {
      ok: true;
      provider: string;
      reason: string;
      auto: boolean;
      priority?: number;
      considered: ProviderOutcome[];
    }
  | { ok: false; reason: string; considered: ProviderOutcome[] };

/** Whether the provider lists the engine among its capabilities (either form). @public */
export function offersEngine(
  provider: InferenceProviderConfig,
  engine: EngineType,
): boolean {
  return engineCapabilities(provider).some(e => e.name === engine);
}

interface Match {
  provider: string;
  priority: number;
  reason: string;
}

/**
 * Selects the provider: `spec.provider.name` when set; otherwise evaluates
 * the CEL selection rules of every ready provider against the spec (with
 * `spec.engine.type` already resolved) and picks the highest priority; ties go
 * to the provider whose name sorts first, then to its first matching rule. A
 * rule that fails to evaluate is skipped and reported, never fatal.
 *
 * @public
 */
export function selectProvider(
  spec: ModelDeploymentSpec,
  providers: InferenceProviderConfig[],
): ProviderSelection {
  const explicit = spec.provider?.name;
  if (explicit)
    return {
      ok: true,
      provider: explicit,
      reason: EXPLICIT_PROVIDER_REASON,
      auto: false,
      considered: [],
    };

  const sorted = [...providers].sort(byName);
  const custom = spec.engine?.type === 'custom';
  const considered: ProviderOutcome[] = [];
  const celSpec = toCel(spec);
  let best: Match | undefined;
  const ties: string[] = [];
  for (const provider of sorted) {
    const name = provider.metadata?.name ?? '';
    const outcome: ProviderOutcome = {
      name,
      ready: isProviderReady(provider),
      rules: [],
    };
    considered.push(outcome);
    if (!outcome.ready) continue;
    // The custom engine runs only on a provider that lists it (seed 000 section 3.14); its rules are not evaluated.
    if (custom && !offersEngine(provider, 'custom')) continue;
    let providerBest: Match | undefined;
    for (const rule of provider.spec?.selectionRules ?? []) {
      const priority = rule.priority ?? 0;
      const result = evaluateCondition(rule.condition, { spec: celSpec });
      outcome.rules.push(
        result.ok
          ? { condition: rule.condition, priority, matched: result.value }
          : {
              condition: rule.condition,
              priority,
              matched: false,
              error: result.error,
            },
      );
      if (!result.ok || !result.value) continue;
      if (!providerBest || priority > providerBest.priority) {
        providerBest = {
          provider: name,
          priority,
          reason:
            rule.reason ??
            `rule "${rule.condition}" (priority ${priority}) → ${name}`,
        };
      }
    }
    if (!providerBest) continue;
    if (!best || providerBest.priority > best.priority) {
      best = providerBest;
      ties.length = 0;
    } else if (providerBest.priority === best.priority) {
      ties.push(name);
    }
  }

  if (!considered.some(p => p.ready))
    return { ok: false, reason: NO_HEALTHY_PROVIDERS, considered };
  if (!best) {
    const ready = considered
      .filter(p => p.ready)
      .map(p => p.name)
      .join(', ');
    if (custom)
      return {
        ok: false,
        reason: `No ready provider that offers the custom engine matches this deployment (ready providers: ${ready}); install a provider that registers engine custom in its InferenceProviderConfig and set spec.provider.name, or choose another spec.engine.type`,
        considered,
      };
    return {
      ok: false,
      reason: `No provider's selection rules match this deployment (ready providers: ${ready}); set spec.provider.name`,
      considered,
    };
  }
  const tieNote = ties.length
    ? ` (tied at priority ${best.priority} with ${ties.join(
        ', ',
      )}; chosen by name)`
    : '';
  return {
    ok: true,
    provider: best.provider,
    reason: `${best.reason}${tieNote}`,
    auto: true,
    priority: best.priority,
    considered,
  };
}

/**
 * The core's provider choice (one for the core controller, the portal's
 * preview and the wizard): a provider named in `spec.provider.name` must be
 * registered and ready before a deployment is handed to it, because nothing
 * else would act on it; otherwise the CEL selection rules decide.
 *
 * @public
 */
export function chooseProvider(
  spec: ModelDeploymentSpec,
  providers: InferenceProviderConfig[],
): ProviderSelection {
  const explicit = spec.provider?.name;
  if (!explicit) return selectProvider(spec, providers);
  const registered = providers.find(p => p.metadata?.name === explicit);
  if (!registered) {
    const known =
      providers
        .map(p => p.metadata?.name)
        .filter(Boolean)
        .join(', ') || 'none';
    return {
      ok: false,
      reason: `Provider '${explicit}' is not registered (no InferenceProviderConfig named ${explicit}; registered: ${known}); install its provider controller or change spec.provider.name`,
      considered: [],
    };
  }
  if (!isProviderReady(registered)) {
    // The provider's Ready condition says why (upstream CRD missing, heartbeat stale), when it has one.
    const why = registered.status?.conditions?.find(
      c => c.type === 'Ready' && c.status !== 'True',
    )?.message;
    return {
      ok: false,
      reason: why
        ? `Provider '${explicit}' is not ready: ${why}`
        : `Provider '${explicit}' is not ready (its InferenceProviderConfig reports status.ready=${String(
            registered.status?.ready ?? false,
          )}); waiting for its controller`,
      considered: [],
    };
  }
  return selectProvider(spec, providers);
}

/** @public */
export interface Resolution {
  /** The spec with defaults applied and `engine.type` resolved: what providers transform. */
  spec: ModelDeploymentSpec;
  engine: EngineSelection;
  provider?: ProviderSelection;
}

/**
 * Defaults, engine selection, then provider selection (`chooseProvider`):
 * what the core controller records in status.engine and status.provider.
 *
 * @public
 */
export function resolveDeployment(
  spec: ModelDeploymentSpec,
  providers: InferenceProviderConfig[],
  deploymentName?: string,
): Resolution {
  const defaulted = applySpecDefaults(spec, deploymentName);
  const engine = selectEngine(defaulted, providers);
  if (!engine.ok) return { spec: defaulted, engine };
  const resolved: ModelDeploymentSpec = {
    ...defaulted,
    engine: { ...defaulted.engine, type: engine.engine },
  };
  return {
    spec: resolved,
    engine,
    provider: chooseProvider(resolved, providers),
  };
}
