import { KubeClient, validateFieldManager } from '../kube/client';
import type { KubeObject } from '../kube/types';

/** @public */
export interface ApplyCallOptions {
  /**
   * Take over fields another manager owns. Without it, such a conflict
   * rejects with ApplyConflictError naming the fields and their owners.
   */
  force?: boolean;
  dryRun?: boolean;
  signal?: AbortSignal;
}

/**
 * Server-side apply on behalf of one field manager. Create one per writer
 * (`mgr.applier('core-controller')`), so each owns exactly the fields it
 * sets and the API server reports when two writers disagree.
 *
 * @public
 */
export class Applier {
  constructor(
    private readonly client: KubeClient,
    readonly fieldManager: string,
  ) {
    validateFieldManager(fieldManager);
  }

  /** Applies the object (everything but status). */
  async apply<T extends KubeObject>(
    obj: KubeObject,
    options: ApplyCallOptions = {},
  ): Promise<T> {
    const config = applyConfiguration(obj);
    const rt = await this.client.resolve(config.apiVersion!, config.kind!);
    return this.client.apply<T>(rt, config, {
      ...options,
      fieldManager: this.fieldManager,
    });
  }

  /** Applies only `status`, through the /status subresource. */
  async applyStatus<T extends KubeObject>(
    obj: KubeObject,
    options: ApplyCallOptions = {},
  ): Promise<T> {
    const config = statusApplyConfiguration(obj);
    const rt = await this.client.resolve(config.apiVersion!, config.kind!);
    return this.client.apply<T>(rt, config, {
      ...options,
      fieldManager: this.fieldManager,
      subresource: 'status',
    });
  }
}

/**
 * What to send for an apply: the object without the fields the server
 * owns (resourceVersion would turn the apply into a precondition; uid,
 * managedFields, timestamps and generation are not the caller's to set).
 *
 * @public
 */
export function applyConfiguration(obj: KubeObject): KubeObject {
  requireIdentity(obj);
  const {
    resourceVersion: _rv,
    uid: _uid,
    managedFields: _mf,
    creationTimestamp: _ct,
    generation: _g,
    deletionTimestamp: _dt,
    ...metadata
  } = obj.metadata!;
  const { status: _status, ...rest } = obj;
  return { ...rest, metadata };
}

/** The minimal body of a status apply: identity plus status. @public */
export function statusApplyConfiguration(obj: KubeObject): KubeObject {
  requireIdentity(obj);
  if (obj.status === undefined) {
    throw new Error(
      `status apply of ${obj.kind} ${
        obj.metadata!.name
      } has no status: set the status fields this manager owns`,
    );
  }
  const { name, namespace } = obj.metadata!;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: namespace ? { name, namespace } : { name },
    status: obj.status,
  };
}

function requireIdentity(obj: KubeObject): void {
  const missing = [
    obj.apiVersion ? undefined : 'apiVersion',
    obj.kind ? undefined : 'kind',
    obj.metadata?.name ? undefined : 'metadata.name',
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new Error(
      `server-side apply needs ${missing.join(', ')}: set them on the object`,
    );
  }
}
