/**
 * Existence checks of the Secrets and ConfigMaps a LlamaStackDistribution
 * refers to (FR-073, FR-074), for the validating webhook and the operator.
 * The cluster is reached only through the lookup the caller passes; Secret
 * values are never read, only their existence.
 */
import { error, type ValidationIssue } from '../schema';
import type {
  LlamaStackDistributionV1alpha1 as StackV1alpha1,
  LlamaStackDistributionV1alpha2 as StackV1alpha2,
} from '../generated/llamaStackDistribution';
import { STACK_V1ALPHA1 } from './v1alpha1';
import { overrideConfigNamespace } from './conversion';
import { stackSecretReferences } from './validate';

/** @public */
export interface StackReferenceLookup {
  /** Whether the Secret exists. */
  secretExists(namespace: string, name: string): Promise<boolean>;
  /** The data keys of the ConfigMap, or undefined when it does not exist. */
  configMapKeys(
    namespace: string,
    name: string,
  ): Promise<readonly string[] | undefined>;
}

/** The keys a server config may be stored under in an override ConfigMap. @public */
export const CONFIG_MAP_CONFIG_KEYS = ['config.yaml', 'run.yaml'] as const;
/** @public */
export const DEFAULT_CA_BUNDLE_KEYS = ['ca-bundle.crt'] as const;

type Target =
  | { kind: 'Secret'; path: string; namespace: string; name: string }
  | {
      kind: 'ConfigMap';
      path: string;
      namespace: string;
      name: string;
      /** All of these keys must exist, named at `keysPath`. */
      requiredKeys?: readonly string[];
      keysPath?: string;
      /** At least one of these keys must exist. */
      anyOfKeys?: readonly string[];
    };

function caBundleTarget(
  path: string,
  ns: string,
  bundle: any,
): Target | undefined {
  if (!bundle?.configMapName) return undefined;
  return {
    kind: 'ConfigMap',
    path: `${path}.configMapName`,
    namespace: bundle.configMapNamespace || ns,
    name: bundle.configMapName,
    requiredKeys: bundle.configMapKeys?.length
      ? bundle.configMapKeys
      : DEFAULT_CA_BUNDLE_KEYS,
    keysPath: bundle.configMapKeys?.length
      ? `${path}.configMapKeys`
      : `${path}.configMapName`,
  };
}

function targetsOf(stack: StackV1alpha1 | StackV1alpha2, ns: string): Target[] {
  const targets: Target[] = [];
  if (stack.apiVersion === STACK_V1ALPHA1) {
    const server = (stack as StackV1alpha1).spec?.server;
    const user = server?.userConfig;
    if (user?.configMapName) {
      targets.push({
        kind: 'ConfigMap',
        path: 'spec.server.userConfig.configMapName',
        namespace: user.configMapNamespace || ns,
        name: user.configMapName,
        anyOfKeys: CONFIG_MAP_CONFIG_KEYS,
      });
    }
    const ca = caBundleTarget(
      'spec.server.tlsConfig.caBundle',
      ns,
      server?.tlsConfig?.caBundle,
    );
    if (ca) targets.push(ca);
    return targets;
  }
  const spec = (stack as StackV1alpha2).spec;
  if (!spec) return targets;
  for (const ref of stackSecretReferences(spec)) {
    const path = ref.path.endsWith('.secretName')
      ? ref.path
      : `${ref.path}.name`;
    targets.push({ kind: 'Secret', path, namespace: ns, name: ref.name });
  }
  if (spec.overrideConfig?.configMapName) {
    targets.push({
      kind: 'ConfigMap',
      path: 'spec.overrideConfig.configMapName',
      // A converted v1alpha1 stack may name another namespace (userConfig.configMapNamespace).
      namespace: overrideConfigNamespace(stack, ns),
      name: spec.overrideConfig.configMapName,
      anyOfKeys: CONFIG_MAP_CONFIG_KEYS,
    });
  }
  const ca = caBundleTarget(
    'spec.networking.tls.caBundle',
    ns,
    spec.networking?.tls?.caBundle,
  );
  if (ca) targets.push(ca);
  return targets;
}

/**
 * The ConfigMaps a stack names in another namespace than its own (v1alpha1
 * `userConfig.configMapNamespace`, a CA bundle's `configMapNamespace`), with
 * the field naming each: the operator reads them and copies their content
 * next to the stack, so whoever writes the stack should be allowed to read
 * them. Pure.
 *
 * @public
 */
export function foreignConfigMapReferences(
  stack: StackV1alpha1 | StackV1alpha2,
  namespace = stack.metadata?.namespace ?? 'default',
): Array<{ path: string; namespace: string; name: string }> {
  return targetsOf(stack, namespace)
    .filter(t => t.kind === 'ConfigMap' && t.namespace !== namespace)
    .map(t => ({ path: t.path, namespace: t.namespace, name: t.name }));
}

/**
 * Checks that every referenced Secret and ConfigMap exists in the cluster
 * (in wire form: run `normalizeStackV1alpha2` first on user input). Each
 * object is looked up once. Rejects when a lookup rejects (the caller decides
 * whether an unreachable API server blocks the request).
 *
 * @public
 */
export async function checkStackReferences(
  stack: StackV1alpha1 | StackV1alpha2,
  lookup: StackReferenceLookup,
  namespace = stack.metadata?.namespace ?? 'default',
): Promise<ValidationIssue[]> {
  const targets = targetsOf(stack, namespace);
  const cache = new Map<
    string,
    Promise<boolean | readonly string[] | undefined>
  >();
  const look = (t: Target) => {
    const id = `${t.kind}/${t.namespace}/${t.name}`;
    let found = cache.get(id);
    if (!found) {
      found =
        t.kind === 'Secret'
          ? lookup.secretExists(t.namespace, t.name)
          : lookup.configMapKeys(t.namespace, t.name);
      cache.set(id, found);
    }
    return found;
  };
  const results = await Promise.all(targets.map(look));
  const issues: ValidationIssue[] = [];
  targets.forEach((t, i) => {
    const result = results[i];
    if (result === false || result === undefined) {
      issues.push(
        error(
          t.path,
          `${t.kind} "${t.name}" not found in namespace "${t.namespace}": create it or change ${t.path}`,
        ),
      );
      return;
    }
    if (t.kind !== 'ConfigMap' || !Array.isArray(result)) return;
    const keys = new Set(result);
    if (t.anyOfKeys && !t.anyOfKeys.some(k => keys.has(k))) {
      issues.push(
        error(
          t.path,
          `ConfigMap "${t.name}" in namespace "${
            t.namespace
          }" has no ${t.anyOfKeys.join(
            ' or ',
          )} key: store the server configuration under config.yaml`,
        ),
      );
    }
    const missing = (t.requiredKeys ?? []).filter(k => !keys.has(k));
    if (missing.length) {
      issues.push(
        error(
          t.keysPath ?? t.path,
          `ConfigMap "${t.name}" in namespace "${
            t.namespace
          }" has no key ${missing
            .map(k => `"${k}"`)
            .join(
              ', ',
            )}: add the certificates under that key or list the right keys in ${
            t.keysPath ?? t.path
          }`,
        ),
      );
    }
  });
  return issues;
}
