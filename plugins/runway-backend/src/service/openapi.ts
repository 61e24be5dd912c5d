/**
 * The runway REST API, described once: the router validates requests
 * against this document and derives its TypeScript types from it, and the
 * same document is served at `/api/runway/openapi.json`.
 *
 * Request bodies of deployments, models and stacks are plain objects here:
 * they are validated by runway-common (the same code as the form and the
 * cluster's webhook), which answers with field errors this document
 * describes (`ValidationError`).
 */

const KubeObject = {
  type: 'object',
  description: 'A Kubernetes object (apiVersion, kind, metadata, spec, status) as the API server returns it, managedFields removed.',
} as const;

const ClusterError = {
  type: 'object',
  description: 'A cluster that could not (fully) answer. Its data may be missing or stale.',
  required: ['cluster', 'reason', 'message'],
  properties: {
    cluster: { type: 'string' },
    reason: {
      type: 'string',
      enum: ['Unreachable', 'Timeout', 'Unauthorized', 'Forbidden', 'NotInstalled', 'Misconfigured', 'Syncing', 'Error'],
    },
    message: { type: 'string', description: 'What went wrong and what to do about it.' },
  },
  additionalProperties: false,
} as const;

const ClusterFreshness = {
  type: 'object',
  required: ['cluster', 'synced', 'dataAgeMs'],
  properties: {
    cluster: { type: 'string' },
    synced: { type: 'boolean', description: 'True once the cluster cache holds a full list.' },
    dataAgeMs: {
      type: ['number', 'null'],
      description: '0 while the watch is healthy; milliseconds since the data was last known current while failing; null before the first list.',
    },
  },
  additionalProperties: false,
} as const;

const ValidationIssue = {
  type: 'object',
  required: ['path', 'message', 'severity'],
  properties: {
    path: { type: 'string', description: 'Dotted path of the field, e.g. spec.resources.gpu.count.' },
    message: { type: 'string' },
    severity: { type: 'string', enum: ['error', 'warning'] },
  },
  additionalProperties: false,
} as const;

const ErrorBody = {
  type: 'object',
  description: "Backstage's error body; validation errors add `issues`, apply conflicts add `conflicts`.",
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['name', 'message'],
      properties: { name: { type: 'string' }, message: { type: 'string' } },
      additionalProperties: true,
    },
    issues: { type: 'array', items: ValidationIssue },
    conflicts: {
      type: 'array',
      items: {
        type: 'object',
        properties: { manager: { type: 'string' }, field: { type: 'string' }, message: { type: 'string' } },
      },
    },
    request: { type: 'object', additionalProperties: true },
    response: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
} as const;

const errorResponse = (description: string) =>
  ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } }) as const;

const kindParam = {
  name: 'kind',
  in: 'path',
  required: true,
  description: 'deployments (ModelDeployment), models (Model) or stacks (LlamaStackDistribution).',
  schema: { type: 'string', enum: ['deployments', 'models', 'stacks'] },
} as const;
const clusterParam = { name: 'cluster', in: 'path', required: true, schema: { type: 'string' } } as const;
const namespaceParam = { name: 'namespace', in: 'path', required: true, schema: { type: 'string' } } as const;
const nameParam = { name: 'name', in: 'path', required: true, schema: { type: 'string' } } as const;
const clustersQuery = {
  name: 'cluster',
  in: 'query',
  required: false,
  description: 'Only these clusters (repeat the parameter for several). Default: all configured clusters.',
  schema: { type: 'array', items: { type: 'string' } },
  style: 'form',
  explode: true,
} as const;
const dryRunQuery = {
  name: 'dryRun',
  in: 'query',
  required: false,
  description: 'Server-side dry run: the API server checks everything and stores nothing.',
  schema: { type: 'boolean' },
} as const;

const objectBody = {
  required: true,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/KubeObject' } } },
} as const;

const WriteResponse = {
  type: 'object',
  required: ['cluster', 'object', 'warnings', 'dryRun'],
  properties: {
    cluster: { type: 'string' },
    object: { $ref: '#/components/schemas/KubeObject' },
    warnings: { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } },
    dryRun: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

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
    },
  },
  paths: {
    '/clusters': {
      get: {
        operationId: 'ListClusters',
        description: 'Configured clusters with reachability, registered providers and whether each is ready, and GPU capacity per resource type.',
        parameters: [clustersQuery],
        responses: {
          '200': {
            description: 'The clusters.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['items', 'clusters', 'errors'],
                  properties: {
                    items: {
                      type: 'array',
                      items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['name', 'title', 'reachable', 'providers', 'gpus'],
                        properties: {
                          name: { type: 'string' },
                          title: { type: 'string' },
                          namespaces: { type: 'array', items: { type: 'string' } },
                          reachable: { type: 'boolean' },
                          version: { type: 'string' },
                          providers: {
                            type: 'array',
                            items: {
                              type: 'object',
                              additionalProperties: false,
                              required: ['name', 'displayName', 'ready', 'message', 'engines'],
                              properties: {
                                name: { type: 'string' },
                                displayName: { type: 'string' },
                                ready: { type: 'boolean' },
                                message: { type: 'string' },
                                version: { type: 'string' },
                                lastHeartbeat: { type: 'string' },
                                engines: {
                                  type: 'array',
                                  items: {
                                    type: 'object',
                                    additionalProperties: false,
                                    required: ['name', 'servingModes', 'gpuSupport', 'cpuSupport'],
                                    properties: {
                                      name: { type: 'string' },
                                      servingModes: { type: 'array', items: { type: 'string' } },
                                      gpuSupport: { type: 'boolean' },
                                      cpuSupport: { type: 'boolean' },
                                    },
                                  },
                                },
                              },
                            },
                          },
                          gpus: {
                            type: 'array',
                            items: {
                              type: 'object',
                              additionalProperties: false,
                              required: ['resource', 'allocatable', 'requested', 'pending', 'nodes'],
                              properties: {
                                resource: { type: 'string', description: 'e.g. nvidia.com/gpu' },
                                allocatable: { type: 'number' },
                                requested: { type: 'number', description: 'Held by pods bound to nodes.' },
                                pending: { type: 'number', description: 'Wanted by pods not yet scheduled.' },
                                nodes: { type: 'number' },
                              },
                            },
                          },
                        },
                      },
                    },
                    clusters: { type: 'array', items: { $ref: '#/components/schemas/ClusterFreshness' } },
                    errors: { type: 'array', items: { $ref: '#/components/schemas/ClusterError' } },
                  },
                },
              },
            },
          },
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
          { name: 'namespace', in: 'query', required: false, schema: { type: 'string' } },
          {
            name: 'labelSelector',
            in: 'query',
            required: false,
            description: 'Kubernetes label selector, e.g. app=llama,tier in (gpu).',
            schema: { type: 'string' },
          },
          {
            name: 'entityRef',
            in: 'query',
            required: false,
            description: 'Only resources owned by this catalog entity (annotation runway.backstage.io/entity-ref), e.g. component:default/chatbot.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'The resources the user may read, with per-cluster errors and data age.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['items', 'clusters', 'errors'],
                  properties: {
                    items: {
                      type: 'array',
                      items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['cluster', 'object'],
                        properties: {
                          cluster: { type: 'string' },
                          object: { $ref: '#/components/schemas/KubeObject' },
                        },
                      },
                    },
                    clusters: { type: 'array', items: { $ref: '#/components/schemas/ClusterFreshness' } },
                    errors: { type: 'array', items: { $ref: '#/components/schemas/ClusterError' } },
                  },
                },
              },
            },
          },
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
          '201': { description: 'Created (or, with dryRun, what would be stored).', content: { 'application/json': { schema: WriteResponse } } },
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
          {
            name: 'mode',
            in: 'query',
            required: false,
            description: 'create (default) or update.',
            schema: { type: 'string', enum: ['create', 'update'] },
          },
        ],
        requestBody: objectBody,
        responses: {
          '200': {
            description: 'The preview.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['cluster', 'mode', 'objects', 'warnings', 'providerObjects'],
                  properties: {
                    cluster: { type: 'string' },
                    mode: { type: 'string', enum: ['create', 'update'] },
                    objects: {
                      type: 'array',
                      description: 'What the portal itself writes, as the API server would store it.',
                      items: {
                        type: 'object',
                        additionalProperties: false,
                        required: ['action', 'object'],
                        properties: {
                          action: { type: 'string', enum: ['create', 'update'] },
                          object: { $ref: '#/components/schemas/KubeObject' },
                        },
                      },
                    },
                    warnings: { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } },
                    selection: {
                      type: 'object',
                      additionalProperties: false,
                      description: 'Deployments only: what the core controller would record in status.engine and status.provider.',
                      required: ['engine'],
                      properties: {
                        engine: {
                          type: 'object',
                          additionalProperties: false,
                          required: ['ok', 'reason'],
                          properties: { ok: { type: 'boolean' }, engine: { type: 'string' }, reason: { type: 'string' }, auto: { type: 'boolean' } },
                        },
                        provider: {
                          type: 'object',
                          additionalProperties: false,
                          required: ['ok', 'reason'],
                          properties: { ok: { type: 'boolean' }, provider: { type: 'string' }, reason: { type: 'string' }, auto: { type: 'boolean' } },
                        },
                      },
                    },
                    providerObjects: {
                      type: 'object',
                      additionalProperties: false,
                      description: "The upstream objects the selected provider would create from a ModelDeployment (KAITO Workspace, DynamoGraphDeployment, ...).",
                      required: ['status', 'message', 'objects'],
                      properties: {
                        status: { type: 'string', enum: ['available', 'pending', 'not-applicable'] },
                        message: { type: 'string' },
                        objects: { type: 'array', items: { $ref: '#/components/schemas/KubeObject' } },
                      },
                    },
                  },
                },
              },
            },
          },
          '400': errorResponse('The body is not valid: `issues` names each field.'),
          '403': errorResponse('The user may not write this kind there.'),
          '404': errorResponse('The cluster is not configured, or (update) the resource does not exist.'),
          '409': errorResponse('(create) It exists already.'),
          '503': errorResponse('The cluster could not be reached.'),
        },
      },
    },
    '/{kind}/{cluster}/{namespace}/{name}': {
      get: {
        operationId: 'GetResource',
        description: 'One resource with its conditions, its events and those of the upstream objects it owns, and the owned objects.',
        parameters: [kindParam, clusterParam, namespaceParam, nameParam],
        responses: {
          '200': {
            description: 'The resource.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['cluster', 'object', 'conditions', 'events', 'owned', 'clusters', 'errors'],
                  properties: {
                    cluster: { type: 'string' },
                    object: { $ref: '#/components/schemas/KubeObject' },
                    conditions: { type: 'array', items: { type: 'object', description: 'metav1.Condition' } },
                    events: { type: 'array', items: { $ref: '#/components/schemas/KubeObject' } },
                    owned: { type: 'array', items: { $ref: '#/components/schemas/KubeObject' } },
                    clusters: { type: 'array', items: { $ref: '#/components/schemas/ClusterFreshness' } },
                    errors: { type: 'array', items: { $ref: '#/components/schemas/ClusterError' } },
                  },
                },
              },
            },
          },
          '403': errorResponse('The user may not read it.'),
          '404': errorResponse('No such resource or cluster.'),
          '503': errorResponse('The cluster could not be reached.'),
        },
      },
      put: {
        operationId: 'UpdateResource',
        description:
          "Updates a resource with server-side apply (field manager runway-portal). Fields owned by other writers answer 409 with `conflicts` unless force=true. A metadata.resourceVersion in the body makes the update conditional.",
        parameters: [
          kindParam,
          clusterParam,
          namespaceParam,
          nameParam,
          dryRunQuery,
          { name: 'force', in: 'query', required: false, schema: { type: 'boolean' } },
        ],
        requestBody: objectBody,
        responses: {
          '200': { description: 'Updated (or, with dryRun, what would be stored).', content: { 'application/json': { schema: WriteResponse } } },
          '400': errorResponse('The body is not valid: `issues` names each field; nothing was written.'),
          '403': errorResponse('The user may not update it, or the namespace is not open to the portal.'),
          '404': errorResponse('No such resource or cluster.'),
          '409': errorResponse('Changed since read, or fields owned by other writers (`conflicts`).'),
          '503': errorResponse('The cluster could not be reached.'),
        },
      },
      delete: {
        operationId: 'DeleteResource',
        description: 'Deletes a resource (its controllers clean up what it owns).',
        parameters: [kindParam, clusterParam, namespaceParam, nameParam],
        responses: {
          '204': { description: 'Deletion accepted.' },
          '403': errorResponse('The user may not delete it.'),
          '404': errorResponse('No such resource or cluster.'),
          '503': errorResponse('The cluster could not be reached.'),
        },
      },
    },
  },
} as const;
