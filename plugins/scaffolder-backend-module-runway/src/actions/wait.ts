import { InputError } from '@backstage/errors';
import {
  createTemplateAction,
  type TemplateAction,
} from '@backstage/plugin-scaffolder-node';
import {
  RUNWAY_KINDS,
  type RunwayKind,
} from '@runway-portal/plugin-runway-common';
import {
  type ClusterClient,
  KIND_INFO,
  type ResourceRef,
} from '@runway-portal/plugin-runway-node';
import {
  describeProgress,
  failureMessage,
  targetPhaseOf,
  verdictOf,
} from './progress';
import { checkTarget, portalLink } from './resource';

/** The input of `runway:wait` (its schema is in the action). @public */
export type RunwayWaitInput = {
  cluster: string;
  kind: RunwayKind;
  namespace: string;
  name: string;
  phase?: string | undefined;
  timeoutSeconds?: number | undefined;
};

/** The output of `runway:wait`. @public */
export type RunwayWaitOutput = {
  phase: string;
  link: string;
  message?: string | undefined;
};

/** @public */
export interface RunwayWaitActionOptions {
  clusterClient: ClusterClient;
  /**
   * How often the cached object is looked at even without a change
   * notification (a safety net; the wait is driven by the watch). Default 30 s.
   */
  recheckMs?: number;
}

const DEFAULT_TIMEOUT_SECONDS = 900;
const MAX_TIMEOUT_SECONDS = 24 * 3600;

/** The object from the ClusterClient's cache; undefined while it does not exist. */
async function readCached(
  clusterClient: ClusterClient,
  kind: RunwayKind,
  ref: ResourceRef,
) {
  try {
    return (await clusterClient.get(kind, ref)).object;
  } catch (err) {
    if ((err as Error).name === 'NotFoundError') return undefined;
    throw err;
  }
}

/**
 * `runway:wait`: waits until a deployment, model or stack reaches a phase
 * (default Running for deployments, Ready for models and stacks), and fails
 * with the status message when it reaches Failed. Driven by the
 * ClusterClient's watch: each change of that kind in that namespace re-reads
 * the object from the cache. Phase, message and condition changes go to the
 * task log.
 */
// The return type is spelled out so the API report names the kinds (an inferred union's order varies between builds).
/** @public */
export function createRunwayWaitAction(
  options: RunwayWaitActionOptions,
): TemplateAction<RunwayWaitInput, RunwayWaitOutput, 'v2'> {
  const { clusterClient } = options;
  const recheckMs = options.recheckMs ?? 30_000;
  return createTemplateAction({
    id: 'runway:wait',
    description:
      'Waits until a Runway ModelDeployment, Model or LlamaStackDistribution reaches a phase; fails when it reaches Failed or the timeout passes.',
    supportsDryRun: true,
    examples: [
      {
        description:
          'Wait for the deployment an earlier runway:apply step wrote',
        example: [
          'steps:',
          '  - id: ready',
          '    action: runway:wait',
          '    input:',
          '      cluster: ${{ steps.deploy.output.cluster }}',
          '      kind: deployments',
          '      namespace: ${{ steps.deploy.output.namespace }}',
          '      name: ${{ steps.deploy.output.name }}',
          '      timeoutSeconds: 1800',
        ].join('\n'),
      },
    ],
    schema: {
      input: {
        cluster: z =>
          z.string().min(1).describe('Name of a configured cluster'),
        kind: z =>
          z.enum(RUNWAY_KINDS).describe('deployments, models or stacks'),
        namespace: z => z.string().min(1).describe('Namespace of the resource'),
        name: z => z.string().min(1).describe('Name of the resource'),
        phase: z =>
          z
            .string()
            .optional()
            .describe(
              'Phase to wait for (default: Running for deployments, Ready for models and stacks)',
            ),
        timeoutSeconds: z =>
          z
            .number()
            .optional()
            .describe(
              `How long to wait before failing the step, in seconds (default ${DEFAULT_TIMEOUT_SECONDS})`,
            ),
      },
      output: {
        phase: z => z.string().describe('The phase reached'),
        message: z =>
          z.string().optional().describe('The status message, if any'),
        link: z => z.string().describe("The portal's page of the resource"),
      },
    },
    async handler(ctx) {
      const { cluster, kind, namespace, name } = ctx.input;
      const target = targetPhaseOf(kind, ctx.input.phase);
      const timeoutSeconds =
        ctx.input.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
      if (!(timeoutSeconds > 0 && timeoutSeconds <= MAX_TIMEOUT_SECONDS)) {
        throw new InputError(
          `input.timeoutSeconds ${timeoutSeconds} is out of range: give a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}`,
        );
      }
      checkTarget(clusterClient.listClusters(), cluster, namespace);
      const ref = { cluster, namespace, name };
      const what = `${KIND_INFO[kind].kind} ${namespace}/${name} in cluster "${cluster}"`;
      ctx.output('link', portalLink(kind, cluster, namespace, name));
      if (ctx.isDryRun) {
        ctx.logger.info(
          `Dry run: would wait up to ${timeoutSeconds} s for ${what} to reach phase ${target}`,
        );
        ctx.output('phase', target);
        return;
      }

      const changes = changeTracker();
      const unsubscribe = clusterClient.onChange(change => {
        if (change.cluster !== cluster) return;
        if (
          change.type === 'health' ||
          (change.kind === kind && change.namespace === namespace)
        )
          changes.notify();
      });
      const deadline = Date.now() + timeoutSeconds * 1000;
      let lastLine = '';
      let lastProblem = '';
      try {
        ctx.logger.info(
          `Waiting up to ${timeoutSeconds} s for ${what} to reach phase ${target}`,
        );
        for (;;) {
          // Taken before reading, so a change during the read is not missed.
          const seen = changes.count();
          let object: unknown;
          try {
            object = await readCached(clusterClient, kind, ref);
            lastProblem = '';
          } catch (err) {
            // A cluster that is briefly unreachable does not end the wait; the timeout does.
            const problem = err instanceof Error ? err.message : String(err);
            if (problem !== lastProblem)
              ctx.logger.warn(`Cannot read ${what} yet: ${problem}`);
            lastProblem = problem;
          }
          if (object !== undefined) {
            const verdict = verdictOf(object, target);
            const line = describeProgress(what, verdict.progress);
            if (line !== lastLine) ctx.logger.info(line);
            lastLine = line;
            if (verdict.state === 'reached') {
              ctx.output('phase', target);
              if (verdict.progress.message)
                ctx.output('message', verdict.progress.message);
              return;
            }
            if (verdict.state === 'failed') {
              throw new Error(`${what} failed: ${failureMessage(object)}`);
            }
          } else if (!lastProblem && lastLine !== 'missing') {
            ctx.logger.info(`${what} does not exist yet`);
            lastLine = 'missing';
          }
          const left = deadline - Date.now();
          if (left <= 0) {
            const last =
              lastLine && lastLine !== 'missing'
                ? ` (last seen: ${lastLine})`
                : ' (it does not exist)';
            throw new Error(
              `${what} did not reach phase ${target} within ${timeoutSeconds} s${last}; raise input.timeoutSeconds or look at its page`,
            );
          }
          await changes.next(seen, Math.min(left, recheckMs), ctx.signal);
        }
      } finally {
        unsubscribe();
      }
    },
  });
}

/**
 * Counts change notifications; `next(seen, ms)` resolves once there was one
 * after `seen`, or after `ms`, and rejects when the task is cancelled.
 */
function changeTracker() {
  let count = 0;
  const listeners = new Set<(error?: Error) => void>();
  return {
    notify() {
      count += 1;
      for (const listener of listeners) listener();
    },
    count: () => count,
    next(
      seen: number,
      ms: number,
      signal: AbortSignal | undefined,
    ): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(new Error('the task was cancelled'));
          return;
        }
        if (count !== seen) {
          resolve();
          return;
        }
        const timer = setTimeout(() => finish(), ms);
        function finish(error?: Error) {
          clearTimeout(timer);
          listeners.delete(finish);
          signal?.removeEventListener('abort', onAbort);
          if (error) reject(error);
          else resolve();
        }
        function onAbort() {
          finish(new Error('the task was cancelled'));
        }
        listeners.add(finish);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
