/** Cluster chores of integration tests: manifests, impersonation, namespaces and events. */
import fs from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import {
  Events,
  type KubeClient,
  type KubeObject,
  Namespaces,
} from '@runway-portal/controller-runtime';
import { eventually } from './eventually';

/** The admin kubeconfig, acting as `user` (impersonation): RBAC decides as for that user. */
export function impersonating(kc: KubeConfig, user: string): KubeConfig {
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: kc.clusters,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
    users: kc.users.map(u => ({ ...u, impersonateUser: user })),
  });
  return out;
}

/**
 * Server-side applies every document of a YAML file as `fieldManager`
 * (forcing conflicts); `nameSuffix` renames each object. Returns what the
 * server answered.
 */
export async function applyManifests(
  client: KubeClient,
  file: string,
  options: { fieldManager: string; dryRun?: boolean; nameSuffix?: string },
): Promise<KubeObject[]> {
  const applied: KubeObject[] = [];
  for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
    const obj = doc.toJSON() as KubeObject | null;
    if (!obj) continue;
    if (options.nameSuffix)
      obj.metadata = {
        ...obj.metadata,
        name: `${obj.metadata?.name}${options.nameSuffix}`,
      };
    const rt = await client.resolve(obj.apiVersion!, obj.kind!);
    applied.push(
      await client.apply(rt, obj, {
        fieldManager: options.fieldManager,
        force: true,
        dryRun: options.dryRun,
      }),
    );
  }
  return applied;
}

export async function createNamespace(
  client: KubeClient,
  name: string,
): Promise<void> {
  await client.create(Namespaces, { metadata: { name } });
}

/** An Event as the API server lists it. */
export interface KubeEvent {
  type: string;
  reason: string;
  message: string;
  involvedObject: { name: string; kind: string };
}

/** Events about the objects named `name` in `namespace` (of `kind`, if given). */
export async function eventsOf(
  client: KubeClient,
  namespace: string,
  name: string,
  kind?: string,
): Promise<KubeEvent[]> {
  const list = await client.list(Events, {
    namespace,
    fieldSelector: `involvedObject.name=${name}${
      kind ? `,involvedObject.kind=${kind}` : ''
    }`,
  });
  return list.items as unknown as KubeEvent[];
}

/** Events about an object, as `Type/Reason: message`. */
export async function eventsAbout(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<string[]> {
  return (await eventsOf(client, namespace, name)).map(
    e => `${e.type}/${e.reason}: ${e.message}`,
  );
}

/**
 * Waits until an object has an event `Type/Reason: message` (the event
 * recorder writes after the objects and the status, so a test that saw
 * those change must still wait for the event). The timeout names every
 * event it did see.
 */
export async function eventRecorded(
  client: KubeClient,
  namespace: string,
  name: string,
  event: string,
  timeoutMs = 30_000,
): Promise<void> {
  let recorded: string[] = [];
  try {
    await eventually(
      `event "${event}" about ${name}`,
      async () => {
        recorded = await eventsAbout(client, namespace, name);
        return recorded.includes(event);
      },
      timeoutMs,
      200,
    );
  } catch (err) {
    throw new Error(
      `${(err as Error).message}; its events:\n${recorded.join('\n')}`,
    );
  }
}

/**
 * Waits until the object `name` (of `kind`) has events with every one of
 * `reasons`, and returns the reasons it has; the timeout names the reasons it
 * did see.
 */
export async function reasonsRecorded(
  client: KubeClient,
  object: { namespace: string; name: string; kind?: string },
  reasons: string[],
  timeoutMs = 30_000,
): Promise<string[]> {
  let recorded: string[] = [];
  try {
    return await eventually(
      `events ${reasons.join(', ')} of ${object.kind ?? 'object'} ${
        object.name
      }`,
      async () => {
        recorded = (
          await eventsOf(client, object.namespace, object.name, object.kind)
        ).map(e => e.reason);
        return reasons.every(r => recorded.includes(r)) && recorded;
      },
      timeoutMs,
      150,
    );
  } catch (err) {
    throw new Error(
      `${(err as Error).message}; its event reasons: ${recorded.join(', ')}`,
    );
  }
}
