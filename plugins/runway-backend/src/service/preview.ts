/**
 * "Show before doing": the exact objects a create or update would write,
 * from a server-side dry run; for deployments also the engine and provider
 * the core controller would select (runway-common's selection, against the
 * providers registered in that cluster) and the objects that provider would
 * write, from the provider's own definition through the same
 * `desiredObjects` its controller runs.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  checkProviderCompatibility,
  chooseProvider,
  identityChanges,
  type InferenceProviderConfig,
  type ModelDeployment,
  type ModelDeploymentSpec,
  type ModelDeploymentStatus,
  providerInstalledFrom,
  type PreviewAnswer,
  type PreviewMode,
  type ProviderObjects as CommonProviderObjects,
  type ProviderObjectsStatus,
  type Resolution,
  resolveDeployment,
  type SelectionPreview,
} from '@runway-portal/plugin-runway-common';
import type {
  ClusterClient,
  RunwayKind,
} from '@runway-portal/plugin-runway-node';
import {
  checkOverrides,
  crdNotInstalledMessage,
  desiredObjects,
  type ProviderDefinition,
  resolveDeployment as resolveForProvider,
  TransformError,
} from '@runway-portal/provider-shared';

export type { PreviewMode };

/** What the selected provider would write, with this package's object type (the REST contract's shape). */
export type ProviderObjects = CommonProviderObjects<KubeObject>;

/** The preview answer (the REST contract's shape) with this package's object type. */
export type Preview = PreviewAnswer<KubeObject>;

const nameOf = (config: InferenceProviderConfig) => config.metadata?.name ?? '';
/** The API server's object, typed as the deployment it is (the body was validated as one). */
const asDeployment = (object: KubeObject) =>
  object as unknown as ModelDeployment;

/**
 * What the core keeps of an earlier selection on update: its engine and
 * provider stay until an identity field changes (the provider then
 * recreates its resource). Pure.
 */
export function keptSelection(
  previous: KubeObject | undefined,
  updated: KubeObject,
): ModelDeploymentStatus | undefined {
  if (!previous) return undefined;
  if (identityChanges(asDeployment(previous), asDeployment(updated)).length > 0)
    return undefined;
  return asDeployment(previous).status;
}

function engineChoice(
  resolution: Resolution,
  kept: ModelDeploymentStatus['engine'] | undefined,
): SelectionPreview['engine'] {
  if (kept?.type)
    return {
      ok: true,
      engine: kept.type,
      reason: kept.selectedReason ?? 'auto-selected earlier',
      auto: true,
    };
  const e = resolution.engine;
  return e.ok
    ? { ok: true, engine: e.engine, reason: e.reason, auto: e.auto }
    : { ok: false, reason: e.reason };
}

/**
 * Engine and provider selection of a deployment, as the core controller
 * would do it: `kept` is the selection it keeps on update (`keptSelection`). Pure.
 */
export function selectionPreview(
  body: KubeObject,
  providers: InferenceProviderConfig[],
  kept?: ModelDeploymentStatus,
): SelectionPreview {
  const spec = (body.spec ?? {}) as ModelDeploymentSpec;
  const resolution = resolveDeployment(spec, providers, body.metadata?.name);
  const keptEngine = !spec.engine?.type ? kept?.engine?.type : undefined;
  const engine = engineChoice(
    resolution,
    keptEngine ? kept?.engine : undefined,
  );
  if (!engine.ok) return { engine };
  const keptProvider = kept?.provider?.name;
  if (
    keptProvider &&
    (!spec.provider?.name || spec.provider.name === keptProvider)
  ) {
    // Once handed over, a deployment stays with its provider (even while that one is unready).
    return {
      engine,
      provider: {
        ok: true,
        provider: keptProvider,
        reason: kept?.provider?.selectedReason ?? 'selected earlier',
        auto: !spec.provider?.name,
      },
    };
  }
  // Seed 000 §8: the core holds back an explicit provider whose CRD is not installed (its webhook denies it).
  const explicit = spec.provider?.name;
  if (explicit && providerInstalledFrom(providers)(explicit) === false) {
    return {
      engine,
      provider: { ok: false, reason: crdNotInstalledMessage(explicit) },
    };
  }
  // The core's choice (an explicit provider must be registered and ready), with the kept engine if any.
  const p = keptEngine
    ? chooseProvider(
        {
          ...resolution.spec,
          engine: { ...resolution.spec.engine, type: keptEngine },
        },
        providers,
      )
    : resolution.provider;
  if (!p) return { engine };
  return {
    engine,
    provider: p.ok
      ? { ok: true, provider: p.provider, reason: p.reason, auto: p.auto }
      : { ok: false, reason: p.reason },
  };
}

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

/**
 * What the selected provider would write for `md` (the deployment as the
 * API server would store it), in the order and shape its controller
 * applies them. Mirrors the provider loop's checks: registered and ready,
 * upstream CRD version reported, compatibility, overrides, transform. Pure.
 */
export function providerObjectsPreview(options: {
  md: KubeObject;
  selection: SelectionPreview;
  registered: InferenceProviderConfig[];
  builtIn: readonly ProviderDefinition[];
  cluster: string;
}): ProviderObjects {
  const { md, selection, registered, builtIn, cluster } = options;
  const { engine, provider } = selection;
  if (!engine.ok || !engine.engine)
    return none(
      'no-provider',
      `No provider can serve this deployment: ${engine.reason}`,
    );
  if (!provider?.ok || !provider.provider) {
    const reason = provider?.reason ?? 'no provider selected';
    const explicit = (md.spec as ModelDeploymentSpec | undefined)?.provider
      ?.name;
    return explicit
      ? none('provider-unavailable', `${reason} (cluster "${cluster}")`, {
          provider: explicit,
        })
      : none('no-provider', `No provider can serve this deployment: ${reason}`);
  }
  const name = provider.provider;
  const config = registered.find(p => nameOf(p) === name);
  // Selection only picks registered, ready providers: this guards the types, not a real case.
  if (!config)
    return none(
      'provider-unavailable',
      `Provider '${name}' is not registered in cluster "${cluster}"`,
      { provider: name },
    );
  const definition = builtIn.find(d => d.name === name);
  if (!definition) {
    const known = builtIn.map(d => d.name).join(', ') || 'none';
    return none(
      'not-built-in',
      `Provider '${name}' is registered in cluster "${cluster}", but this portal does not include its transformation (built in: ${known}), so its objects cannot be shown; the deployment itself is unaffected`,
      { provider: name },
    );
  }
  const apiVersion = config.status?.upstreamCRDVersion;
  if (!apiVersion) {
    return none(
      'provider-unavailable',
      `${crdNotInstalledMessage(
        name,
      )} "${cluster}" (its InferenceProviderConfig reports no status.upstreamCRDVersion): install the ${
        definition.upstream.kind
      } CRD (${definition.upstream.plural}.${definition.upstream.group})`,
      { provider: name },
    );
  }
  const [group, version] = apiVersion.includes('/')
    ? apiVersion.split('/')
    : ['', apiVersion];
  if (
    group !== definition.upstream.group ||
    !definition.upstream.versions.includes(version)
  ) {
    return none(
      'provider-unavailable',
      `Provider '${name}' in cluster "${cluster}" reports upstream API version ${apiVersion}, which this portal's ${name} transformation does not write (${definition.upstream.versions
        .map(v => `${definition.upstream.group}/${v}`)
        .join(
          ', ',
        )}): the provider controller and the portal are different versions`,
      { provider: name, apiVersion },
    );
  }

  // The deployment as the provider receives it: selected by the core, engine resolved.
  const handed = asDeployment({
    ...md,
    status: {
      ...(md.status as object),
      engine: { type: engine.engine },
      provider: { name },
    },
  });
  const resolved = resolveForProvider(handed);
  const found = { provider: name, apiVersion };
  const incompatible = checkProviderCompatibility(
    resolved.spec,
    definition.registration,
  ).filter(i => i.severity === 'error');
  if (incompatible.length > 0) {
    return none('invalid', incompatible.map(i => i.message).join('; '), {
      ...found,
      field: incompatible[0].path,
    });
  }
  const overrides = checkOverrides(
    resolved.spec.provider?.overrides,
    definition.overrides,
  );
  if (overrides.errors.length > 0) {
    return none('invalid', overrides.errors.join('; '), {
      ...found,
      field: 'spec.provider.overrides',
    });
  }
  const unknown = overrides.unknown.map(
    path => `Unknown override key ${path} is ignored by provider '${name}'`,
  );
  try {
    const { objects, warnings } = desiredObjects(definition, handed, {
      apiVersion,
    });
    const what = objects.map(o => `${o.kind} ${o.metadata?.name}`).join(', ');
    return {
      status: 'available',
      message: `Provider '${name}' would write ${what} (${apiVersion})`,
      ...found,
      objects,
      warnings: [...unknown, ...warnings],
    };
  } catch (err) {
    if (err instanceof TransformError)
      return none('invalid', err.message, {
        ...found,
        field: err.field,
        warnings: unknown,
      });
    // A provider bug must not fail the preview of the portal's own object.
    return none(
      'error',
      `Provider '${name}' could not transform this deployment: ${
        err instanceof Error ? err.message : String(err)
      }`,
      found,
    );
  }
}

/** The deployment as it is now (for what the core keeps on update); undefined when it cannot be read. */
async function currentObject(
  clusterClient: ClusterClient,
  cluster: string,
  updated: KubeObject,
): Promise<KubeObject | undefined> {
  const { namespace = '', name = '' } = updated.metadata ?? {};
  try {
    return (
      await clusterClient.get('deployments', { cluster, namespace, name })
    ).object;
  } catch {
    return undefined; // the dry run just found it: only a cache hiccup gets here, and selection then starts afresh
  }
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
          { dryRun: true },
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
  if (kind !== 'deployments') return preview;
  let registered: InferenceProviderConfig[];
  try {
    registered = (await clusterClient.providerConfigs(
      cluster,
    )) as InferenceProviderConfig[];
  } catch (err) {
    // The dry run succeeded; only the selection and the provider's objects cannot be shown.
    const reason = `cannot read the providers registered in cluster "${cluster}": ${
      err instanceof Error ? err.message : String(err)
    }`;
    preview.selection = { engine: { ok: false, reason } };
    preview.providerObjects = none('provider-unavailable', reason);
    return preview;
  }
  const previous =
    mode === 'update'
      ? await currentObject(clusterClient, cluster, result.object)
      : undefined;
  preview.selection = selectionPreview(
    result.object,
    registered,
    keptSelection(previous, result.object),
  );
  preview.providerObjects = providerObjectsPreview({
    md: result.object,
    selection: preview.selection,
    registered,
    builtIn: builtInProviders,
    cluster,
  });
  return preview;
}
