/**
 * The runway REST API: thin routes around the ClusterClient. Each route
 * authorizes with the calling user's credentials, lets the ClusterClient
 * (runway-common validation, cache, server-side apply) do the work, and
 * records every change with the auditor.
 */
import type {
  AuditorService,
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { createValidatedOpenApiRouter } from '@backstage/backend-openapi-utils';
import type { JsonObject } from '@backstage/types';
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ProviderDefinition } from '@runway-portal/provider-shared';
import {
  type Authorizer,
  type ClusterClient,
  FieldConflictError,
  ResourceInvalidError,
  type RunwayAuditAction,
  runwayAuditEventId,
} from '@runway-portal/plugin-runway-node';
import {
  type ClustersAnswer,
  type DetailAnswer,
  type DoctorReport,
  type ErrorBody,
  type HubSearchAnswer,
  type ListAnswer,
  type PreviewAnswer,
  runwayClustersReadPermission,
  runwayPermissions,
  type RunwayKind,
  type SecretNamesAnswer,
  type StorageClassesAnswer,
  type WriteAnswer,
} from '@runway-portal/plugin-runway-common';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type { PermissionsService } from '@backstage/backend-plugin-api';
import { NotAllowedError, ServiceUnavailableError } from '@backstage/errors';
import { HubError, hubEndpoint, searchModels } from '@runway-portal/hub';
import type { ErrorRequestHandler } from 'express';
import { matchesFilter, parseListFilter, sortListed } from './filters';
import { registerLogRoutes } from './logs';
import { registerChatRoutes } from './chat';
import { previewWrite, stackDistributions } from './preview';
import { type RunwayRouterDoc, spec } from './openapi';

type AuditedRequest = NonNullable<
  Parameters<AuditorService['createEvent']>[0]['request']
>;

export interface RouterOptions {
  clusterClient: ClusterClient;
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  authorizer: Authorizer;
  auditor: AuditorService;
  logger: LoggerService;
  /** The providers whose transformation the preview shows (see providers.ts). */
  builtInProviders: readonly ProviderDefinition[];
}

/** Express gives `?cluster=a` as a string and `?cluster=a&cluster=b` as an array. */
function asList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : [value];
}

function bodyTarget(body: KubeObject): { namespace: string; name: string } {
  return {
    namespace: body.metadata?.namespace ?? '',
    name: body.metadata?.name ?? '',
  };
}

/**
 * Field errors and apply conflicts keep their details in the answer, in
 * Backstage's error body shape; other errors go to Backstage's handler.
 */
const detailedErrors: ErrorRequestHandler = (err, req, res, next) => {
  let status: number;
  let extra: Pick<ErrorBody, 'issues' | 'conflicts'>;
  if (err instanceof ResourceInvalidError) {
    status = 400;
    extra = { issues: err.issues };
  } else if (err instanceof FieldConflictError) {
    status = 409;
    extra = { conflicts: err.conflicts };
  } else {
    next(err);
    return;
  }
  const body: ErrorBody = {
    error: { name: err.name, message: err.message },
    ...extra,
    request: { method: req.method, url: req.originalUrl },
    response: { statusCode: status },
  };
  res.status(status).json(body);
};

export async function createRouter(options: RouterOptions) {
  const {
    clusterClient,
    httpAuth,
    permissions,
    authorizer,
    auditor,
    builtInProviders,
  } = options;
  const router = createValidatedOpenApiRouter<RunwayRouterDoc>(spec, {
    // `/openapi.json` would otherwise match the `/{kind}` template.
    validatorOptions: { ignorePaths: /\/openapi\.json$/ },
  });

  /** Runs a change and records it with the auditor, success or failure. */
  async function audited<T>(
    req: AuditedRequest,
    action: RunwayAuditAction,
    meta: JsonObject,
    work: () => Promise<T>,
  ): Promise<T> {
    const event = await auditor.createEvent({
      eventId: runwayAuditEventId(action),
      severityLevel: 'medium',
      request: req,
      meta,
    });
    try {
      const result = await work();
      await event.success();
      return result;
    } catch (err) {
      await event.fail({
        error: err instanceof Error ? err : new Error(String(err)),
      });
      throw err;
    }
  }

  /** runway.clusters.read, for everything about the clusters themselves. */
  async function assertClustersRead(
    req: Parameters<typeof httpAuth.credentials>[0],
  ): Promise<void> {
    const credentials = await httpAuth.credentials(req);
    const [decision] = await permissions.authorize(
      [{ permission: runwayClustersReadPermission }],
      { credentials },
    );
    if (decision.result !== AuthorizeResult.ALLOW) {
      throw new NotAllowedError(
        `you do not have permission ${runwayClustersReadPermission.name}`,
      );
    }
  }

  router.get('/clusters', async (req, res) => {
    await assertClustersRead(req);
    const result = await clusterClient.overview({
      clusters: asList(req.query.cluster),
    });
    res.json({
      ...result,
      stackDistributions: stackDistributions(),
    } satisfies ClustersAnswer);
  });

  // The hub the downloader uses (HF_ENDPOINT), so the local system searches its stand-in.
  router.get('/hub/models', async (req, res) => {
    await assertClustersRead(req);
    const endpoint = hubEndpoint();
    try {
      const items = await searchModels(String(req.query.search ?? ''), {
        endpoint,
        token: process.env.HF_TOKEN || undefined,
        limit: req.query.limit ? Number(req.query.limit) : 20,
        signal: AbortSignal.timeout(10_000),
      });
      res.json({ endpoint, items } satisfies HubSearchAnswer);
    } catch (err) {
      if (err instanceof HubError || (err as Error).name === 'TimeoutError')
        throw new ServiceUnavailableError(
          `searching the hub at ${endpoint} failed: ${(err as Error).message}`,
        );
      throw err;
    }
  });

  router.get('/clusters/:cluster/doctor', async (req, res) => {
    await assertClustersRead(req);
    const answer = await clusterClient.doctor(req.params.cluster, {
      refresh: req.query.refresh === true,
    });
    res.json(answer satisfies DoctorReport);
  });

  router.get('/clusters/:cluster/storageclasses', async (req, res) => {
    await assertClustersRead(req);
    const answer = await clusterClient.storageClasses(req.params.cluster);
    res.json(answer satisfies StorageClassesAnswer);
  });

  // Secret names are for the forms that reference a Secret: whoever may create a model or a stack there.
  router.get(
    '/clusters/:cluster/namespaces/:namespace/secrets',
    async (req, res) => {
      const { cluster, namespace } = req.params;
      const credentials = await httpAuth.credentials(req);
      const denials: string[] = [];
      for (const permission of [
        runwayPermissions.models.create,
        runwayPermissions.stacks.create,
      ]) {
        try {
          await authorizer.check(permission, credentials, {
            cluster,
            namespace,
          });
          break;
        } catch (err) {
          if (!(err instanceof NotAllowedError)) throw err;
          denials.push(permission.name);
        }
      }
      if (denials.length === 2) {
        throw new NotAllowedError(
          `listing Secret names in ${cluster}/${namespace} needs ${denials.join(
            ' or ',
          )} there`,
        );
      }
      const answer = await clusterClient.secretNames(cluster, namespace);
      res.json(answer satisfies SecretNamesAnswer);
    },
  );

  router.get('/:kind', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const credentials = await httpAuth.credentials(req);
    const filter = parseListFilter(req.query);
    const allowed = await authorizer.scope(
      runwayPermissions[kind].read,
      credentials,
    );
    const result = await clusterClient.list(kind, {
      clusters: asList(req.query.cluster),
      namespace: filter.namespace,
    });
    const items = result.items.filter(
      item =>
        matchesFilter(item.object, filter) &&
        allowed({
          cluster: item.cluster,
          namespace: item.object.metadata?.namespace ?? '',
        }),
    );
    res.json({
      items: sortListed(items),
      clusters: result.clusters,
      errors: result.errors,
    } satisfies ListAnswer);
  });

  router.get('/:kind/:cluster/:namespace/:name', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const { cluster, namespace, name } = req.params;
    const credentials = await httpAuth.credentials(req);
    await authorizer.check(runwayPermissions[kind].read, credentials, {
      cluster,
      namespace,
    });
    const detail = await clusterClient.get(kind, { cluster, namespace, name });
    res.json(detail satisfies DetailAnswer);
  });

  router.post('/:kind/:cluster', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const { cluster } = req.params;
    const body = req.body as KubeObject;
    const dryRun = req.query.dryRun === true;
    const credentials = await httpAuth.credentials(req);
    const target = bodyTarget(body);
    await authorizer.check(runwayPermissions[kind].create, credentials, {
      cluster,
      namespace: target.namespace,
    });
    const result = await audited(
      req,
      'create',
      { kind, cluster, ...target, dryRun },
      () => clusterClient.create(kind, cluster, body, { dryRun }),
    );
    res.status(201).json({
      cluster,
      object: result.object,
      warnings: result.warnings,
      dryRun,
    } satisfies WriteAnswer);
  });

  router.post('/:kind/:cluster/preview', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const { cluster } = req.params;
    const body = req.body as KubeObject;
    const mode = req.query.mode ?? 'create';
    const credentials = await httpAuth.credentials(req);
    const permission =
      mode === 'create'
        ? runwayPermissions[kind].create
        : runwayPermissions[kind].update;
    await authorizer.check(permission, credentials, {
      cluster,
      namespace: bodyTarget(body).namespace,
    });
    res.json(
      (await previewWrite({
        clusterClient,
        kind,
        cluster,
        mode,
        body,
        builtInProviders,
      })) satisfies PreviewAnswer,
    );
  });

  router.put('/:kind/:cluster/:namespace/:name', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const { cluster, namespace, name } = req.params;
    const body = req.body as KubeObject;
    const dryRun = req.query.dryRun === true;
    const force = req.query.force === true;
    const credentials = await httpAuth.credentials(req);
    await authorizer.check(runwayPermissions[kind].update, credentials, {
      cluster,
      namespace,
    });
    const result = await audited(
      req,
      'update',
      { kind, cluster, namespace, name, dryRun, force },
      () =>
        clusterClient.update(kind, { cluster, namespace, name }, body, {
          dryRun,
          force,
        }),
    );
    res.json({
      cluster,
      object: result.object,
      warnings: result.warnings,
      dryRun,
    } satisfies WriteAnswer);
  });

  router.delete('/:kind/:cluster/:namespace/:name', async (req, res) => {
    const kind = req.params.kind as RunwayKind;
    const { cluster, namespace, name } = req.params;
    const credentials = await httpAuth.credentials(req);
    await authorizer.check(runwayPermissions[kind].delete, credentials, {
      cluster,
      namespace,
    });
    await audited(req, 'delete', { kind, cluster, namespace, name }, () =>
      clusterClient.delete(kind, { cluster, namespace, name }),
    );
    res.status(204).end();
  });

  registerLogRoutes(router, {
    clusterClient,
    httpAuth,
    authorizer,
    logger: options.logger,
  });
  registerChatRoutes(router, {
    clusterClient,
    httpAuth,
    authorizer,
    logger: options.logger,
  });

  router.use(detailedErrors);
  return router;
}
