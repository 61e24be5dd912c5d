/**
 * "Show before doing": the exact objects a create or update would write,
 * from a server-side dry run, plus for deployments the engine and provider
 * the core controller would select (runway-common's selection, against the
 * providers registered in that cluster).
 */
import {
  type InferenceProviderConfig,
  type ModelDeploymentSpec,
  resolveDeployment,
  type ValidationIssue,
} from '@runway-portal/plugin-runway-common';
import type { ClusterClient, RunwayKind } from '@runway-portal/plugin-runway-node';
import type { KubeObject } from '@runway-portal/controller-runtime';

export type PreviewMode = 'create' | 'update';

export interface SelectionPreview {
  engine: { ok: boolean; engine?: string; reason: string; auto?: boolean };
  provider?: { ok: boolean; provider?: string; reason: string; auto?: boolean };
}

export interface Preview {
  cluster: string;
  mode: PreviewMode;
  objects: Array<{ action: PreviewMode; object: KubeObject }>;
  warnings: ValidationIssue[];
  selection?: SelectionPreview;
  providerObjects: { status: 'available' | 'pending' | 'not-applicable'; message: string; objects: KubeObject[] };
}

/** Engine and provider selection of a deployment, as the core controller would do it. Pure. */
export function selectionPreview(body: KubeObject, providers: InferenceProviderConfig[]): SelectionPreview {
  const spec = (body.spec ?? {}) as ModelDeploymentSpec;
  const resolution = resolveDeployment(spec, providers, body.metadata?.name);
  const engine = resolution.engine.ok
    ? { ok: true, engine: resolution.engine.engine, reason: resolution.engine.reason, auto: resolution.engine.auto }
    : { ok: false, reason: resolution.engine.reason };
  const p = resolution.provider;
  const provider = p && (p.ok ? { ok: true, provider: p.provider, reason: p.reason, auto: p.auto } : { ok: false, reason: p.reason });
  return provider ? { engine, provider } : { engine };
}

/**
 * Where the provider's transformed objects go. The provider transformations
 * are not part of the portal yet; the field is there so that they slot in.
 */
function providerObjects(kind: RunwayKind): Preview['providerObjects'] {
  if (kind !== 'deployments') {
    return { status: 'not-applicable', message: 'only deployments are transformed by a provider', objects: [] };
  }
  return {
    status: 'pending',
    message: "the provider's objects (KAITO Workspace, DynamoGraphDeployment, RayService, llm-d Deployments) are not previewed yet",
    objects: [],
  };
}

export async function previewWrite(options: {
  clusterClient: ClusterClient;
  kind: RunwayKind;
  cluster: string;
  mode: PreviewMode;
  body: KubeObject;
}): Promise<Preview> {
  const { clusterClient, kind, cluster, mode, body } = options;
  const meta = body.metadata ?? {};
  const result =
    mode === 'create'
      ? await clusterClient.create(kind, cluster, body, { dryRun: true })
      : await clusterClient.update(kind, { cluster, namespace: meta.namespace ?? '', name: meta.name ?? '' }, body, { dryRun: true });
  const preview: Preview = {
    cluster,
    mode,
    objects: [{ action: mode, object: result.object }],
    warnings: result.warnings,
    providerObjects: providerObjects(kind),
  };
  if (kind === 'deployments') {
    try {
      const providers = (await clusterClient.providerConfigs(cluster)) as InferenceProviderConfig[];
      preview.selection = selectionPreview(result.object, providers);
    } catch (err) {
      // The dry run succeeded; only the selection cannot be shown.
      const reason = `cannot read the providers registered in cluster "${cluster}": ${err instanceof Error ? err.message : String(err)}`;
      preview.selection = { engine: { ok: false, reason } };
    }
  }
  return preview;
}
