import type { AuditorService } from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';
import {
  createTemplateAction,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import {
  RUNWAY_KINDS,
  runwayPermissions,
  type RunwayKind,
} from '@runway-portal/plugin-runway-common';
import {
  type Authorizer,
  type ClusterClient,
  KIND_INFO,
  runwayAuditEventId,
  type WriteResult,
} from '@runway-portal/plugin-runway-node';
import {
  checkTarget,
  invalidResourceError,
  parseResourceInput,
  portalLink,
  withNamespace,
} from './resource';

/** @public */
export interface RunwayApplyActionOptions {
  clusterClient: ClusterClient;
  /** Checks the permissions of the user running the template. */
  authorizer: Authorizer;
  auditor: AuditorService;
}

/** True when the resource exists (read from the ClusterClient's cache). */
async function exists(
  clusterClient: ClusterClient,
  kind: RunwayKind,
  ref: { cluster: string; namespace: string; name: string },
) {
  try {
    await clusterClient.get(kind, ref);
    return true;
  } catch (err) {
    if ((err as Error).name === 'NotFoundError') return false;
    throw err;
  }
}

/** The input of `runway:apply` (its schema is in the action). @public */
export type RunwayApplyInput = {
  cluster: string;
  kind: RunwayKind;
  namespace: string;
  resource: string | Record<string, any>;
  force?: boolean | undefined;
};

/** The output of `runway:apply`. @public */
export type RunwayApplyOutput = {
  cluster: string;
  namespace: string;
  name: string;
  kind: string;
  created: boolean;
  link: string;
};

/**
 * `runway:apply`: creates or updates a deployment, model or stack in one
 * cluster with the portal's field manager, after the same validation, namespace
 * allow-list and permission checks as the REST API (permissions of the user
 * running the template).
 */
// The return type is spelled out so the API report names the kinds (an inferred union's order varies between builds).
/** @public */
export function createRunwayApplyAction(
  options: RunwayApplyActionOptions,
): TemplateAction<RunwayApplyInput, RunwayApplyOutput, 'v2'> {
  const { clusterClient, authorizer, auditor } = options;
  return createTemplateAction({
    id: 'runway:apply',
    description:
      'Creates or updates a Runway ModelDeployment, Model or LlamaStackDistribution in a cluster (server-side apply as the portal, with the permissions of the user running the template).',
    supportsDryRun: true,
    examples: [
      {
        description: 'Deploy a model',
        example: [
          'steps:',
          '  - id: deploy',
          '    action: runway:apply',
          '    input:',
          '      cluster: dev',
          '      kind: deployments',
          '      namespace: team-a',
          '      resource:',
          '        apiVersion: airunway.ai/v1alpha1',
          '        kind: ModelDeployment',
          '        metadata: { name: llama-8b }',
          '        spec:',
          '          model: { id: meta-llama/Llama-3.1-8B-Instruct, source: huggingface }',
          '          engine: { type: vllm }',
          '          resources: { gpu: { count: 1 } }',
        ].join('\n'),
      },
    ],
    schema: {
      input: {
        cluster: z =>
          z.string().min(1).describe('Name of a configured cluster'),
        kind: z =>
          z
            .enum(RUNWAY_KINDS)
            .describe(
              'deployments (ModelDeployment), models (Model) or stacks (LlamaStackDistribution)',
            ),
        namespace: z =>
          z
            .string()
            .min(1)
            .describe(
              'Namespace of the resource; fills metadata.namespace when the resource has none',
            ),
        resource: z =>
          z
            .union([z.string(), z.record(z.string(), z.any())])
            .describe('The resource: an object, or YAML text of one object'),
        force: z =>
          z
            .boolean()
            .optional()
            .describe(
              'When updating, take over fields other writers own instead of failing (default false)',
            ),
      },
      output: {
        cluster: z => z.string(),
        namespace: z => z.string(),
        name: z => z.string(),
        kind: z => z.string(),
        created: z =>
          z.boolean().describe('True when the resource did not exist before'),
        link: z => z.string().describe("The portal's page of the resource"),
      },
    },
    async handler(ctx) {
      const { cluster, kind, namespace, force } = ctx.input;
      const dryRun = ctx.isDryRun === true;
      const body = withNamespace(
        parseResourceInput(kind, ctx.input.resource),
        namespace,
      );
      const invalid = invalidResourceError(
        kind,
        clusterClient.validate(kind, body, { namespace }),
      );
      if (invalid) throw invalid;
      checkTarget(clusterClient.listClusters(), cluster, namespace);
      const name = String((body.metadata as Record<string, unknown>).name);
      const ref = { cluster, namespace, name };
      const what = `${KIND_INFO[kind].kind} ${namespace}/${name} in cluster "${cluster}"`;

      const credentials = await ctx.getInitiatorCredentials();
      /** One write: the user's permission for it, then the write, audited. */
      const write = async (mode: 'create' | 'update'): Promise<WriteResult> => {
        await authorizer.check(runwayPermissions[kind][mode], credentials, {
          cluster,
          namespace,
        });
        const event = await auditor.createEvent({
          eventId: runwayAuditEventId(mode),
          severityLevel: 'medium',
          meta: {
            kind,
            cluster,
            namespace,
            name,
            dryRun,
            taskId: ctx.task.id,
            ...(ctx.user?.ref ? { user: ctx.user.ref } : {}),
          },
        });
        try {
          const written =
            mode === 'create'
              ? await clusterClient.create(kind, cluster, body, { dryRun })
              : await clusterClient.update(kind, ref, body, {
                  dryRun,
                  force: force === true,
                });
          await event.success();
          return written;
        } catch (err) {
          await event.fail({
            error: err instanceof Error ? err : new Error(String(err)),
          });
          if ((err as Error).name === 'ResourceInvalidError') {
            // The cluster's own checks (e.g. a missing namespace): still the resource's fault.
            throw new InputError(`input.resource: ${(err as Error).message}`);
          }
          throw err;
        }
      };

      // The cache says whether it exists; it may lag a write made a moment ago, so a
      // create that finds the object already there becomes an update.
      let created = !(await exists(clusterClient, kind, ref));
      let result: WriteResult | undefined;
      if (created) {
        try {
          result = await write('create');
        } catch (err) {
          if ((err as Error).name !== 'ConflictError') throw err;
          created = false;
        }
      }
      result ??= await write('update');
      for (const warning of result.warnings)
        ctx.logger.warn(`${warning.path}: ${warning.message}`);
      ctx.logger.info(
        `${dryRun ? 'Dry run: would have ' : ''}${
          created ? 'created' : 'updated'
        } ${what}`,
      );

      ctx.output('cluster', cluster);
      ctx.output('namespace', namespace);
      ctx.output('name', name);
      ctx.output('kind', kind);
      ctx.output('created', created);
      ctx.output('link', portalLink(kind, cluster, namespace, name));
    },
  });
}
