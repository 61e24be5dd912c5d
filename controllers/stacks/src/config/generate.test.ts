/**
 * Golden-file tests of config generation, one case per FR and edge case of
 * seed 004. Each case's whole output (config.yaml, env vars, counts,
 * warnings, or the failure) is compared with `__golden__/<case>.golden` (not .yaml, so formatters leave the bytes alone);
 * `UPDATE_GOLDEN=1` rewrites the files (review the diff before committing).
 */
import {
  defaultStackV1alpha2,
  normalizeStackV1alpha2,
} from '@runway-portal/plugin-runway-common';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import {
  embeddedDistributions,
  parseImageOverrides,
  resolveDistribution,
} from './distributions';
import {
  generateConfig,
  secretEnvName,
  type ConfigFailure,
  type GeneratedConfig,
  type StackSpec,
} from './generate';

const here = __dirname;
const SMALL = readFileSync(join(here, 'testdata/base-small.yaml'), 'utf8');
const LEGACY = readFileSync(join(here, 'testdata/base-legacy.yaml'), 'utf8');
const STARTER = embeddedDistributions().configs.starter;
const SAMPLES = join(here, '../../../../../shared/upstream/samples');

/** A user's spec (shorthand forms allowed) as the operator sees it: normalized and defaulted. */
function specOf(spec: unknown): StackSpec {
  const obj = normalizeStackV1alpha2({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    spec,
  }).object as any;
  return defaultStackV1alpha2(obj).spec;
}

function render(result: GeneratedConfig | ConfigFailure): string {
  if (!result.ok) return stringify({ failure: result });
  const { configYaml, ...rest } = result;
  return `${stringify(rest)}---\n${configYaml}`;
}

function golden(name: string, result: GeneratedConfig | ConfigFailure) {
  const file = join(here, '__golden__', `${name}.golden`);
  const text = render(result);
  if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

function ok(result: GeneratedConfig | ConfigFailure): GeneratedConfig {
  if (!result.ok)
    throw new Error(
      `expected success, got ${result.reason}: ${result.message}`,
    );
  return result;
}

function gen(spec: unknown, base: string | undefined = STARTER) {
  return generateConfig({ spec: specOf(spec), baseConfig: base });
}

const vllm = { provider: 'vllm', endpoint: 'http://vllm:8000' };

describe('distributions (FR-020, FR-027a)', () => {
  it('embeds a config for every distribution name, each with a supported version', () => {
    const reg = embeddedDistributions();
    expect(Object.keys(reg.images).sort()).toEqual(
      Object.keys(reg.configs).sort(),
    );
    for (const [name, text] of Object.entries(reg.configs)) {
      expect(parse(text).distro_name).toBe(name);
      expect(ok(gen({ distribution: { name } }, text)).configVersion).toBe(2);
    }
  });

  it('resolves names, image-overrides and direct images', () => {
    const reg = embeddedDistributions();
    expect(resolveDistribution({ name: 'starter' }, reg)).toMatchObject({
      ok: true,
      image: 'docker.io/llamastack/distribution-starter:latest',
      baseConfig: STARTER,
    });
    const mirror = parseImageOverrides(
      'starter: mirror.local/starter@sha256:abc\n# comment\n',
    );
    expect(mirror).toEqual({
      overrides: { starter: 'mirror.local/starter@sha256:abc' },
    });
    expect(
      resolveDistribution({ name: 'starter' }, reg, (mirror as any).overrides),
    ).toMatchObject({
      image: 'mirror.local/starter@sha256:abc',
      baseConfig: STARTER, // FR-027e: the embedded config whatever the registry
    });
    expect(resolveDistribution({ image: 'my/image:1' }, reg)).toEqual({
      ok: true,
      image: 'my/image:1',
    });
    expect(resolveDistribution({ name: 'nope' }, reg)).toEqual({
      ok: false,
      reason: 'UnknownDistribution',
      message:
        'spec.distribution.name "nope" is not a known distribution; use one of: postgres-demo, starter, starter-gpu, or set spec.distribution.image',
    });
    expect(parseImageOverrides('starter image')).toEqual({
      error:
        'image-overrides line 1 ("starter image") is not "<distribution name>: <image>": fix or remove it',
    });
  });
});

describe('generateConfig', () => {
  it('US1-1, FR-030, FR-031, FR-035: a single vLLM provider', () => {
    const result = ok(
      gen(
        { distribution: { name: 'starter' }, providers: { inference: vllm } },
        SMALL,
      ),
    );
    const config = parse(result.configYaml);
    expect(config.providers.inference[0]).toEqual({
      provider_id: 'vllm',
      provider_type: 'remote::vllm',
      config: { base_url: 'http://vllm:8000' }, // the URL key the distribution's vllm uses
    });
    golden('us1-1-single-provider', result);
  });

  it('FR-031: endpoint is config.url when the distribution has no provider of that type', () => {
    const config = parse(
      ok(
        gen(
          {
            distribution: { name: 'x' },
            providers: {
              inference: { provider: 'tgi', endpoint: 'http://tgi' },
            },
          },
          SMALL,
        ),
      ).configYaml,
    );
    expect(config.providers.inference[2]).toEqual({
      provider_id: 'tgi',
      provider_type: 'remote::tgi',
      config: { url: 'http://tgi' },
    });
  });

  it('US1-2, FR-032: apiKey becomes ${env.LLSD_<ID>_API_KEY} from the Secret', () => {
    const result = ok(
      gen(
        {
          distribution: { name: 'starter' },
          providers: {
            inference: [
              {
                id: 'vllm-primary',
                ...vllm,
                apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
              },
            ],
          },
        },
        SMALL,
      ),
    );
    expect(result.envVars).toEqual([
      {
        name: 'LLSD_VLLM_PRIMARY_API_KEY',
        valueFrom: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
      },
    ]);
    expect(result.configYaml).toContain(
      'api_key: ${env.LLSD_VLLM_PRIMARY_API_KEY}',
    );
    expect(result.configYaml).not.toContain('vllm-creds'); // NFR-003: the config names env vars, never Secrets
    golden('us1-2-api-key', result);
  });

  it('US1-3, FR-053: only distribution.name uses the distribution default unchanged', () => {
    const result = ok(gen({ distribution: { name: 'starter' } }));
    expect(parse(result.configYaml)).toEqual(parse(STARTER));
    expect(result).toMatchObject({
      providerCount: 0,
      resourceCount: 0,
      envVars: [],
      warnings: [],
    });
  });

  it('US2-1, FR-034: two inference providers with ids, merged by id over the base', () => {
    const result = ok(
      gen({
        distribution: { name: 'starter' },
        providers: {
          inference: [
            { id: 'vllm', ...vllm },
            {
              id: 'backup',
              provider: 'ollama',
              endpoint: 'http://ollama:11434/v1',
            },
          ],
        },
      }),
    );
    const inference = parse(result.configYaml).providers.inference;
    // The base's conditional ${env.VLLM_URL:+vllm} is replaced in place, not duplicated.
    expect(
      inference.filter((p: any) => p.provider_type === 'remote::vllm'),
    ).toEqual([
      {
        provider_id: 'vllm',
        provider_type: 'remote::vllm',
        config: { base_url: 'http://vllm:8000' },
      },
    ]);
    expect(inference.at(-1)).toEqual({
      provider_id: 'backup',
      provider_type: 'remote::ollama',
      config: { base_url: 'http://ollama:11434/v1' },
    });
    expect(result.providerCount).toBe(2);
    golden('us2-1-two-providers-starter', result);
  });

  it('US2-2, US2-3: several providers without ids, or duplicate ids, fail with the fields', () => {
    const noIds = gen({
      distribution: { name: 'starter' },
      providers: { inference: [vllm, { provider: 'ollama' }] },
    });
    // FR-071 is a CEL rule (the API server rejects first); the generator still refuses the duplicate id it would make.
    expect(noIds.ok).toBe(true);
    const dup = gen({
      distribution: { name: 'starter' },
      providers: {
        inference: [{ id: 'a', ...vllm }],
        safety: [{ id: 'a', provider: 'llama-guard' }],
      },
    });
    expect(dup).toEqual({
      ok: false,
      reason: 'ConfigGenerationFailed',
      message:
        'spec.providers.safety[0].id: provider id "a" is already used by spec.providers.inference[0]; give each provider a distinct id',
      paths: ['spec.providers.safety[0].id'],
    });
  });

  it('FR-005, FR-033, edge cases: settings pass through; only top-level secretKeyRef is a secret', () => {
    const result = ok(
      gen(
        {
          distribution: { name: 'starter' },
          providers: {
            inference: {
              ...vllm,
              settings: { max_tokens: 8192, tls: { verify: false, ca: '/x' } },
            },
            vectorIo: {
              provider: 'pgvector',
              settings: {
                host: { secretKeyRef: { name: 'pg-creds', key: 'host' } },
                database: {
                  connection: { secretKeyRef: { name: 'db', key: 'url' } },
                },
                port: 5432,
              },
            },
          },
        },
        SMALL,
      ),
    );
    const config = parse(result.configYaml);
    expect(config.providers.inference[0].config).toEqual({
      max_tokens: 8192,
      tls: { ca: '/x', verify: false },
      base_url: 'http://vllm:8000',
    });
    expect(config.providers.vector_io[0].config).toEqual({
      database: { connection: { secretKeyRef: { name: 'db', key: 'url' } } }, // literal map, not resolved
      host: '${env.LLSD_PGVECTOR_HOST}',
      port: 5432,
    });
    expect(config.apis).toContain('vector_io');
    expect(result.envVars.map(e => e.name)).toEqual(['LLSD_PGVECTOR_HOST']);
    golden('fr-005-settings', result);
  });

  it('upstream secretRefs: each key becomes config.<key> from an env var', () => {
    const result = ok(
      gen(
        {
          distribution: { name: 'starter' },
          providers: {
            inference: {
              ...vllm,
              secretRefs: { api_token: { name: 's', key: 'k' } },
            },
          },
        },
        SMALL,
      ),
    );
    expect(
      parse(result.configYaml).providers.inference[0].config.api_token,
    ).toBe('${env.LLSD_VLLM_API_TOKEN}');
  });

  it('FR-030: an explicit inline:: or remote:: type is kept', () => {
    const config = parse(
      ok(
        gen(
          {
            distribution: { name: 'x' },
            providers: { safety: { provider: 'inline::llama-guard' } },
          },
          SMALL,
        ),
      ).configYaml,
    );
    expect(config.providers.safety).toEqual([
      {
        provider_id: 'inline::llama-guard',
        provider_type: 'inline::llama-guard',
      },
    ]);
  });

  it('US3, FR-040 to FR-044: models, tools and shields', () => {
    const result = ok(
      gen({
        distribution: { name: 'starter' },
        providers: {
          inference: [
            { id: 'vllm-primary', ...vllm },
            { id: 'vllm-large', provider: 'vllm', endpoint: 'http://big:8000' },
          ],
          safety: { provider: 'llama-guard' },
        },
        resources: {
          models: [
            'llama3.2-8b',
            {
              name: 'llama3.2-70b',
              provider: 'vllm-large',
              contextLength: 128000,
              modelType: 'llm',
              quantization: 'fp8',
            },
          ],
          tools: ['websearch', 'rag'],
          shields: ['llama-guard'],
        },
      }),
    );
    const rr = parse(result.configYaml).registered_resources;
    expect(rr.models).toEqual([
      {
        model_id: 'llama3.2-8b',
        provider_id: 'vllm-primary',
        provider_model_id: 'llama3.2-8b',
        model_type: 'llm',
      },
      {
        model_id: 'llama3.2-70b',
        provider_id: 'vllm-large',
        provider_model_id: 'llama3.2-70b',
        model_type: 'llm',
        metadata: { context_length: 128000, quantization: 'fp8' },
      },
    ]);
    // The base config's toolRuntime provider (the CR configures none), first in its list.
    expect(rr.tool_groups).toEqual([
      { toolgroup_id: 'builtin::websearch', provider_id: 'brave-search' },
      { toolgroup_id: 'builtin::rag', provider_id: 'brave-search' },
    ]);
    expect(rr.shields).toEqual([
      { shield_id: 'llama-guard', provider_id: 'llama-guard' },
    ]);
    expect(result).toMatchObject({
      providerCount: 3,
      resourceCount: 5,
      modelCount: 2,
    });
    golden('us3-resources-starter', result);
  });

  it('edge case: tools need a toolRuntime provider (seed message)', () => {
    expect(
      gen(
        {
          distribution: { name: 'x' },
          providers: { inference: vllm },
          resources: { tools: ['websearch'] },
        },
        SMALL,
      ),
    ).toEqual({
      ok: false,
      reason: 'MissingProviderForResource',
      message:
        'resources.tools requires at least one toolRuntime provider to be configured',
      paths: ['spec.resources.tools'],
    });
    const withOwn = ok(
      gen(
        {
          distribution: { name: 'x' },
          providers: { toolRuntime: { provider: 'tavily-search' } },
          resources: { tools: ['websearch'] },
        },
        SMALL,
      ),
    );
    expect(parse(withOwn.configYaml).registered_resources.tool_groups).toEqual([
      { toolgroup_id: 'builtin::websearch', provider_id: 'tavily-search' },
    ]);
  });

  it('edge case: shields need a safety provider (seed message)', () => {
    expect(
      gen({
        distribution: { name: 'starter' },
        resources: { shields: ['llama-guard'] },
      }),
    ).toEqual({
      ok: false,
      reason: 'MissingProviderForResource',
      message:
        'resources.shields requires at least one safety provider to be configured',
      paths: ['spec.resources.shields'],
    });
  });

  it('edge case: a model naming an unknown provider lists the available ids', () => {
    expect(
      gen(
        {
          distribution: { name: 'x' },
          providers: { inference: { id: 'primary', ...vllm } },
          resources: { models: [{ name: 'm', provider: 'nope' }] },
        },
        SMALL,
      ),
    ).toEqual({
      ok: false,
      reason: 'ConfigGenerationFailed',
      message:
        'spec.resources.models[0].provider "nope" is not the id of an inference provider; available inference provider ids: "primary", "sentence-transformers"',
      paths: ['spec.resources.models[0].provider'],
    });
  });

  it('US4, FR-050 to FR-052: redis kv and postgres sql, secrets by env var', () => {
    const result = ok(
      gen(
        {
          distribution: { name: 'x' },
          storage: {
            kv: {
              type: 'redis',
              endpoint: 'redis://redis.cache:6380',
              password: { secretKeyRef: { name: 'redis', key: 'pw' } },
            },
            sql: {
              type: 'postgres',
              connectionString: {
                secretKeyRef: { name: 'pg-creds', key: 'url' },
              },
            },
          },
        },
        SMALL,
      ),
    );
    expect(parse(result.configYaml).storage.backends).toEqual({
      kv_default: {
        type: 'kv_redis',
        host: 'redis.cache',
        port: 6380,
        password: '${env.LLSD_STORAGE_KV_PASSWORD}',
      },
      sql_default: {
        type: 'sql_postgres',
        connection_string: '${env.LLSD_STORAGE_SQL_CONNECTION_STRING}',
      },
    });
    expect(result.envVars.map(e => e.name)).toEqual([
      'LLSD_STORAGE_KV_PASSWORD',
      'LLSD_STORAGE_SQL_CONNECTION_STRING',
    ]);
    golden('us4-storage', result);
  });

  it('FR-050b, FR-051a, FR-053: a store without type is sqlite; without storage the defaults stay', () => {
    const postgresDemo = embeddedDistributions().configs['postgres-demo'];
    const kvOnly = parse(
      ok(
        gen(
          { distribution: { name: 'postgres-demo' }, storage: { kv: {} } },
          postgresDemo,
        ),
      ).configYaml,
    );
    expect(kvOnly.storage.backends.kv_default).toEqual({
      type: 'kv_sqlite',
      db_path:
        '${env.SQLITE_STORE_DIR:=~/.llama/distributions/postgres-demo}/kvstore.db',
    });
    expect(kvOnly.storage.backends.sql_default.type).toBe('sql_postgres'); // untouched
    const none = parse(
      ok(gen({ distribution: { name: 'postgres-demo' } }, postgresDemo))
        .configYaml,
    );
    expect(none.storage).toEqual(parse(postgresDemo).storage);
  });

  it('edge case, OQ-002: disabled wins over providers, with a warning', () => {
    const result = ok(
      gen({
        distribution: { name: 'starter' },
        providers: { inference: vllm },
        disabled: ['inference', 'postTraining', 'vectorIo'],
      }),
    );
    const config = parse(result.configYaml);
    expect(config.apis).not.toContain('inference');
    expect(config.apis).not.toContain('post_training');
    expect(config.providers.inference).toBeUndefined();
    expect(config.vector_stores).toBeUndefined();
    expect(result.warnings).toEqual([
      {
        path: 'spec.providers.inference',
        message:
          'spec.providers.inference is ignored because spec.disabled disables inference; remove one of them',
      },
    ]);
    expect(result.providerCount).toBe(0);
    golden('oq-002-disabled', result);
  });

  it('FR-090 to FR-092: external providers are additive; an id conflict overrides with a warning', () => {
    const result = ok(
      gen(
        {
          distribution: { name: 'x' },
          providers: { inference: { id: 'custom', ...vllm } },
          externalProviders: {
            inference: [
              { providerId: 'custom', image: 'registry.example.com/custom:v1' },
              { providerId: 'extra', image: 'registry.example.com/extra:v1' },
            ],
          },
        },
        SMALL,
      ),
    );
    const inference = parse(result.configYaml).providers.inference;
    expect(inference.map((p: any) => p.provider_id)).toEqual([
      '${env.VLLM_URL:+vllm}',
      'sentence-transformers',
      'custom',
      'extra',
    ]);
    expect(inference[2]).toEqual({
      provider_id: 'custom',
      provider_type: 'remote::custom',
    });
    expect(result.warnings).toEqual([
      {
        path: 'spec.externalProviders.inference[0].providerId',
        message:
          'spec.externalProviders.inference[0] replaces the inline provider with id "custom"',
      },
    ]);
    expect(result.providerCount).toBe(2);
    golden('fr-092-external', result);
  });

  it('FR-027 to FR-029: versions n and n-1; anything else is the seed error', () => {
    expect(ok(gen({ distribution: { name: 'x' } }, SMALL)).configVersion).toBe(
      2,
    );
    for (const [version, shown] of [
      ['3', '3'],
      ['0', '0'],
      ["'two'", 'two'],
    ]) {
      expect(
        gen(
          { distribution: { name: 'x' } },
          SMALL.replace('version: 2', `version: ${version}`),
        ),
      ).toEqual({
        ok: false,
        reason: 'UnsupportedConfigVersion',
        message: `Unsupported config.yaml version ${shown}. Supported versions: 2, 1`,
        paths: [],
      });
    }
    expect(
      (
        gen(
          { distribution: { name: 'x' } },
          SMALL.replace('version: 2\n', ''),
        ) as ConfigFailure
      ).message,
    ).toBe('Unsupported config.yaml version (none). Supported versions: 2, 1');
  });

  it('FR-028: the previous layout (version 1) gets resources and storage in its places', () => {
    const result = ok(
      gen(
        {
          distribution: { name: 'legacy' },
          providers: {
            inference: { provider: 'ollama', endpoint: 'http://o:11434' },
          },
          resources: {
            models: ['llama3.2:1b'],
            tools: ['websearch'],
            shields: ['llama-guard'],
          },
          storage: { kv: { type: 'redis', endpoint: 'redis:6379' } },
        },
        LEGACY,
      ),
    );
    const config = parse(result.configYaml);
    expect(result.configVersion).toBe(1);
    expect(config.registered_resources).toBeUndefined();
    expect(config.models).toEqual([
      {
        model_id: 'llama3.2:1b',
        provider_id: 'ollama',
        provider_model_id: 'llama3.2:1b',
        model_type: 'llm',
      },
    ]);
    expect(config.metadata_store).toEqual({
      type: 'redis',
      host: 'redis',
      port: 6379,
    });
    expect(config.providers.inference[0].config).toEqual({
      url: 'http://o:11434',
    });
    golden('fr-028-previous-layout', result);
  });

  it('FR-027c: no base config means BaseConfigRequired with the seed message', () => {
    expect(
      generateConfig({
        spec: specOf({ distribution: { image: 'my/image:1' } }),
        baseConfig: undefined,
      }),
    ).toEqual({
      ok: false,
      reason: 'BaseConfigRequired',
      message:
        'Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.',
      paths: ['spec.distribution.image'],
    });
  });

  it('NFR-001: deterministic; map key order and shorthand forms do not change the bytes', () => {
    const a = ok(
      gen({
        distribution: { name: 'starter' },
        providers: {
          inference: { ...vllm, settings: { a: 1, b: { y: 2, x: 1 } } },
        },
      }),
    );
    const b = ok(
      gen({
        distribution: { name: 'starter' },
        providers: {
          inference: [
            {
              settings: { b: { x: 1, y: 2 }, a: 1 },
              endpoint: vllm.endpoint,
              provider: 'vllm',
            },
          ],
        },
      }),
    );
    expect(b.configYaml).toBe(a.configYaml);
    expect(b.contentHash).toBe(a.contentHash);
    expect(a.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('env var names that collide fail naming both fields', () => {
    const result = gen(
      {
        distribution: { name: 'x' },
        providers: {
          inference: [
            {
              id: 'a-b',
              ...vllm,
              apiKey: { secretKeyRef: { name: 's1', key: 'k' } },
            },
            {
              id: 'a_b',
              ...vllm,
              apiKey: { secretKeyRef: { name: 's2', key: 'k' } },
            },
          ],
        },
      },
      SMALL,
    );
    expect(result).toEqual({
      ok: false,
      reason: 'ConfigGenerationFailed',
      message:
        'spec.providers.inference[1].apiKey and spec.providers.inference[0].apiKey both need the env var LLSD_A_B_API_KEY: give the providers ids that differ in more than "-" and "_"',
      paths: [
        'spec.providers.inference[1].apiKey',
        'spec.providers.inference[0].apiKey',
      ],
    });
  });

  it('FR-032, OQ-003: env var names', () => {
    expect(secretEnvName('vllm-primary', 'apiKey')).toBe(
      'LLSD_VLLM_PRIMARY_API_KEY',
    );
    expect(secretEnvName('pgvector', 'host')).toBe('LLSD_PGVECTOR_HOST');
    expect(secretEnvName('pgvector', 'api_key')).toBe('LLSD_PGVECTOR_API_KEY');
  });

  it("the seed's complete v1alpha2 spec", () => {
    const result = ok(
      gen({
        distribution: { name: 'starter' },
        providers: {
          inference: [
            {
              id: 'vllm-primary',
              provider: 'vllm',
              endpoint: 'http://vllm:8000',
              apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
              settings: { max_tokens: 8192 },
            },
          ],
          safety: { provider: 'llama-guard' },
          vectorIo: {
            provider: 'pgvector',
            settings: {
              host: { secretKeyRef: { name: 'pg-creds', key: 'host' } },
            },
          },
        },
        resources: {
          models: [
            'llama3.2-8b',
            {
              name: 'llama3.2-70b',
              provider: 'vllm-primary',
              contextLength: 128000,
            },
          ],
          tools: ['websearch', 'rag'],
          shields: ['llama-guard'],
        },
        storage: {
          kv: { type: 'sqlite' },
          sql: {
            type: 'postgres',
            connectionString: {
              secretKeyRef: { name: 'pg-creds', key: 'url' },
            },
          },
        },
        disabled: ['postTraining', 'eval'],
        networking: {
          port: 8321,
          tls: { enabled: true, secretName: 'llama-tls' },
          expose: true,
        },
        externalProviders: {
          inference: [
            {
              providerId: 'custom-inference',
              image: 'registry.example.com/custom:v1',
            },
          ],
        },
      }),
    );
    expect(result).toMatchObject({
      providerCount: 4,
      resourceCount: 5,
      modelCount: 2,
    });
    expect(parse(result.configYaml).server).toEqual({
      port: 8321,
      tls_certfile: '/etc/llama-stack/tls/tls.crt',
      tls_keyfile: '/etc/llama-stack/tls/tls.key',
    });
    golden('seed-complete-spec', result);
  });

  it('every upstream v1alpha2 sample generates', () => {
    const files = readdirSync(SAMPLES).filter(f =>
      f.startsWith('llamastack-v1alpha2'),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const doc of parseAllDocuments(
        readFileSync(join(SAMPLES, file), 'utf8'),
      )) {
        const obj = doc.toJS();
        if (obj?.kind !== 'LlamaStackDistribution') continue;
        const result = gen(obj.spec);
        expect({
          file,
          ok: result.ok,
          why: result.ok ? undefined : result.message,
        }).toEqual({ file, ok: true, why: undefined });
        golden(`sample-${obj.metadata.name}`, result);
      }
    }
  });
});
