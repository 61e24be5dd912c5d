/**
 * The runway REST API, described once: the router validates requests
 * against this document and derives its TypeScript types from it, and the
 * same document is served at `/api/runway/openapi.json`.
 *
 * The three kinds (deployments, models, stacks) share one set of paths,
 * `/{kind}/...`: each operation is described once for all of them.
 * Request bodies are plain objects here: they are validated by
 * runway-common (the same code as the form and the cluster's webhook),
 * which answers with field errors this document describes (`ErrorBody`).
 */

// ---- building blocks (generic helpers keep the literal types the typed router reads) ----

const STRING = { type: 'string' } as const;
const BOOLEAN = { type: 'boolean' } as const;
const NUMBER = { type: 'number' } as const;

/** An object with exactly these properties, the `required` ones always present. */
function closed<const R extends readonly string[], const P extends Record<string, unknown>>(required: R, properties: P) {
  return { type: 'object', additionalProperties: false, required, properties } as const;
}

function arrayOf<const T>(items: T) {
  return { type: 'array', items } as const;
}

function ref<const N extends string>(name: N) {
  return { $ref: `#/components/schemas/${name}` } as const;
}

function json<const S>(description: string, schema: S) {
  return { description, content: { 'application/json': { schema } } } as const;
}

const errorResponse = (description: string) => json(description, ref('ErrorBody'));

/** Every multi-cluster answer: the items, the freshness of each cluster's data, and per-cluster errors. */
function multiCluster<const I>(items: I) {
  return closed(['items', 'clusters', 'errors'], {
    items: arrayOf(items),
    clusters: arrayOf(ref('ClusterFreshness')),
    errors: arrayOf(ref('ClusterError')),
  });
}

/** An engine or provider choice: `{ok, <field>, reason, auto}`. */
function choice<const F extends string>(field: F) {
  return closed(['ok', 'reason'], { ok: BOOLEAN, ...({ [field]: STRING } as Record<F, typeof STRING>), reason: STRING, auto: BOOLEAN });
}

// ---- schemas ----

const KubeObject = {
  type: 'object',
  description: 'A Kubernetes object (apiVersion, kind, metadata, spec, status) as the API server returns it, managedFields removed.',
} as const;

const ClusterError = {
  description: 'A cluster that could not (fully) answer. Its data may be missing or stale.',
  ...closed(['cluster', 'reason', 'message'], {
    cluster: STRING,
    reason: {
      type: 'string',
      enum: ['Unreachable', 'Timeout', 'Unauthorized', 'Forbidden', 'NotInstalled', 'Misconfigured', 'Syncing', 'Error'],
    },
    message: { type: 'string', description: 'What went wrong and what to do about it.' },
  }),
} as const;

const ClusterFreshness = closed(['cluster', 'synced', 'dataAgeMs'], {
  cluster: STRING,
  synced: { type: 'boolean', description: 'True once the cluster cache holds a full list.' },
  dataAgeMs: {
    type: ['number', 'null'],
    description: '0 while the watch is healthy; milliseconds since the data was last known current while failing; null before the first list.',
  },
});

const ValidationIssue = closed(['path', 'message', 'severity'], {
  path: { type: 'string', description: 'Dotted path of the field, e.g. spec.resources.gpu.count.' },
  message: STRING,
  severity: { type: 'string', enum: ['error', 'warning'] },
});

const ErrorBody = {
  type: 'object',
  description: "Backstage's error body; validation errors add `issues`, apply conflicts add `conflicts`.",
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['name', 'message'],
      properties: { name: STRING, message: STRING },
      additionalProperties: true,
    },
    issues: arrayOf(ValidationIssue),
    conflicts: arrayOf({ type: 'object', properties: { manager: STRING, field: STRING, message: STRING } }),
    request: { type: 'object', additionalProperties: true },
    response: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
} as const;

const Cluster = closed(['name', 'title', 'reachable', 'providers', 'gpus'], {
  name: STRING,
  title: STRING,
  namespaces: arrayOf(STRING),
  reachable: BOOLEAN,
  version: STRING,
  providers: arrayOf(
    closed(['name', 'displayName', 'ready', 'message', 'engines'], {
      name: STRING,
      displayName: STRING,
      ready: BOOLEAN,
      message: STRING,
      version: STRING,
      lastHeartbeat: STRING,
      engines: arrayOf(
        closed(['name', 'servingModes', 'gpuSupport', 'cpuSupport'], {
          name: STRING,
          servingModes: arrayOf(STRING),
          gpuSupport: BOOLEAN,
          cpuSupport: BOOLEAN,
        }),
      ),
    }),
  ),
  gpus: arrayOf(
    closed(['resource', 'allocatable', 'requested', 'pending', 'nodes'], {
      resource: { type: 'string', description: 'e.g. nvidia.com/gpu' },
      allocatable: NUMBER,
      requested: { type: 'number', description: 'Held by pods bound to nodes.' },
      pending: { type: 'number', description: 'Wanted by pods not yet scheduled.' },
      nodes: NUMBER,
    }),
  ),
});

const ListedResource = closed(['cluster', 'object'], { cluster: STRING, object: ref('KubeObject') });

const ResourceDetail = closed(['cluster', 'object', 'conditions', 'events', 'owned', 'clusters', 'errors'], {
  cluster: STRING,
  object: ref('KubeObject'),
  conditions: arrayOf({ type: 'object', description: 'metav1.Condition' }),
  events: arrayOf(ref('KubeObject')),
  owned: arrayOf(ref('KubeObject')),
  clusters: arrayOf(ref('ClusterFreshness')),
  errors: arrayOf(ref('ClusterError')),
});

const WriteResponse = closed(['cluster', 'object', 'warnings', 'dryRun'], {
  cluster: STRING,
  object: ref('KubeObject'),
  warnings: arrayOf(ref('ValidationIssue')),
  dryRun: BOOLEAN,
});

const Preview = closed(['cluster', 'mode', 'objects', 'warnings', 'providerObjects'], {
  cluster: STRING,
  mode: { type: 'string', enum: ['create', 'update'] },
  objects: {
    description: 'What the portal itself writes, as the API server would store it.',
    ...arrayOf(closed(['action', 'object'], { action: { type: 'string', enum: ['create', 'update'] }, object: ref('KubeObject') })),
  },
  warnings: arrayOf(ref('ValidationIssue')),
  selection: {
    description: 'Deployments only: what the core controller would record in status.engine and status.provider.',
    ...closed(['engine'], { engine: choice('engine'), provider: choice('provider') }),
  },
  providerObjects: {
    description:
      "The objects the selected provider would write for a ModelDeployment (KAITO Workspace, DynamoGraphDeployment, RayService, llm-d Deployments, ...), from the provider's own transformation, or why there are none.",
    ...closed(['status', 'message', 'objects', 'warnings'], {
      status: {
        type: 'string',
        enum: ['available', 'not-applicable', 'no-provider', 'provider-unavailable', 'not-built-in', 'invalid', 'error'],
        description:
          'available; not-applicable (models, stacks); no-provider (no engine or provider can be selected: the core\'s reason); provider-unavailable (not registered, not ready, or its upstream CRD missing in that cluster); not-built-in (this portal lacks that provider\'s transformation); invalid (the provider rejects the spec; `field` names the field); error (the transformation failed).',
      },
      message: { type: 'string', description: 'What the provider would write, or why nothing, and what to do about it.' },
      provider: STRING,
      apiVersion: { type: 'string', description: "The upstream apiVersion the provider reports for the cluster (its InferenceProviderConfig's status.upstreamCRDVersion)." },
      field: { type: 'string', description: 'invalid: the spec field at fault, e.g. spec.image.' },
      objects: arrayOf(ref('KubeObject')),
      warnings: { description: "The provider's notes (unknown override keys, transform warnings).", ...arrayOf(STRING) },
    }),
  },
});

// ---- parameters and bodies ----

const kindParam = {
  name: 'kind',
  in: 'path',
  required: true,
  description: 'deployments (ModelDeployment), models (Model) or stacks (LlamaStackDistribution).',
  schema: { type: 'string', enum: ['deployments', 'models', 'stacks'] },
} as const;
const pathParam = <const N extends string>(name: N) => ({ name, in: 'path', required: true, schema: STRING }) as const;
const clusterParam = pathParam('cluster');
/** One resource: kind, cluster, namespace, name. */
const resourceParams = [kindParam, clusterParam, pathParam('namespace'), pathParam('name')] as const;
const queryParam = <const N extends string, const S>(name: N, schema: S, description?: string) =>
  ({ name, in: 'query', required: false, ...(description === undefined ? {} : { description }), schema }) as const;
const clustersQuery = {
  ...queryParam('cluster', arrayOf(STRING), 'Only these clusters (repeat the parameter for several). Default: all configured clusters.'),
  style: 'form',
  explode: true,
} as const;
const dryRunQuery = queryParam('dryRun', BOOLEAN, 'Server-side dry run: the API server checks everything and stores nothing.');

const objectBody = { required: true, content: { 'application/json': { schema: ref('KubeObject') } } } as const;

const unreachable503 = errorResponse('The cluster could not be reached.');

export const spec = {
  openapi: '3.1.0',
  info: {
    title: 'runway',
    version: '1',
    description:
      'Deployments (ModelDeployment), models (Model) and stacks (LlamaStackDistribution) across every registered Kubernetes cluster. Every multi-cluster answer lists per-cluster errors and the age of each cluster data.',
    license: { name: 'UNLICENSED' },
  },
  servers: [{ url: '/' }],
  components: {
    schemas: {
      KubeObject,
      ClusterError,
      ClusterFreshness,
      ValidationIssue,
      ErrorBody,
      Cluster,
      ListedResource,
      ResourceDetail,
      WriteResponse,
      Preview,
    },
  },
  paths: {
    '/clusters': {
      get: {
        operationId: 'ListClusters',
        description: 'Configured clusters with reachability, registered providers and whether each is ready, and GPU capacity per resource type.',
        parameters: [clustersQuery],
        responses: {
          '200': json('The clusters.', multiCluster(ref('Cluster'))),
          '403': errorResponse('The user may not read the cluster overview.'),
        },
      },
    },
    '/{kind}': {
      get: {
        operationId: 'ListResources',
        description: 'Lists deployments, models or stacks across clusters, from each cluster watch-backed cache.',
        parameters: [
          kindParam,
          clustersQuery,
          queryParam('namespace', STRING),
          queryParam('labelSelector', STRING, 'Kubernetes label selector, e.g. app=llama,tier in (gpu).'),
          queryParam(
            'entityRef',
            STRING,
            'Only resources owned by this catalog entity (annotation runway.backstage.io/entity-ref), e.g. component:default/chatbot.',
          ),
        ],
        responses: {
          '200': json('The resources the user may read, with per-cluster errors and data age.', multiCluster(ref('ListedResource'))),
          '400': errorResponse('A query parameter is not valid (e.g. the label selector).'),
          '403': errorResponse('The user may not read this kind anywhere.'),
          '404': errorResponse('A cluster in the query is not configured.'),
        },
      },
    },
    '/{kind}/{cluster}': {
      post: {
        operationId: 'CreateResource',
        description: "Creates a resource (server-side apply with the portal's field manager, runway-portal). Fails with 409 if it exists.",
        parameters: [kindParam, clusterParam, dryRunQuery],
        requestBody: objectBody,
        responses: {
          '201': json('Created (or, with dryRun, what would be stored).', ref('WriteResponse')),
          '400': errorResponse('The body is not valid: `issues` names each field; nothing was written.'),
          '403': errorResponse('The user may not create this kind there, or the namespace is not open to the portal.'),
          '404': errorResponse('The cluster is not configured.'),
          '409': errorResponse('It exists already.'),
          '503': errorResponse('The cluster could not be reached or refused the portal.'),
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
          queryParam('mode', { type: 'string', enum: ['create', 'update'] }, 'create (default) or update.'),
        ],
        requestBody: objectBody,
        responses: {
          '200': json('The preview.', ref('Preview')),
          '400': errorResponse('The body is not valid: `issues` names each field.'),
          '403': errorResponse('The user may not write this kind there.'),
          '404': errorResponse('The cluster is not configured, or (update) the resource does not exist.'),
          '409': errorResponse('(create) It exists already.'),
          '503': unreachable503,
        },
      },
    },
    '/{kind}/{cluster}/{namespace}/{name}': {
      get: {
        operationId: 'GetResource',
        description: 'One resource with its conditions, its events and those of the upstream objects it owns, and the owned objects.',
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
        parameters: [...resourceParams, dryRunQuery, queryParam('force', BOOLEAN)],
        requestBody: objectBody,
        responses: {
          '200': json('Updated (or, with dryRun, what would be stored).', ref('WriteResponse')),
          '400': errorResponse('The body is not valid: `issues` names each field; nothing was written.'),
          '403': errorResponse('The user may not update it, or the namespace is not open to the portal.'),
          '404': errorResponse('No such resource or cluster.'),
          '409': errorResponse('Changed since read, or fields owned by other writers (`conflicts`).'),
          '503': unreachable503,
        },
      },
      delete: {
        operationId: 'DeleteResource',
        description: 'Deletes a resource (its controllers clean up what it owns).',
        parameters: resourceParams,
        responses: {
          '204': { description: 'Deletion accepted.' },
          '403': errorResponse('The user may not delete it.'),
          '404': errorResponse('No such resource or cluster.'),
          '503': unreachable503,
        },
      },
    },
  },
} as const;
