/**
 * Config generation (seed 004 FR-021 to FR-053, FR-090 to FR-092): a pure
 * function from a defaulted, wire-form v1alpha2 spec and a base config.yaml
 * to the config.yaml the server runs, the env vars its secrets come from and
 * the counts the status reports. No I/O, no clock: the same inputs give the
 * same bytes (NFR-001), which is what lets the operator skip a restart when
 * nothing changed (FR-096).
 */
import { createHash } from 'node:crypto';
import {
  PROVIDER_APIS,
  stackSpecIssues,
  type LlamaStackDistributionV1alpha2,
  type ProviderApi,
  type StackProvider,
} from '@runway-portal/plugin-runway-common';
import { parseDocument, stringify } from 'yaml';

/** @public */
export type StackSpec = LlamaStackDistributionV1alpha2['spec'];

/** config.yaml schema versions this operator generates for: current first, then the previous one (FR-028). @public */
export const SUPPORTED_CONFIG_VERSIONS = [2, 1] as const;

/** The key of each `spec.providers` API (and `spec.disabled` name) in config.yaml. @public */
export const CONFIG_API_NAMES: Readonly<Record<string, string>> = {
  agents: 'agents',
  batches: 'batches',
  datasetio: 'datasetio',
  eval: 'eval',
  fileProcessors: 'file_processors',
  files: 'files',
  inference: 'inference',
  postTraining: 'post_training',
  responses: 'responses',
  safety: 'safety',
  scoring: 'scoring',
  telemetry: 'telemetry',
  toolRuntime: 'tool_runtime',
  vectorIo: 'vector_io',
};

/** An env var of the server container whose value comes from a Secret key (FR-022, NFR-003). @public */
export interface SecretEnvVar {
  name: string;
  valueFrom: { secretKeyRef: { name: string; key: string } };
}

/** @public */
export interface GeneratedConfig {
  ok: true;
  configYaml: string;
  /** `sha256:<hex>` of `configYaml`. */
  contentHash: string;
  envVars: SecretEnvVar[];
  /** Providers the CR configures that are in effect (inline not disabled, plus external). */
  providerCount: number;
  /** Models, tool groups and shields the CR registers. */
  resourceCount: number;
  modelCount: number;
  configVersion: number;
  /** Accepted but worth telling (disabled API with providers, external override), each with its field. */
  warnings: Array<{ path: string; message: string }>;
}

/** @public */
export type ConfigFailureReason =
  | 'ConfigGenerationFailed'
  | 'BaseConfigRequired'
  | 'UnsupportedConfigVersion'
  | 'MissingProviderForResource';

/** @public */
export interface ConfigFailure {
  ok: false;
  reason: ConfigFailureReason;
  message: string;
  /** Field paths of the spec the failure is about, when there are some. */
  paths: string[];
}

/** @public */
export interface GenerateInput {
  spec: StackSpec;
  /** The base config.yaml text (embedded per distribution, FR-027b); undefined when none is known. */
  baseConfig: string | undefined;
}

/** Where the Deployment mounts `networking.tls.secretName`. @public */
export const TLS_MOUNT_PATH = '/etc/llama-stack/tls';

/** @public */
export const BASE_CONFIG_REQUIRED_MESSAGE =
  'Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.';

type Json = Record<string, any>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `LLSD_<ID>_<FIELD>` (FR-032, OQ-003): upper case, anything but letters and digits becomes `_`. @public */
export function secretEnvName(id: string, field: string): string {
  const part = (s: string) =>
    s
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2') // apiKey → api_Key
      .replace(/[^A-Za-z0-9]/g, '_')
      .toUpperCase();
  return `LLSD_${part(id)}_${part(field)}`;
}

/** FR-030: a bare provider name gets `remote::`; a name that already says `inline::`/`remote::` is kept. @public */
export function providerType(provider: string): string {
  return provider.includes('::') ? provider : `remote::${provider}`;
}

/**
 * The id a base config provider answers to: `${env.X:+vllm}` (enabled when
 * X is set) answers to `vllm`, so a user's `vllm` provider replaces it
 * rather than appearing twice.
 */
function baseProviderId(entry: unknown): string | undefined {
  if (!isRecord(entry) || typeof entry.provider_id !== 'string')
    return undefined;
  const conditional = /^\$\{env\.[A-Za-z0-9_]+:\+([^}]*)\}$/.exec(
    entry.provider_id,
  );
  return conditional ? conditional[1] : entry.provider_id;
}

/** Whether a base provider is always on (a literal id, not `${env.X:+id}`). */
function unconditional(entry: unknown): boolean {
  return (
    isRecord(entry) &&
    typeof entry.provider_id === 'string' &&
    !entry.provider_id.includes('${')
  );
}

/** A copy with object keys sorted at every depth: user maps arrive in whatever order the API server kept. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort())
    out[key] = sortedDeep(value[key]);
  return out;
}

function fail(
  reason: ConfigFailureReason,
  message: string,
  paths: string[] = [],
): ConfigFailure {
  return { ok: false, reason, message, paths };
}

interface Context {
  env: Map<string, { ref: { name: string; key: string }; path: string }>;
  warnings: Array<{ path: string; message: string }>;
  error?: ConfigFailure;
}

/** Registers a secret env var and returns the `${env.NAME}` reference; two fields mapping to one name fail. */
function secretRef(
  ctx: Context,
  name: string,
  ref: { name: string; key: string },
  path: string,
): string {
  const existing = ctx.env.get(name);
  if (
    existing &&
    (existing.ref.name !== ref.name ||
      existing.ref.key !== ref.key ||
      existing.path !== path)
  ) {
    ctx.error ??= fail(
      'ConfigGenerationFailed',
      `${path} and ${existing.path} both need the env var ${name}: give the providers ids that differ in more than "-" and "_"`,
      [path, existing.path],
    );
  }
  ctx.env.set(name, { ref: { name: ref.name, key: ref.key }, path });
  return `\${env.${name}}`;
}

/** The Secret key of a secret reference in either accepted form. */
function refOf(value: unknown): { name: string; key: string } | undefined {
  if (!isRecord(value)) return undefined;
  const ref = isRecord(value.secretKeyRef) ? value.secretKeyRef : value;
  return typeof ref.name === 'string' && typeof ref.key === 'string'
    ? { name: ref.name, key: ref.key }
    : undefined;
}

/** The URL key the distribution's own provider of this type uses (`base_url` since llama-stack 0.4, `url` before). */
function urlKeyFor(type: string, baseProviders: Json): string {
  for (const list of Object.values(baseProviders)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (
        isRecord(entry) &&
        entry.provider_type === type &&
        isRecord(entry.config)
      ) {
        if ('base_url' in entry.config) return 'base_url';
        if ('url' in entry.config) return 'url';
      }
    }
  }
  return 'url'; // FR-031
}

/** One user provider as a config.yaml provider entry (FR-030 to FR-033, FR-035). */
function providerEntry(
  ctx: Context,
  p: StackProvider,
  id: string,
  path: string,
  baseProviders: Json,
): Json {
  const type = providerType(p.provider);
  const config: Json = {};
  // FR-033/FR-005: settings pass through; only a top-level {secretKeyRef} is a secret, deeper ones are literal maps.
  for (const [field, value] of Object.entries(p.settings ?? {}).sort(
    ([a], [b]) => a.localeCompare(b),
  )) {
    const ref =
      isRecord(value) && isRecord(value.secretKeyRef)
        ? refOf(value)
        : undefined;
    config[field] = ref
      ? secretRef(
          ctx,
          secretEnvName(id, field),
          ref,
          `${path}.settings.${field}.secretKeyRef`,
        )
      : sortedDeep(value);
  }
  for (const [field, value] of Object.entries(p.secretRefs ?? {}).sort(
    ([a], [b]) => a.localeCompare(b),
  )) {
    const ref = refOf(value);
    if (ref)
      config[field] = secretRef(
        ctx,
        secretEnvName(id, field),
        ref,
        `${path}.secretRefs.${field}`,
      );
  }
  if (p.endpoint) config[urlKeyFor(type, baseProviders)] = p.endpoint;
  const apiKey = refOf(p.apiKey);
  if (apiKey)
    config.api_key = secretRef(
      ctx,
      secretEnvName(id, 'apiKey'),
      apiKey,
      `${path}.apiKey`,
    );
  const entry: Json = { provider_id: id, provider_type: type };
  if (Object.keys(config).length) entry.config = config;
  return entry;
}

/** Replaces the entry with the same id in place, or appends (the contract's merge_by_provider_id). */
function mergeById(
  list: Json[],
  entry: Json,
  idOf: (e: unknown) => string | undefined,
): 'replaced' | 'added' {
  const at = list.findIndex(e => idOf(e) === entry.provider_id);
  if (at >= 0) {
    list[at] = entry;
    return 'replaced';
  }
  list.push(entry);
  return 'added';
}

/** A `host:port` pair from a Redis endpoint (`redis://host:6379`, `host:6379` or `host`). */
function redisHostPort(endpoint: string): { host: string; port: number } {
  const bare = endpoint
    .replace(/^rediss?:\/\//, '')
    .replace(/\/.*$/, '')
    .replace(/^.*@/, '');
  const match = /^(.*?)(?::(\d+))?$/.exec(bare)!;
  return { host: match[1], port: match[2] ? Number(match[2]) : 6379 };
}

/**
 * FR-050 to FR-053: kv and sql each replace the distribution's default
 * backend when given; without `spec.storage` the distribution's stay.
 */
function applyStorage(
  ctx: Context,
  config: Json,
  spec: StackSpec,
  distro: string,
) {
  const storage = spec.storage;
  if (!storage) return;
  const sqliteDir = `\${env.SQLITE_STORE_DIR:=~/.llama/distributions/${distro}}`;
  const kvBackend = (): Json | undefined => {
    const kv = storage.kv;
    if (!kv) return undefined;
    if ((kv.type ?? 'sqlite') === 'redis') {
      const { host, port } = redisHostPort(kv.endpoint ?? '');
      const backend: Json = { type: 'kv_redis', host, port };
      const password = refOf(kv.password);
      if (password) {
        backend.password = secretRef(
          ctx,
          'LLSD_STORAGE_KV_PASSWORD',
          password,
          'spec.storage.kv.password',
        );
      }
      return backend;
    }
    return { type: 'kv_sqlite', db_path: `${sqliteDir}/kvstore.db` };
  };
  const sqlBackend = (): Json | undefined => {
    const sql = storage.sql;
    if (!sql) return undefined;
    if ((sql.type ?? 'sqlite') === 'postgres') {
      const conn = refOf(sql.connectionString);
      const backend: Json = { type: 'sql_postgres' };
      if (conn) {
        backend.connection_string = secretRef(
          ctx,
          'LLSD_STORAGE_SQL_CONNECTION_STRING',
          conn,
          'spec.storage.sql.connectionString',
        );
      }
      return backend;
    }
    return { type: 'sql_sqlite', db_path: `${sqliteDir}/sql_store.db` };
  };
  const kv = kvBackend();
  const sql = sqlBackend();
  if (isRecord(config.storage) || !('metadata_store' in config)) {
    // Current layout: named backends that the stores point at.
    const st: Json = isRecord(config.storage)
      ? config.storage
      : (config.storage = {});
    const backends: Json = isRecord(st.backends)
      ? st.backends
      : (st.backends = {});
    if (kv) backends.kv_default = kv;
    if (sql) backends.sql_default = sql;
  } else {
    // Previous layout (top-level metadata_store / inference_store).
    if (kv)
      config.metadata_store = {
        ...kv,
        type: String(kv.type).replace(/^kv_/, ''),
      };
    if (sql)
      config.inference_store = {
        ...sql,
        type: String(sql.type).replace(/^sql_/, ''),
      };
  }
}

/** Where registered resources live: `registered_resources` (current layout) or the top level (previous). */
function resourceHolder(config: Json): Json {
  if (isRecord(config.registered_resources)) return config.registered_resources;
  if ('models' in config || 'tool_groups' in config || 'shields' in config)
    return config;
  return (config.registered_resources = {});
}

function listAt(holder: Json, key: string): Json[] {
  if (!Array.isArray(holder[key])) holder[key] = [];
  return holder[key];
}

/** The ids of a config API's providers that are always on, in order. */
function activeIds(providers: Json, configApi: string): string[] {
  const list = providers[configApi];
  return Array.isArray(list)
    ? list.filter(unconditional).map(e => e.provider_id as string)
    : [];
}

/** Detects and checks the config.yaml schema version (FR-027, FR-029). @public */
export function configVersionOf(
  base: Json,
): { version: number } | ConfigFailure {
  const raw = base.version;
  const version =
    typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (
    typeof version !== 'number' ||
    !(SUPPORTED_CONFIG_VERSIONS as readonly number[]).includes(version)
  ) {
    return fail(
      'UnsupportedConfigVersion',
      `Unsupported config.yaml version ${
        raw === undefined ? '(none)' : String(raw)
      }. Supported versions: ${SUPPORTED_CONFIG_VERSIONS.join(', ')}`,
    );
  }
  return { version };
}

/** The provider ids per API of a base config, for the validator's resource checks (FR-043, FR-044). @public */
export function baseConfigProviders(
  base: Json,
): Partial<Record<ProviderApi, string[]>> {
  const providers = isRecord(base.providers) ? base.providers : {};
  const out: Partial<Record<ProviderApi, string[]>> = {};
  for (const api of PROVIDER_APIS)
    out[api] = activeIds(providers, CONFIG_API_NAMES[api]);
  return out;
}

/** Parsed base configs by text: parsing is most of the cost and there are few distinct bases (NFR-006's spirit). */
const parsedBases = new Map<string, Json | ConfigFailure>();
const MAX_CACHED_BASES = 16;

function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as unknown as T;
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value)) out[key] = deepCopy(value[key]);
  return out as T;
}

/** The base config as data (a fresh copy the caller may change), or why it cannot be used. @public */
export function parseBaseConfig(
  text: string,
): { config: Json } | ConfigFailure {
  let parsed = parsedBases.get(text);
  if (!parsed) {
    parsed = parseUncached(text);
    if (parsedBases.size >= MAX_CACHED_BASES)
      parsedBases.delete(parsedBases.keys().next().value!);
    parsedBases.set(text, parsed);
  }
  return 'ok' in parsed
    ? (parsed as ConfigFailure)
    : { config: deepCopy(parsed) };
}

function parseUncached(text: string): Json | ConfigFailure {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) {
    return fail(
      'ConfigGenerationFailed',
      `the base config.yaml is not valid YAML: ${doc.errors[0].message}`,
    );
  }
  const config = doc.toJS({ maxAliasCount: 100 });
  if (!isRecord(config))
    return fail(
      'ConfigGenerationFailed',
      'the base config.yaml is not a YAML map',
    );
  return config;
}

/**
 * Generates config.yaml. Order of work follows the seed's controller flow:
 * base config and its version, validation against it, provider merge, resources,
 * storage, disabled APIs, external providers.
 *
 * @public
 */
export function generateConfig({
  spec,
  baseConfig,
}: GenerateInput): GeneratedConfig | ConfigFailure {
  if (baseConfig === undefined)
    return fail('BaseConfigRequired', BASE_CONFIG_REQUIRED_MESSAGE, [
      'spec.distribution.image',
    ]);
  const parsed = parseBaseConfig(baseConfig);
  if ('ok' in parsed) return parsed;
  const config = parsed.config;
  const version = configVersionOf(config);
  if ('ok' in version) return version;

  // The cross-field rules exist once, in runway-common; here they run with the base config known.
  const baseIds = baseConfigProviders(config);
  const errors = stackSpecIssues(spec, { baseConfigProviders: baseIds }).filter(
    i => i.severity === 'error',
  );
  if (errors.length) {
    const missing = errors.find(e =>
      / requires at least one \w+ provider to be configured$/.test(e.message),
    );
    if (missing)
      return fail('MissingProviderForResource', missing.message, [
        missing.path,
      ]);
    return fail(
      'ConfigGenerationFailed',
      errors.map(e => e.message).join('; '),
      errors.map(e => e.path),
    );
  }

  const ctx: Context = { env: new Map(), warnings: [] };
  const disabled = new Set<string>(spec.disabled ?? []);
  const providers: Json = isRecord(config.providers)
    ? config.providers
    : (config.providers = {});
  const apis: string[] = Array.isArray(config.apis) ? config.apis : [];
  let providerCount = 0;

  // Providers (FR-030 to FR-035), merged by provider_id into the base lists.
  const userIds: Partial<Record<ProviderApi, string[]>> = {};
  for (const api of PROVIDER_APIS) {
    const list = spec.providers?.[api];
    if (!list?.length) continue;
    if (disabled.has(api)) {
      // OQ-002: disabled wins; the provider is accepted and ignored.
      ctx.warnings.push({
        path: `spec.providers.${api}`,
        message: `spec.providers.${api} is ignored because spec.disabled disables ${api}; remove one of them`,
      });
      continue;
    }
    const configApi = CONFIG_API_NAMES[api];
    const target: Json[] = Array.isArray(providers[configApi])
      ? providers[configApi]
      : (providers[configApi] = []);
    if (!apis.includes(configApi)) apis.push(configApi);
    for (const [i, p] of list.entries()) {
      const id = p.id ?? p.provider;
      mergeById(
        target,
        providerEntry(ctx, p, id, `spec.providers.${api}[${i}]`, providers),
        baseProviderId,
      );
      (userIds[api] ??= []).push(id);
      providerCount++;
    }
  }

  // Resources (FR-040 to FR-044), added to the base ones; an entry with the same id is replaced.
  const resources = spec.resources;
  const holder = resourceHolder(config);
  const firstOf = (api: ProviderApi) =>
    userIds[api]?.[0] ?? activeIds(providers, CONFIG_API_NAMES[api])[0];
  const models = resources?.models ?? [];
  for (const model of models) {
    const entry: Json = {
      model_id: model.name,
      provider_id: model.provider ?? firstOf('inference'),
      provider_model_id: model.name,
      model_type: model.modelType ?? 'llm',
    };
    const metadata: Json = {};
    if (model.contextLength !== undefined)
      metadata.context_length = model.contextLength;
    if (model.quantization !== undefined)
      metadata.quantization = model.quantization;
    if (Object.keys(metadata).length) entry.metadata = metadata;
    const list = listAt(holder, 'models');
    const at = list.findIndex(m => isRecord(m) && m.model_id === model.name);
    if (at >= 0) list[at] = entry;
    else list.push(entry);
  }
  for (const tool of resources?.tools ?? []) {
    const id = tool.includes('::') ? tool : `builtin::${tool}`;
    const list = listAt(holder, 'tool_groups');
    const entry = { toolgroup_id: id, provider_id: firstOf('toolRuntime') };
    const at = list.findIndex(t => isRecord(t) && t.toolgroup_id === id);
    if (at >= 0) list[at] = entry;
    else list.push(entry);
  }
  for (const shield of resources?.shields ?? []) {
    const list = listAt(holder, 'shields');
    const entry = { shield_id: shield, provider_id: firstOf('safety') };
    const at = list.findIndex(s => isRecord(s) && s.shield_id === shield);
    if (at >= 0) list[at] = entry;
    else list.push(entry);
  }

  applyStorage(
    ctx,
    config,
    spec,
    typeof config.distro_name === 'string'
      ? config.distro_name
      : String(config.image_name ?? 'custom'),
  );

  // Disabled APIs (FR-009) are removed, with what would point at their providers.
  for (const api of disabled) {
    const configApi = CONFIG_API_NAMES[api];
    const at = apis.indexOf(configApi);
    if (at >= 0) apis.splice(at, 1);
    const removed = new Set(
      (Array.isArray(providers[configApi]) ? providers[configApi] : []).map(
        baseProviderId,
      ),
    );
    delete providers[configApi];
    const prune = (key: string) => {
      if (Array.isArray(holder[key]))
        holder[key] = holder[key].filter(
          (r: unknown) => !(isRecord(r) && removed.has(r.provider_id)),
        );
    };
    if (api === 'inference') prune('models');
    if (api === 'toolRuntime') prune('tool_groups');
    if (api === 'safety') {
      prune('shields');
      delete config.safety; // default_shield_id names a shield of the removed provider
    }
    if (api === 'vectorIo') delete config.vector_stores; // default_provider_id names a removed provider
  }

  // External providers (FR-090 to FR-092): added after the generated ones; same id replaces, with a warning.
  const inlineIds = new Set(Object.values(userIds).flat());
  for (const api of PROVIDER_APIS) {
    const list = spec.externalProviders?.[api];
    if (!list?.length || disabled.has(api)) continue;
    const configApi = CONFIG_API_NAMES[api];
    const target: Json[] = Array.isArray(providers[configApi])
      ? providers[configApi]
      : (providers[configApi] = []);
    if (!apis.includes(configApi)) apis.push(configApi);
    for (const [i, ext] of list.entries()) {
      const entry = {
        provider_id: ext.providerId,
        provider_type: `remote::${ext.providerId}`,
      };
      if (
        mergeById(target, entry, baseProviderId) === 'replaced' &&
        inlineIds.has(ext.providerId)
      ) {
        ctx.warnings.push({
          path: `spec.externalProviders.${api}[${i}].providerId`,
          message: `spec.externalProviders.${api}[${i}] replaces the inline provider with id "${ext.providerId}"`,
        });
      } else if (!inlineIds.has(ext.providerId)) {
        providerCount++;
      }
    }
  }

  // FR-060, FR-061: the port the Service targets, and the certificate the Deployment mounts.
  const server: Json = isRecord(config.server)
    ? config.server
    : (config.server = {});
  if (spec.networking?.port !== undefined) server.port = spec.networking.port;
  if (spec.networking?.tls?.enabled) {
    server.tls_certfile = `${TLS_MOUNT_PATH}/tls.crt`;
    server.tls_keyfile = `${TLS_MOUNT_PATH}/tls.key`;
  }
  if (ctx.error) return ctx.error;

  const configYaml = stringify(config, {
    lineWidth: 0,
    aliasDuplicateObjects: false,
  });
  const envVars = [...ctx.env.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en'))
    .map(([name, { ref }]) => ({
      name,
      valueFrom: { secretKeyRef: { name: ref.name, key: ref.key } },
    }));
  return {
    ok: true,
    configYaml,
    contentHash: `sha256:${createHash('sha256')
      .update(configYaml)
      .digest('hex')}`,
    envVars,
    providerCount,
    resourceCount:
      models.length +
      (resources?.tools?.length ?? 0) +
      (resources?.shields?.length ?? 0),
    modelCount: models.length,
    configVersion: version.version,
    warnings: ctx.warnings,
  };
}
