/**
 * "Show before doing": the exact objects a create or update would write,
 * from a server-side dry run; for deployments also the engine and provider
 * the core controller would select and the objects that provider would
 * write. Nothing here re-implements them: the selection is runway-common's
 * `selectDeployment` (the function the core's `decide` calls), run on the
 * object as the API server would store it, and the provider's objects are
 * `planProviderObjects` of `@runway-portal/provider-shared` (the checks and
 * `desiredObjects` its controller runs) with the provider's own definition.
 * For a stack, what the stack operator would write comes from its own
 * `decide` (`@runway-portal/controller-stacks`: distribution resolution,
 * `generateConfig`, the ConfigMap, Deployment and the rest) over the
 * distributions it embeds.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  configContentsText,
  type DeploymentSelection,
  handedDeployment,
  type InferenceProviderConfig,
  type ModelDeployment,
  type PreviewAnswer,
  type PreviewMode,
  type ProviderObjects as CommonProviderObjects,
  type ProviderObjectsStatus,
  previewSelection,
  selectDeployment,
} from '@runway-portal/plugin-runway-common';
import type {
  ClusterClient,
  RunwayKind,
} from '@runway-portal/plugin-runway-node';
import {
  decide as decideStack,
  embeddedDistributions,
  type Stack,
} from '@runway-portal/controller-stacks';
import {
  planProviderObjects,
  type ProviderDefinition,
  type ProviderPlan,
  type ProviderProblem,
} from '@runway-portal/provider-shared';

export type { PreviewMode };

/** What the selected provider would write, with this package's object type (the REST contract's shape). */
export type ProviderObjects = CommonProviderObjects<KubeObject>;

/** The preview answer (the REST contract's shape) with this package's object type. @public */
export type Preview = PreviewAnswer<KubeObject>;

const nameOf = (config: InferenceProviderConfig) => config.metadata?.name ?? '';
/** The API server's object, typed as the deployment it is (the body was validated as one). */
const asDeployment = (object: KubeObject) =>
  object as unknown as ModelDeployment;
const messageOf = (err: unknown) =>
  err instanceof Error ? err.message : String(err);

const none = (
  status: ProviderObjectsStatus,
  message: string,
  extra: Partial<ProviderObjects> = {},
): ProviderObjects => ({
  status,
  message,
  objects: [],
  warnings: [],
  ...extra,
});

/** How each reason the provider loop would give shows in the preview. */
const PROBLEM_STATUS: Record<ProviderProblem['reason'], ProviderObjectsStatus> =
  {
    Incompatible: 'invalid',
    InvalidOverrides: 'invalid',
    InvalidSpec: 'invalid',
    CRDNotInstalled: 'provider-unavailable',
  };

/**
 * What the selected provider would write for `md` (the deployment as the API
 * server would store it): the core's selection handed to the provider's own
 * `planProviderObjects` at the upstream version it reports. The preview's
 * own questions are only whether this portal includes that provider's
 * transformation, at that version. Pure.
 */
export function providerObjectsPreview(options: {
  md: KubeObject;
  selection: DeploymentSelection;
  registered: InferenceProviderConfig[];
  builtIn: readonly ProviderDefinition[];
  cluster: string;
}): ProviderObjects {
  const { md, selection, registered, builtIn, cluster } = options;
  const shown = previewSelection(selection);
  if (!shown.engine.ok)
    return none(
      'no-provider',
      `No provider can serve this deployment: ${shown.engine.reason}`,
    );
  const handed = handedDeployment(asDeployment(md), selection);
  const name = handed?.status?.provider?.name;
  if (!handed || !name) {
    const reason = shown.provider?.reason ?? 'no provider selected';
    const explicit = selection.spec.provider?.name;
    return explicit
      ? none('provider-unavailable', `${reason} (cluster "${cluster}")`, {
          provider: explicit,
        })
      : none('no-provider', `No provider can serve this deployment: ${reason}`);
  }
  const definition = builtIn.find(d => d.name === name);
  if (!definition) {
    const known = builtIn.map(d => d.name).join(', ') || 'none';
    return none(
      'not-built-in',
      `Provider '${name}' is registered in cluster "${cluster}", but this portal does not include its transformation (built in: ${known}), so its objects cannot be shown; the deployment itself is unaffected`,
      { provider: name },
    );
  }
  const { upstream } = definition;
  const apiVersion = registered.find(p => nameOf(p) === name)?.status
    ?.upstreamCRDVersion;
  if (apiVersion) {
    const [group, version] = apiVersion.includes('/')
      ? apiVersion.split('/')
      : ['', apiVersion];
    if (group !== upstream.group || !upstream.versions.includes(version)) {
      const writes = upstream.versions
        .map(v => `${upstream.group}/${v}`)
        .join(', ');
      return none(
        'provider-unavailable',
        `Provider '${name}' in cluster "${cluster}" reports upstream API version ${apiVersion}, which this portal's ${name} transformation does not write (${writes}): the provider controller and the portal are different versions`,
        { provider: name, apiVersion },
      );
    }
  }
  const found = { provider: name, ...(apiVersion ? { apiVersion } : {}) };
  let plan: ProviderPlan;
  try {
    plan = planProviderObjects(definition, handed, apiVersion);
  } catch (err) {
    // A provider bug must not fail the preview of the portal's own object.
    return none(
      'error',
      `Provider '${name}' could not transform this deployment: ${messageOf(
        err,
      )}`,
      found,
    );
  }
  if (plan.ok) {
    const what = plan.objects
      .map(o => `${o.kind} ${o.metadata?.name}`)
      .join(', ');
    return {
      status: 'available',
      message: `Provider '${name}' would write ${what} (${apiVersion})`,
      ...found,
      objects: plan.objects,
      warnings: plan.warnings,
    };
  }
  const { problem } = plan;
  if (problem.reason === 'CRDNotInstalled') {
    return none(
      'provider-unavailable',
      `${problem.message} "${cluster}" (its InferenceProviderConfig reports no status.upstreamCRDVersion): install the ${upstream.kind} CRD (${upstream.plural}.${upstream.group})`,
      { provider: name },
    );
  }
  const message =
    problem.reason === 'Incompatible'
      ? problem.messages.join('; ')
      : problem.message;
  const field = problem.field ? { field: problem.field } : {};
  return none(PROBLEM_STATUS[problem.reason], message, {
    ...found,
    ...field,
    warnings: plan.warnings,
  });
}

export async function previewWrite(options: {
  clusterClient: ClusterClient;
  kind: RunwayKind;
  cluster: string;
  mode: PreviewMode;
  body: KubeObject;
  /** The providers whose transformation the portal includes. */
  builtInProviders: readonly ProviderDefinition[];
}): Promise<Preview> {
  const { clusterClient, kind, cluster, mode, body, builtInProviders } =
    options;
  const meta = body.metadata ?? {};
  const result =
    mode === 'create'
      ? await clusterClient.create(kind, cluster, body, { dryRun: true })
      : await clusterClient.update(
          kind,
          { cluster, namespace: meta.namespace ?? '', name: meta.name ?? '' },
          body,
          {
            dryRun: true,
          },
        );
  const preview: Preview = {
    cluster,
    mode,
    objects: [{ action: mode, object: result.object }],
    warnings: result.warnings,
    providerObjects: none(
      'not-applicable',
      'only deployments are transformed by a provider',
    ),
  };
  if (kind === 'stacks') {
    preview.providerObjects = stackObjectsPreview(
      result.object,
      new Date().toISOString(),
    );
    return preview;
  }
  if (kind !== 'deployments') return preview;
  let registered: InferenceProviderConfig[];
  try {
    registered = (await clusterClient.providerConfigs(
      cluster,
    )) as InferenceProviderConfig[];
  } catch (err) {
    // The dry run succeeded; only the selection and the provider's objects cannot be shown.
    const reason = `cannot read the providers registered in cluster "${cluster}": ${messageOf(
      err,
    )}`;
    preview.selection = { engine: { ok: false, reason } };
    preview.providerObjects = none('provider-unavailable', reason);
    return preview;
  }
  // The core's own decision on the object as it would be stored: on update, the dry run's answer
  // carries the current status and recorded identity, so what the core keeps is kept here too.
  const selection = selectDeployment(asDeployment(result.object), registered);
  preview.selection = previewSelection(selection);
  preview.providerObjects = providerObjectsPreview({
    md: result.object,
    selection,
    registered,
    builtIn: builtInProviders,
    cluster,
  });
  return preview;
}

/** The distributions the stack operator embeds, for the stack form's choice. */
export function stackDistributions(): Array<{ name: string; image: string }> {
  const { images } = embeddedDistributions();
  return Object.keys(images)
    .sort()
    .map(name => ({ name, image: images[name] }));
}

/** The stack operator's name, as the preview shows it where a deployment shows its provider. */
export const STACK_OPERATOR = 'runway-stacks';

/**
 * What the stack operator would write for `stack` (as the API server would
 * store it, v1alpha2): its own `decide` on a stack with nothing running yet,
 * so the config.yaml shown is the one it would generate. References were
 * checked by the dry run (the operator's webhook); secret values never appear,
 * only their `${env.…}` references. Pure apart from reading the embedded registry.
 */
export function stackObjectsPreview(
  stack: KubeObject,
  now: string,
): ProviderObjects {
  const typed = stack as unknown as Stack;
  if (typed.spec?.overrideConfig) {
    return none(
      'not-applicable',
      `The server mounts your ConfigMap "${typed.spec.overrideConfig.configMapName}" (spec.overrideConfig): the operator generates no config.yaml`,
      { provider: STACK_OPERATOR },
    );
  }
  let decision: ReturnType<typeof decideStack>;
  try {
    decision = decideStack({
      stack: typed,
      registry: embeddedDistributions(),
      referenceIssues: [],
      secretCount: 0,
      live: {},
      now,
    });
  } catch (err) {
    return none(
      'error',
      `The stack operator's config generation failed: ${messageOf(err)}`,
      { provider: STACK_OPERATOR },
    );
  }
  const warnings = decision.events
    .filter(e => e.type === 'Warning')
    .map(e => e.message);
  if (!decision.writes) {
    const failed = decision.status.conditions?.find(
      c => c.type === 'ConfigGenerated' && c.status === 'False',
    );
    return none(
      'invalid',
      failed?.message ?? 'The stack operator would not write this stack',
      { provider: STACK_OPERATOR, warnings },
    );
  }
  const { configMap, deployment, satellites } = decision.writes;
  const others = Object.values(satellites).filter(
    (o): o is KubeObject => o !== undefined,
  );
  const generation = decision.status.configGeneration;
  const image = decision.status.resolvedDistribution?.image ?? '';
  return {
    status: 'available',
    message: `The stack operator would generate config.yaml (${configContentsText(
      generation,
    )}) into ConfigMap ${
      generation?.configMapName ?? ''
    } and run image ${image}. Secrets appear as their \${env.…} references, never as values.`,
    provider: STACK_OPERATOR,
    objects: [...(configMap ? [configMap] : []), deployment, ...others],
    warnings,
  };
}
