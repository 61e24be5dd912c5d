/**
 * What the wizard shows about engine and provider selection while the user
 * types: runway-common's `selectDeployment` (the function the core
 * controller decides with, and the backend's preview shows) against the
 * registrations the chosen cluster holds, and for every provider why it can
 * or cannot run the deployment. Pure.
 */
import {
  checkProviderCompatibility,
  engineCapabilities,
  type ModelDeploymentSpec,
  previewSelection,
  selectDeployment,
  selectEngine,
  withDefaults,
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

export function selectionView(
  spec: ModelDeploymentSpec,
  cluster: ClusterOverview | undefined,
  name?: string,
): SelectionView {
  const md = {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name },
    spec,
  };
  // The form shows its own field errors and blocks submission: show the choice the core makes once they are fixed.
  const { engine, provider } = previewSelection(
    selectDeployment(md, providerConfigsFor(cluster)),
    { whileEditing: true },
  );
  const view: SelectionView = {
    engine: { ...engine, auto: engine.auto ?? !spec.engine?.type },
  };
  return provider
    ? { ...view, provider: { ...provider, auto: provider.auto ?? true } }
    : view;
}

/**
 * For each provider of the cluster: could it run this spec if chosen
 * explicitly? Not ready, no engine for the need, or its compatibility rules
 * (with their own messages) say why not.
 */
export function providerFits(
  spec: ModelDeploymentSpec,
  cluster: ClusterOverview | undefined,
): ProviderFit[] {
  const configs = providerConfigsFor(cluster);
  return configs.map(config => {
    const name = config.metadata?.name ?? '';
    const overview = cluster?.providers.find(p => p.name === name);
    const label = overview?.displayName || name;
    if (!config.status?.ready) {
      return {
        name,
        label,
        ready: false,
        problems: [
          `${label} is not ready${
            overview?.message ? `: ${overview.message}` : ''
          }`,
        ],
      };
    }
    const withProvider = withDefaults({
      ...spec,
      provider: { ...spec.provider, name },
    });
    const engine = selectEngine(withProvider, configs);
    if (!engine.ok)
      return {
        name,
        label,
        ready: true,
        problems: [engine.reason.replace(/^engine.type is required: /, '')],
      };
    const resolved = {
      ...withProvider,
      engine: { ...withProvider.engine, type: engine.engine },
    };
    const offered = engineCapabilities(config).map(c => c.name);
    const problems = checkProviderCompatibility(resolved, config)
      .filter(i => i.severity === 'error')
      .map(i => i.message);
    if (!offered.includes(engine.engine) && !problems.length)
      problems.push(
        `${label} does not offer the ${engine.engine} engine in this cluster`,
      );
    return { name, label, ready: true, problems };
  });
}
