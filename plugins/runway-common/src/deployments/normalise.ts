/**
 * InferenceProviderConfig in either form: upstream's per-engine capabilities
 * (`engines: [{name: vllm, servingModes: [...], gpuSupport: true}]`) or the
 * seeds' flat form (`engines: [vllm, llamacpp], servingModes: [...],
 * cpuSupport: true, gpuSupport: true`). Everything else in this package works
 * on the per-engine form; `normaliseProviderConfig` turns the flat form into it.
 */
import type { EngineCapability, InferenceProviderConfig } from './types';
import { isRecord, type Json } from '../schema/json';

const FLAT_FIELDS = ['servingModes', 'cpuSupport', 'gpuSupport'] as const;

/**
 * Returns a copy in the per-engine form: engine names become engine objects,
 * and the flat `servingModes`/`cpuSupport`/`gpuSupport` apply to every engine
 * that does not set its own (then they are removed). Anything malformed is
 * kept as is, for validation to report; this never throws.
 *
 * @public
 */
export function normaliseProviderConfig<T = InferenceProviderConfig>(
  config: T,
): T {
  const capabilities = (config as Json)?.spec?.capabilities;
  if (!isRecord(capabilities)) return config;
  const hasFlat = FLAT_FIELDS.some(f => f in capabilities);
  const engines = capabilities.engines;
  const hasNames =
    Array.isArray(engines) && engines.some(e => typeof e === 'string');
  if (!hasFlat && !hasNames) return config;

  const flat: Json = {};
  for (const field of FLAT_FIELDS)
    if (capabilities[field] !== undefined) flat[field] = capabilities[field];
  const normalisedEngines = Array.isArray(engines)
    ? engines.map(engine => {
        const base: Json =
          typeof engine === 'string' ? { name: engine } : engine;
        return isRecord(base) ? { ...flat, ...base } : engine;
      })
    : engines;
  const rest = Object.fromEntries(
    Object.entries(capabilities).filter(
      ([k]) => !(FLAT_FIELDS as readonly string[]).includes(k),
    ),
  );
  const copy = structuredClone(config) as Json;
  copy.spec.capabilities = {
    ...rest,
    ...(normalisedEngines === undefined ? {} : { engines: normalisedEngines }),
  };
  return copy as T;
}

/** The engine capabilities of a provider (after normalisation). @public */
export function engineCapabilities(
  config: InferenceProviderConfig,
): EngineCapability[] {
  const engines = normaliseProviderConfig(config).spec?.capabilities?.engines;
  return Array.isArray(engines)
    ? (engines.filter(isRecord) as EngineCapability[])
    : [];
}

/** A provider accepts workloads only when its controller reported `status.ready: true`. @public */
export function isProviderReady(config: InferenceProviderConfig): boolean {
  return config.status?.ready === true;
}
