/**
 * Uninstall: refuses while custom resources the component serves exist
 * (unless forced, then lists what is orphaned), deletes webhooks first, then
 * the controllers, keeps CRDs unless asked, and the namespace once no
 * Runway controller is left in it.
 */
import {
  CustomResourceDefinitions,
  Deployments,
  isNotFound,
  type KubeClient,
  type KubeObject,
  MutatingWebhookConfigurations,
  Namespaces,
  parseApiVersion,
  type ResourceType,
  ValidatingWebhookConfigurations,
} from '@runway-portal/controller-runtime';
import { COMPONENT_LABEL, type Guard } from '../bundles/catalog';
import { describeObject, type PlannedObject } from '../bundles/plan';
import { CliError, explainKubeError } from '../errors';
import type { ObjectResult } from './apply';
import {
  getOrUndefined,
  InferenceProviderConfigs,
  resolvePlural,
  retryTooManyRequests,
  serverVersion,
  sleep,
} from './kube';
import type { Reporter } from './reporter';

export interface UninstallTarget {
  component: string;
  /** Objects of its bundle (shared ones included; kept unless deleteCrds). */
  plan: PlannedObject[];
  guards: Guard[];
  /** Its registration, for providers. */
  providerConfig?: string;
}

export interface UninstallOptions {
  namespace: string;
  force?: boolean;
  deleteCrds?: boolean;
  /** Wait until everything deleted is gone (namespace included). */
  wait?: boolean;
  timeoutMs?: number;
  dryRun?: boolean;
}

/** Namespaced and cluster-scoped kinds a bundle may hold, searched by the component label. */
const LABELLED_KINDS: Array<
  Pick<ResourceType, 'group' | 'version' | 'plural'>
> = [
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plural: 'validatingwebhookconfigurations',
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plural: 'mutatingwebhookconfigurations',
  },
  { group: 'apps', version: 'v1', plural: 'deployments' },
  { group: '', version: 'v1', plural: 'services' },
  { group: '', version: 'v1', plural: 'configmaps' },
  { group: '', version: 'v1', plural: 'serviceaccounts' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles' },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterrolebindings',
  },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles' },
];

type CustomObject = KubeObject & { status?: { provider?: { name?: string } } };

/** Custom resources that would be orphaned: those of the guards' kinds (for providers, only theirs). */
export async function guardedObjects(
  client: KubeClient,
  target: UninstallTarget,
): Promise<string[]> {
  const found: string[] = [];
  for (const guard of target.guards) {
    const { group, version } = parseApiVersion(guard.apiVersion);
    const crd = await getOrUndefined(client, CustomResourceDefinitions, {
      name: `${guard.plural}.${group}`,
    });
    if (!crd) continue;
    const rt: ResourceType = {
      group,
      version,
      kind: guard.kind,
      plural: guard.plural,
      namespaced: true,
    };
    const list = await retryTooManyRequests(() =>
      client.list<CustomObject>(rt),
    );
    for (const item of list.items) {
      if (guard.byProvider && item.status?.provider?.name !== target.component)
        continue;
      found.push(
        `${guard.kind} ${item.metadata?.namespace}/${item.metadata?.name}`,
      );
    }
  }
  return found;
}

async function deleteIfPresent(
  client: KubeClient,
  rt: ResourceType,
  key: { namespace?: string; name: string },
  dryRun: boolean,
): Promise<boolean> {
  const existing = await getOrUndefined(client, rt, key);
  if (!existing) return false;
  if (dryRun) return true;
  try {
    await client.delete(rt, key, { propagationPolicy: 'Background' });
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
  return true;
}

export async function uninstall(
  client: KubeClient,
  targets: UninstallTarget[],
  options: UninstallOptions,
  reporter: Reporter,
): Promise<ObjectResult[]> {
  try {
    await serverVersion(client);
  } catch (err) {
    throw explainKubeError(err, 'read /version', client.server);
  }
  const results: ObjectResult[] = [];
  const dryRun = options.dryRun ?? false;
  try {
    const found = new Set<string>();
    for (const t of targets) {
      for (const o of await guardedObjects(client, t)) found.add(o);
    }
    const orphans = [...found];
    if (orphans.length > 0 && !options.force) {
      throw new CliError(
        'in use',
        `${orphans.length} resource(s) still use it (${orphans
          .slice(0, 3)
          .join(', ')}${
          orphans.length > 3 ? ', ...' : ''
        }): delete them first, or pass --force to orphan them`,
      );
    }
    for (const o of orphans) results.push({ object: o, action: 'orphaned' });
    if (orphans.length > 0)
      reporter.line(
        `  orphaned (nothing will reconcile them): ${orphans.join(', ')}`,
      );

    // Webhooks first: once their controller is gone they would refuse every write.
    const toDelete = new Map<
      string,
      {
        rt: ResourceType;
        key: { namespace?: string; name: string };
        label: string;
        order: number;
      }
    >();
    for (const t of targets) {
      for (const p of t.plan) {
        if (p.shared) continue;
        const rt = await client.resolve(p.object.apiVersion!, p.object.kind!);
        const key = {
          namespace: rt.namespaced ? p.object.metadata?.namespace : undefined,
          name: p.object.metadata!.name!,
        };
        toDelete.set(describeObject(p.object), {
          rt,
          key,
          label: describeObject(p.object),
          order: orderOf(rt),
        });
      }
      for (const kind of LABELLED_KINDS) {
        const rt = await resolvePlural(
          client,
          kind.group ? `${kind.group}/${kind.version}` : kind.version,
          kind.plural,
        );
        if (!rt) continue;
        const list = await client.list<KubeObject>(rt, {
          labelSelector: `${COMPONENT_LABEL}=${t.component}`,
        });
        for (const o of list.items) {
          const obj = {
            ...o,
            apiVersion: kind.group
              ? `${kind.group}/${kind.version}`
              : kind.version,
            kind: rt.kind,
          };
          toDelete.set(describeObject(obj), {
            rt,
            key: { namespace: o.metadata?.namespace, name: o.metadata!.name! },
            label: describeObject(obj),
            order: orderOf(rt),
          });
        }
      }
    }
    for (const item of [...toDelete.values()].sort(
      (a, b) => a.order - b.order,
    )) {
      const deleted = await deleteIfPresent(client, item.rt, item.key, dryRun);
      results.push({
        object: item.label,
        action: deleted ? 'deleted' : 'absent',
      });
    }
    for (const t of targets) {
      if (!t.providerConfig) continue;
      const deleted = await deleteIfPresent(
        client,
        InferenceProviderConfigs,
        { name: t.providerConfig },
        dryRun,
      ).catch(err => {
        if (err instanceof Error && /does not serve|404/.test(err.message))
          return false;
        throw err;
      });
      results.push({
        object: `InferenceProviderConfig ${t.providerConfig}`,
        action: deleted ? 'deleted' : 'absent',
      });
    }

    const crds = new Map<string, string>();
    for (const t of targets)
      for (const p of t.plan)
        if (p.phase === 'crd')
          crds.set(p.object.metadata!.name!, describeObject(p.object));
    for (const [name, label] of crds) {
      if (options.deleteCrds) {
        const deleted = await deleteIfPresent(
          client,
          CustomResourceDefinitions,
          { name },
          dryRun,
        );
        results.push({ object: label, action: deleted ? 'deleted' : 'absent' });
      } else {
        results.push({ object: label, action: 'kept' });
      }
    }

    // The namespace goes with the last Runway controller in it.
    const ns = await getOrUndefined(client, Namespaces, {
      name: options.namespace,
    });
    if (
      ns &&
      ns.metadata?.labels?.['app.kubernetes.io/part-of'] === 'airunway'
    ) {
      const left = (
        await client.list<KubeObject>(Deployments, {
          namespace: options.namespace,
          labelSelector: COMPONENT_LABEL,
        })
      ).items.filter(
        d =>
          !targets.some(
            t => t.component === d.metadata?.labels?.[COMPONENT_LABEL],
          ),
      );
      if (left.length === 0) {
        await deleteIfPresent(
          client,
          Namespaces,
          { name: options.namespace },
          dryRun,
        );
        results.push({
          object: `Namespace ${options.namespace}`,
          action: 'deleted',
        });
      } else {
        results.push({
          object: `Namespace ${options.namespace}`,
          action: 'kept',
        });
      }
    }

    if (options.wait && !dryRun) {
      const deadline = Date.now() + (options.timeoutMs ?? 120_000);
      for (const item of toDelete.values()) {
        while (await getOrUndefined(client, item.rt, item.key)) {
          if (Date.now() > deadline)
            throw new CliError(
              'timeout',
              `${item.label} is still being deleted: kubectl describe it`,
            );
          reporter.progress(`  waiting for ${item.label} to be gone`);
          await sleep(500);
        }
      }
      while (
        results.some(
          r =>
            r.object === `Namespace ${options.namespace}` &&
            r.action === 'deleted',
        ) &&
        (await getOrUndefined(client, Namespaces, { name: options.namespace }))
      ) {
        if (Date.now() > deadline)
          throw new CliError(
            'timeout',
            `Namespace ${options.namespace} is still terminating: kubectl describe namespace ${options.namespace}`,
          );
        reporter.progress(
          `  waiting for Namespace ${options.namespace} to be gone`,
        );
        await sleep(500);
      }
    }
  } catch (err) {
    throw explainKubeError(err, 'uninstall', client.server);
  }
  return results;
}

function orderOf(rt: ResourceType): number {
  if (
    rt === ValidatingWebhookConfigurations ||
    rt.kind === 'ValidatingWebhookConfiguration'
  )
    return 0;
  if (
    rt === MutatingWebhookConfigurations ||
    rt.kind === 'MutatingWebhookConfiguration'
  )
    return 0;
  if (rt.kind === 'Deployment') return 1;
  return 2;
}
