/**
 * The providers registered in a cluster (InferenceProviderConfig objects),
 * summarised for people: name, readiness and the engines each one runs.
 * Both capability forms are read through runway-common's normalisation.
 */
import {
  engineCapabilities,
  type InferenceProviderConfig,
  isProviderReady,
  normaliseProviderConfig,
  type ProviderEngine,
  type ProviderSummary,
} from '@runway-portal/plugin-runway-common';

/** The REST contract's shapes (runway-common). */
export type {
  ProviderEngine,
  ProviderSummary,
} from '@runway-portal/plugin-runway-common';

/** Engines of a provider, from either capability form. @public */
export function providerEngines(
  config: InferenceProviderConfig,
): ProviderEngine[] {
  return engineCapabilities(config).map(e => ({
    name: e.name,
    servingModes: e.servingModes ?? [],
    gpuSupport: e.gpuSupport === true,
    cpuSupport: e.cpuSupport === true,
  }));
}

export function summarizeProvider(
  config: InferenceProviderConfig,
): ProviderSummary {
  const name = config.metadata?.name ?? '';
  const status = config.status;
  const ready = isProviderReady(config);
  const readyCondition = status?.conditions?.find(c => c.type === 'Ready');
  let message: string;
  if (!status || status.ready === undefined) {
    message =
      'the provider controller has not reported yet: check that it is running in the cluster';
  } else if (ready) {
    message = readyCondition?.message || 'ready';
  } else {
    message =
      readyCondition?.message ||
      readyCondition?.reason ||
      'the provider controller reports it is not ready';
  }
  return {
    name,
    displayName:
      config.metadata?.annotations?.['airunway.ai/display-name'] || name,
    ready,
    message,
    version: status?.version,
    lastHeartbeat: status?.lastHeartbeat,
    engines: providerEngines(config),
    spec: normaliseProviderConfig(config).spec ?? {},
  };
}

/** @public */
export function summarizeProviders(
  configs: InferenceProviderConfig[],
): ProviderSummary[] {
  return configs
    .map(summarizeProvider)
    .sort((a, b) => a.name.localeCompare(b.name));
}
