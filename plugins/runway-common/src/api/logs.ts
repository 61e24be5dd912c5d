/**
 * Pod logs through the portal: the pods of a resource, and one container's
 * log (a bounded tail, or a followed stream of server-sent events). The
 * query is validated here, once, for the backend and the browser.
 */
import { type Static, Type } from '@sinclair/typebox';
import { error, type ValidationIssue } from '../schema/issues';

const Str = Type.String;
const Opt = Type.Optional;
const closed = { additionalProperties: false } as const;

/** @public */
export const PodContainerSchema = Type.Object(
  {
    name: Str(),
    ready: Type.Boolean(),
    restartCount: Type.Integer(),
    state: Str({
      description:
        'running, waiting or terminated, with the reason when there is one (e.g. "waiting: CrashLoopBackOff").',
    }),
    hasPrevious: Type.Boolean({
      description:
        'The container restarted: the log of its previous instance can be read with previous=true.',
    }),
  },
  { $id: 'PodContainer', ...closed },
);
/** @public */
export type PodContainer = Static<typeof PodContainerSchema>;

/** @public */
export const PodSummarySchema = Type.Object(
  {
    name: Str(),
    phase: Str(),
    node: Opt(Str()),
    createdAt: Opt(Str()),
    containers: Type.Array(PodContainerSchema),
  },
  { $id: 'PodSummary', ...closed },
);
/** @public */
export type PodSummary = Static<typeof PodSummarySchema>;

/** @public */
export const PodsAnswerSchema = Type.Object(
  {
    cluster: Str(),
    pods: Type.Array(PodSummarySchema),
    selectors: Type.Array(Str(), {
      description:
        "The label selectors the pods were found with: the selector of the provider's Service and of each workload the resource owns.",
    }),
  },
  { $id: 'PodsAnswer', ...closed },
);
/** @public */
export type PodsAnswer = Static<typeof PodsAnswerSchema>;

/** @public */
export const LogAnswerSchema = Type.Object(
  {
    pod: Str(),
    container: Str(),
    previous: Type.Boolean(),
    lines: Type.Array(Str()),
    truncated: Type.Boolean({
      description:
        'The log was cut at the byte limit: ask for fewer lines to see whole lines.',
    }),
  },
  { $id: 'LogAnswer', ...closed },
);
/** @public */
export type LogAnswer = Static<typeof LogAnswerSchema>;

/** @public */
export const LogStartSchema = Type.Object(
  {
    pods: PodsAnswerSchema,
    pod: Opt(
      Str({
        description:
          'The pod whose log follows: the first of `pods` (none while the resource has no pod).',
      }),
    ),
    container: Opt(
      Str({ description: "The container: the pod's first unless asked." }),
    ),
  },
  {
    $id: 'LogStart',
    description:
      "The first event (`pods`) of a resource's followed log: its pods, and the pod and container whose lines follow.",
    ...closed,
  },
);
/** @public */
export type LogStart = Static<typeof LogStartSchema>;

/** @public */
export const ResourceLogAnswerSchema = Type.Object(
  {
    pods: PodsAnswerSchema,
    log: Opt(LogAnswerSchema),
  },
  {
    $id: 'ResourceLogAnswer',
    description:
      "A resource's log as its Logs tab opens it: its pods and, when it has one, the first pod's log.",
    ...closed,
  },
);
/** @public */
export type ResourceLogAnswer = Static<typeof ResourceLogAnswerSchema>;

/** The tail when none is asked for, and the most a request may ask (a huge log never travels whole). @public */
export const LOG_TAIL_DEFAULT = 200;
/** @public */
export const LOG_TAIL_MAX = 5000;
/** The most bytes one tail reads from the API server (`limitBytes`). @public */
export const LOG_BYTES_MAX = 2 * 1024 * 1024;

/** Server-sent events of a followed log: each `data` is one line; these event names carry the rest. @public */
export const LOG_EVENTS = {
  /** The first event of a resource's log (not a pod's): `data` is a LogStart (JSON). */
  start: 'pods',
  /** The stream ended (the container stopped, or the API server closed it). */
  end: 'end',
  /** Reading failed; `data` says why and what to do. */
  error: 'runway-error',
} as const;

/** @public */
export interface LogQuery {
  container?: string;
  tailLines: number;
  previous: boolean;
  follow: boolean;
}

/** A container name as Kubernetes accepts it (a DNS label). */
const CONTAINER_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function flag(
  name: string,
  value: unknown,
  issues: ValidationIssue[],
): boolean {
  if (value === undefined || value === '' || value === false) return false;
  if (value === true || value === 'true') return true;
  if (value === 'false') return false;
  issues.push(error(name, `${name} must be true or false`));
  return false;
}

/**
 * The log query, validated: each problem names its parameter and what is
 * accepted. `query` is a parsed URL query (strings) or the same values typed.
 *
 * @public
 */
export function parseLogQuery(query: Record<string, unknown>): {
  value?: LogQuery;
  issues: ValidationIssue[];
} {
  const issues: ValidationIssue[] = [];
  let container: string | undefined;
  if (query.container !== undefined && query.container !== '') {
    const text = String(query.container);
    if (text.length > 63 || !CONTAINER_NAME.test(text))
      issues.push(
        error(
          'container',
          `container "${text.slice(
            0,
            80,
          )}" is not a container name: lowercase letters, digits and '-', at most 63 characters`,
        ),
      );
    else container = text;
  }
  let tailLines = LOG_TAIL_DEFAULT;
  if (query.tailLines !== undefined && query.tailLines !== '') {
    const n = Number(query.tailLines);
    if (!Number.isInteger(n) || n < 1 || n > LOG_TAIL_MAX)
      issues.push(
        error(
          'tailLines',
          `tailLines must be a whole number from 1 to ${LOG_TAIL_MAX}, not "${String(
            query.tailLines,
          ).slice(0, 40)}"`,
        ),
      );
    else tailLines = n;
  }
  const previous = flag('previous', query.previous, issues);
  const follow = flag('follow', query.follow, issues);
  if (previous && follow)
    issues.push(
      error(
        'follow',
        'a previous container has stopped: its log cannot be followed; ask with previous=true or follow=true, not both',
      ),
    );
  if (issues.length > 0) return { issues };
  return { value: { container, tailLines, previous, follow }, issues };
}
