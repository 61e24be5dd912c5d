/**
 * The runway REST API's OpenAPI document, derived from the contract's
 * schemas (`contract.ts`): the backend serves it at
 * `/api/runway/openapi.json` and validates requests against it.
 *
 * The three kinds (deployments, models, stacks) share one set of paths,
 * `/{kind}/...`: each operation is described once for all of them. Request
 * bodies are plain objects here: they are validated by runway-common (the
 * same code as the form and the cluster's webhook), which answers with field
 * errors the document describes (`ErrorBody`).
 *
 * The paths are `as const` so the backend's typed router reads its
 * parameters from them; answer bodies are typed by the contract's types, not
 * by this document's literal type (see `RunwayRouterDoc`).
 */
import type { TSchema } from '@sinclair/typebox';
import {
  ANSWER_SCHEMAS,
  CHAT_ANSWER_BYTES_MAX,
  CHAT_EVENTS,
  CHAT_TIMEOUT_MS,
  ChatRequestSchema,
  ClusterErrorSchema,
  ClusterFreshnessSchema,
  ErrorBodySchema,
  ObjectBodySchema,
  LOG_TAIL_DEFAULT,
  LOG_TAIL_MAX,
  PreviewModeValues,
  ValidationIssueSchema,
} from './contract';
import { RUNWAY_KINDS } from '../permissions';

type JsonSchema = Record<string, unknown>;

/**
 * A TypeBox schema as plain OpenAPI 3.1 JSON Schema: TypeBox's symbol keys
 * dropped, and every nested schema with a `$id` (ObjectMeta, Condition, ...)
 * moved to `components` and referenced, so each shape is written once in the
 * document too. `$id` itself is removed: in OpenAPI it would change the base
 * of the `$ref`s below it. Pure; adds to `components`.
 *
 * @public
 */
export function toComponentSchema(
  schema: TSchema,
  components: Record<string, JsonSchema>,
): JsonSchema {
  const walk = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) return value.map(v => walk(v, false));
    if (typeof value !== 'object' || value === null) return value;
    const { $id, ...rest } = value as JsonSchema;
    const out: JsonSchema = {};
    for (const [key, v] of Object.entries(rest)) out[key] = walk(v, false);
    if (typeof $id === 'string' && !top) {
      components[$id] ??= out;
      return { $ref: `#/components/schemas/${$id}` };
    }
    return out;
  };
  return walk(schema, true) as JsonSchema;
}

const ref = <const N extends string>(name: N) =>
  ({ $ref: `#/components/schemas/${name}` } as const);
const json = <const S>(description: string, schema: S) =>
  ({ description, content: { 'application/json': { schema } } } as const);
const errorResponse = (description: string) =>
  json(description, ref('ErrorBody'));

const STRING = { type: 'string' } as const;
const BOOLEAN = { type: 'boolean' } as const;
const kindParam = {
  name: 'kind',
  in: 'path',
  required: true,
  description:
    'deployments (ModelDeployment), models (Model) or stacks (LlamaStackDistribution).',
  schema: { type: 'string', enum: RUNWAY_KINDS },
} as const;
const pathParam = <const N extends string>(name: N) =>
  ({ name, in: 'path', required: true, schema: STRING } as const);
const clusterParam = pathParam('cluster');
/** One resource: kind, cluster, namespace, name. */
const resourceParams = [
  kindParam,
  clusterParam,
  pathParam('namespace'),
  pathParam('name'),
] as const;
const queryParam = <const N extends string, const S>(
  name: N,
  schema: S,
  description?: string,
) =>
  ({
    name,
    in: 'query',
    required: false,
    ...(description === undefined ? {} : { description }),
    schema,
  } as const);
const clustersQuery = {
  ...queryParam(
    'cluster',
    { type: 'array', items: STRING },
    'Only these clusters (repeat the parameter for several). Default: all configured clusters.',
  ),
  style: 'form',
  explode: true,
} as const;
const dryRunQuery = queryParam(
  'dryRun',
  BOOLEAN,
  'Server-side dry run: the API server checks everything and stores nothing.',
);
const objectBody = {
  required: true,
  content: { 'application/json': { schema: ref('ObjectBody') } },
} as const;
const unreachable503 = errorResponse('The cluster could not be reached.');

/** The log query both log routes take (parseLogQuery reads it). */
const logQuery = [
  queryParam(
    'container',
    STRING,
    "The container; default the pod's first container.",
  ),
  queryParam(
    'tailLines',
    // The bounds are checked by parseLogQuery, whose error names the parameter.
    { type: 'integer' },
    `How many of the last lines: 1 to ${LOG_TAIL_MAX}, default ${LOG_TAIL_DEFAULT}.`,
  ),
  queryParam(
    'previous',
    BOOLEAN,
    'The log of the previous instance of a restarted container.',
  ),
  queryParam(
    'follow',
    BOOLEAN,
    'Keep streaming new lines (text/event-stream).',
  ),
] as const;

/** A log route's answers: JSON, or with follow=true an event stream; or which query parameter is wrong. */
const logAnswers = <const N extends string>(description: string, schema: N) =>
  ({
    '200': {
      description,
      content: {
        'application/json': { schema: ref(schema) },
        'text/event-stream': { schema: STRING },
      },
    },
    '400': errorResponse('A query parameter is not valid: `issues` names it.'),
  } as const);

const paths = {
  '/clusters': {
    get: {
      operationId: 'ListClusters',
      description:
        'Configured clusters with reachability, registered providers and whether each is ready, and GPU capacity per resource type.',
      parameters: [clustersQuery],
      responses: {
        '200': json('The clusters.', ref('ListClusters')),
        '403': errorResponse('The user may not read the cluster overview.'),
      },
    },
  },
  '/hub/models': {
    get: {
      operationId: 'SearchHub',
      description:
        "Searches the Hugging Face Hub the backend's HF_ENDPOINT names (the downloader's), for the model pickers: size, parameter count, license. Needs runway.clusters.read.",
      parameters: [
        { ...queryParam('search', STRING), required: true },
        queryParam('limit', { type: 'integer', minimum: 1, maximum: 50 }),
      ],
      responses: {
        '200': json('The matching repositories.', ref('HubSearch')),
        '403': errorResponse('The user may not read the clusters.'),
        '503': errorResponse(
          'The hub could not be reached or refused the search.',
        ),
      },
    },
  },
  '/clusters/{cluster}/storageclasses': {
    get: {
      operationId: 'ListStorageClasses',
      description:
        "The cluster's StorageClasses (for the model form's storage class). Needs runway.clusters.read.",
      parameters: [clusterParam],
      responses: {
        '200': json('The storage classes.', ref('StorageClasses')),
        '403': errorResponse('The user may not read the clusters.'),
        '404': errorResponse('No such cluster.'),
        '503': unreachable503,
      },
    },
  },
  '/clusters/{cluster}/doctor': {
    get: {
      operationId: 'GetClusterDoctor',
      description:
        "The doctor's checks of a cluster (the checks of `runway doctor`, read with the portal's credentials), as the backend last ran them in the background (every minute); with refresh=true, run now (bounded). Needs runway.clusters.read.",
      parameters: [
        clusterParam,
        queryParam(
          'refresh',
          BOOLEAN,
          'Run the checks now and answer with that run (at most one run per cluster at a time).',
        ),
      ],
      responses: {
        '200': json('The checks.', ref('DoctorReport')),
        '403': errorResponse('The user may not read the clusters.'),
        '404': errorResponse('No such cluster.'),
      },
    },
  },
  '/clusters/{cluster}/namespaces/{namespace}/secrets': {
    get: {
      operationId: 'ListSecretNames',
      description:
        'The names of the Secrets of a namespace (for credentials pickers); the values are never read. Needs runway.models.create or runway.stacks.create there.',
      parameters: [clusterParam, pathParam('namespace')],
      responses: {
        '200': json('The Secret names.', ref('SecretNames')),
        '403': errorResponse(
          'The user may create neither models nor stacks there, or the namespace is not open to the portal.',
        ),
        '404': errorResponse('No such cluster.'),
        '503': unreachable503,
      },
    },
  },
  '/{kind}': {
    get: {
      operationId: 'ListResources',
      description:
        'Lists deployments, models or stacks across clusters, from each cluster watch-backed cache.',
      parameters: [
        kindParam,
        clustersQuery,
        queryParam('namespace', STRING),
        queryParam(
          'labelSelector',
          STRING,
          'Kubernetes label selector, e.g. app=llama,tier in (gpu).',
        ),
        queryParam(
          'entityRef',
          STRING,
          'Only resources owned by this catalog entity (annotation runway.backstage.io/entity-ref), e.g. component:default/chatbot.',
        ),
      ],
      responses: {
        '200': json(
          'The resources the user may read, with per-cluster errors and data age.',
          ref('ListResources'),
        ),
        '400': errorResponse(
          'A query parameter is not valid (e.g. the label selector).',
        ),
        '403': errorResponse('The user may not read this kind anywhere.'),
        '404': errorResponse('A cluster in the query is not configured.'),
      },
    },
  },
  '/{kind}/{cluster}': {
    post: {
      operationId: 'CreateResource',
      description:
        "Creates a resource (server-side apply with the portal's field manager, runway-portal). Fails with 409 if it exists.",
      parameters: [kindParam, clusterParam, dryRunQuery],
      requestBody: objectBody,
      responses: {
        '201': json(
          'Created (or, with dryRun, what would be stored).',
          ref('WriteResponse'),
        ),
        '400': errorResponse(
          'The body is not valid: `issues` names each field; nothing was written.',
        ),
        '403': errorResponse(
          'The user may not create this kind there, or the namespace is not open to the portal.',
        ),
        '404': errorResponse('The cluster is not configured.'),
        '409': errorResponse('It exists already.'),
        '503': errorResponse(
          'The cluster could not be reached or refused the portal.',
        ),
      },
    },
  },
  '/{kind}/{cluster}/preview': {
    post: {
      operationId: 'PreviewResource',
      description:
        'Shows, without writing anything, the exact objects a create or update would write (server-side dry run), and for deployments the engine and provider the core controller would select.',
      parameters: [
        kindParam,
        clusterParam,
        queryParam(
          'mode',
          { type: 'string', enum: PreviewModeValues },
          'create (default) or update.',
        ),
      ],
      requestBody: objectBody,
      responses: {
        '200': json('The preview.', ref('Preview')),
        '400': errorResponse(
          'The body is not valid: `issues` names each field.',
        ),
        '403': errorResponse('The user may not write this kind there.'),
        '404': errorResponse(
          'The cluster is not configured, or (update) the resource does not exist.',
        ),
        '409': errorResponse('(create) It exists already.'),
        '503': unreachable503,
      },
    },
  },
  '/{kind}/{cluster}/{namespace}/{name}': {
    get: {
      operationId: 'GetResource',
      description:
        'One resource with its conditions, its events and those of the upstream objects it owns, and the owned objects.',
      parameters: resourceParams,
      responses: {
        '200': json('The resource.', ref('ResourceDetail')),
        '403': errorResponse('The user may not read it.'),
        '404': errorResponse('No such resource or cluster.'),
        '503': unreachable503,
      },
    },
    put: {
      operationId: 'UpdateResource',
      description:
        'Updates a resource with server-side apply (field manager runway-portal). Fields owned by other writers answer 409 with `conflicts` unless force=true. A metadata.resourceVersion in the body makes the update conditional.',
      parameters: [
        ...resourceParams,
        dryRunQuery,
        queryParam('force', BOOLEAN),
      ],
      requestBody: objectBody,
      responses: {
        '200': json(
          'Updated (or, with dryRun, what would be stored).',
          ref('WriteResponse'),
        ),
        '400': errorResponse(
          'The body is not valid: `issues` names each field; nothing was written.',
        ),
        '403': errorResponse(
          'The user may not update it, or the namespace is not open to the portal.',
        ),
        '404': errorResponse('No such resource or cluster.'),
        '409': errorResponse(
          'Changed since read, or fields owned by other writers (`conflicts`).',
        ),
        '503': unreachable503,
      },
    },
    delete: {
      operationId: 'DeleteResource',
      description:
        'Deletes a resource (its controllers clean up what it owns).',
      parameters: resourceParams,
      responses: {
        '204': { description: 'Deletion accepted.' },
        '403': errorResponse('The user may not delete it.'),
        '404': errorResponse('No such resource or cluster.'),
        '503': unreachable503,
      },
    },
  },
  '/{kind}/{cluster}/{namespace}/{name}/pods': {
    get: {
      operationId: 'ListPods',
      description:
        "The pods of a resource, found by label: the selector of the provider's Service (status.endpoint.service) and of each workload the resource owns. Needs runway.logs.read.",
      parameters: resourceParams,
      responses: {
        '200': json(
          'The pods and the selectors they were found with.',
          ref('ListPods'),
        ),
        '403': errorResponse('The user may not read logs there.'),
        '404': errorResponse('No such resource or cluster.'),
        '503': unreachable503,
      },
    },
  },
  '/{kind}/{cluster}/{namespace}/{name}/pods/{pod}/log': {
    get: {
      operationId: 'ReadPodLog',
      description:
        "One container's log of one of the resource's pods: the last tailLines lines as JSON, or with follow=true those lines and then every new line as server-sent events (each `data` one line; event `end` when the container's log ends, `runway-error` when reading fails), until the client disconnects. Needs runway.logs.read.",
      parameters: [...resourceParams, pathParam('pod'), ...logQuery],
      responses: {
        ...logAnswers(
          'The lines (JSON), or with follow=true a text/event-stream of lines.',
          'ReadPodLog',
        ),
        '403': errorResponse(
          "The user may not read logs there, or the pod is not one of the resource's pods.",
        ),
        '404': errorResponse('No such resource, cluster, pod or container.'),
        '503': unreachable503,
      },
    },
  },
  '/deployments/{cluster}/{namespace}/{name}/chat': {
    post: {
      operationId: 'ChatWithDeployment',
      description: `"Try it": sends an OpenAI chat completion request to a Running deployment through the cluster's API server (service proxy to status.endpoint.service, path /v1/chat/completions), with the model name the deployment serves and stream: true, and streams the model server's answer back as server-sent events, passed on as they came (each \`data\` an OpenAI chat.completion.chunk, then \`[DONE]\`; event \`${CHAT_EVENTS.error}\` when the answer is cut: longer than ${CHAT_ANSWER_BYTES_MAX} bytes, slower than ${CHAT_TIMEOUT_MS} ms, or the model server failed). The body is a ChatRequest (see components), validated with each field and bound named. Needs runway.chat.send.`,
      parameters: [clusterParam, pathParam('namespace'), pathParam('name')],
      // Validated by parseChatRequest (components.schemas.ChatRequest describes it), whose issues name each field and bound.
      requestBody: objectBody,
      responses: {
        '200': {
          description:
            "The model server's answer as a text/event-stream, until it ends or the client disconnects.",
          content: { 'text/event-stream': { schema: STRING } },
        },
        '400': errorResponse(
          'The request is not valid: `issues` names each field and its bound; nothing was sent.',
        ),
        '403': errorResponse(
          'The user may not send chat requests there; nothing was read or sent.',
        ),
        '404': errorResponse('No such deployment or cluster.'),
        '409': errorResponse(
          'The deployment is not Running (the message names its phase) or has no endpoint yet.',
        ),
        '503': unreachable503,
      },
    },
  },
  '/{kind}/{cluster}/{namespace}/{name}/log': {
    get: {
      operationId: 'ReadResourceLog',
      description:
        "The resource's log as its Logs tab opens it, in one request: its pods (as ListPods) and the first pod's log (its first container unless `container`), as ReadPodLog reads it. As JSON: the pods and the log. With follow=true, server-sent events: first `pods` (a LogStart: the pods, and the pod and container that follow), then the lines as ReadPodLog sends them; a log that cannot be read after the pods are known is a `runway-error` event, and a resource without pods ends at once (`end`). Needs runway.logs.read.",
      parameters: [...resourceParams, ...logQuery],
      responses: {
        ...logAnswers(
          "The pods and the first pod's lines (JSON), or with follow=true a text/event-stream: `pods`, then lines.",
          'ReadResourceLog',
        ),
        '403': errorResponse('The user may not read logs there.'),
        '404': errorResponse('No such resource or cluster.'),
        '503': unreachable503,
      },
    },
  },
} as const;

/** The schema names the paths refer to, each one a contract schema. */
const NAMED_SCHEMAS: Record<string, TSchema> = {
  ListClusters: ANSWER_SCHEMAS.ListClusters,
  ListResources: ANSWER_SCHEMAS.ListResources,
  WriteResponse: ANSWER_SCHEMAS.CreateResource,
  Preview: ANSWER_SCHEMAS.PreviewResource,
  ResourceDetail: ANSWER_SCHEMAS.GetResource,
  StorageClasses: ANSWER_SCHEMAS.ListStorageClasses,
  SecretNames: ANSWER_SCHEMAS.ListSecretNames,
  HubSearch: ANSWER_SCHEMAS.SearchHub,
  ListPods: ANSWER_SCHEMAS.ListPods,
  ReadPodLog: ANSWER_SCHEMAS.ReadPodLog,
  DoctorReport: ANSWER_SCHEMAS.GetClusterDoctor,
  ChatRequest: ChatRequestSchema,
  ReadResourceLog: ANSWER_SCHEMAS.ReadResourceLog,
  ClusterError: ClusterErrorSchema,
  ClusterFreshness: ClusterFreshnessSchema,
  ValidationIssue: ValidationIssueSchema,
  ErrorBody: ErrorBodySchema,
  ObjectBody: ObjectBodySchema,
};

function componentSchemas(): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(NAMED_SCHEMAS))
    components[name] = toComponentSchema(schema, components);
  return components;
}

/**
 * The document's type as the backend's typed router reads it: the paths
 * with their literal parameters; component schemas typed `{}` (any value),
 * because answers are typed by the contract's types instead.
 *
 * @public
 */
export type RunwayRouterDoc = {
  openapi: '3.1.0';
  info: { title: string; version: string };
  paths: typeof paths;
  components: { schemas: Record<keyof typeof NAMED_SCHEMAS & string, {}> };
};

/** The runway REST API's OpenAPI 3.1 document. @public */
export const runwayOpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'runway',
    version: '1',
    description:
      'Deployments (ModelDeployment), models (Model) and stacks (LlamaStackDistribution) across every registered Kubernetes cluster. Every multi-cluster answer lists per-cluster errors and the age of each cluster data.',
    license: { name: 'UNLICENSED' },
  },
  servers: [{ url: '/' }],
  components: { schemas: componentSchemas() },
  paths,
} as unknown as RunwayRouterDoc;
