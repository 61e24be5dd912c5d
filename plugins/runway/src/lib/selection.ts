/**
 * What the wizard shows about engine and provider selection while the user
 * types: runway-common's own selection (the core controller's) against the
 * chosen cluster's providers, and for every provider why it can or cannot
 * run the deployment. Pure.
 */
import {
  applySpecDefaults,
  checkProviderCompatibility,
  type ModelDeploymentSpec,
  resolveDeployment,
  selectEngine,
} from '@runway-portal/plugin-runway-common';
import type { ClusterOverview } from '../api/types';
import { providerConfigsFor } from './clusters';

export interface SelectionView {
  engine: { ok: boolean; engine?: string; reason: string; auto: boolean };
  provider?: { ok: boolean; provider?: string; reason: string; auto: boolean };
}

export interface ProviderFit {
  name: string;
  label: string;
  ready: boolean;
  /** Why this provider cannot run the deployment; empty when it can. */
  problems: string[];
}

export function selectionView(spec: ModelDeploymentSpec, cluster: ClusterOverview | undefined, name?: string): SelectionView {
  const resolution = resolveDeployment(spec, providerConfigsFor(cluster), name);
  const e = resolution.engine;
  const engine = e.ok ? { ok: true, engine: e.engine, reason: e.reason, auto: e.auto } : { ok: false, reason: e.reason, auto: !spec.engine?.type };
  const p = resolution.provider;
  if (!p) return { engine };
  return {
    engine,
    provider: p.ok ? { ok: true, provider: p.provider, reason: p.reason, auto: p.auto } : { ok: false, reason: p.reason, auto: true },
  };
}

/**
 * For each provider of the cluster: could it run this spec if chosen
 * explicitly? Not ready, no engine for the need, or its compatibility rules
 * (with their own messages) say why not.
 */
export function providerFits(spec: ModelDeploymentSpec, cluster: ClusterOverview | undefined): ProviderFit[] {
  const configs = providerConfigsFor(cluster);
  return configs.map(config => {
    const name = config.metadata?.name ?? '';
    const overview = cluster?.providers.find(p => p.name === name);
    const label = overview?.displayName || name;
    if (!config.status?.ready) {
      return { name, label, ready: false, problems: [`${label} is not ready${overview?.message ? `: ${overview.message}` : ''}`] };
    }
    const withProvider = applySpecDefaults({ ...spec, provider: { ...spec.provider, name } });
    const engine = selectEngine(withProvider, configs);
    if (!engine.ok) return { name, label, ready: true, problems: [engine.reason.replace(/^engine.type is required: /, '')] };
    const resolved = { ...withProvider, engine: { ...withProvider.engine, type: engine.engine } };
    const offered = (config.spec?.capabilities?.engines ?? []).map(c => c.name);
    const problems = checkProviderCompatibility(resolved, config)
      .filter(i => i.severity === 'error')
      .map(i => i.message);
    if (!offered.includes(engine.engine) && !problems.length) problems.push(`${label} does not offer the ${engine.engine} engine in this cluster`);
    return { name, label, ready: true, problems };
  });
}
