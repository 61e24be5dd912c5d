import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { embeddedDistributions } from './config/distributions';
import { admitStack, convertStackObject } from './webhooks';

const registry = embeddedDistributions();
const SAMPLES = join(__dirname, '../../../../shared/upstream/samples');

const lookup = (
  secrets: string[] = [],
  configMaps: Record<string, string[]> = {},
) => ({
  secretExists: async (_ns: string, name: string) => secrets.includes(name),
  configMapKeys: async (_ns: string, name: string) => configMaps[name],
});

const create = (object: unknown) =>
  ({ operation: 'CREATE', object, namespace: 'team-a' } as any);

const v2 = (spec: unknown) => ({
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: { name: 's', namespace: 'team-a' },
  spec,
});

describe('validating webhook', () => {
  it('allows a valid stack whose Secrets exist (existence only)', async () => {
    const stack = v2({
      distribution: { name: 'starter' },
      providers: {
        inference: {
          provider: 'vllm',
          apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
        },
      },
    });
    expect(
      await admitStack(create(stack), registry, lookup(['vllm-creds'])),
    ).toEqual({ allowed: true });
  });

  it('denies a missing Secret and ConfigMap naming the field and the fix', async () => {
    const stack = v2({
      distribution: { name: 'starter' },
      providers: {
        inference: {
          provider: 'vllm',
          apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
        },
      },
      networking: { tls: { caBundle: { configMapName: 'custom-ca' } } },
    });
    expect(await admitStack(create(stack), registry, lookup())).toEqual({
      allowed: false,
      code: 422,
      message:
        'LlamaStackDistribution s is not valid: Secret "vllm-creds" not found in namespace "team-a": create it or change spec.providers.inference.apiKey.secretKeyRef.name; ' +
        'ConfigMap "custom-ca" not found in namespace "team-a": create it or change spec.networking.tls.caBundle.configMapName',
    });
  });

  it('denies a model naming an unknown provider, listing the available ids (with the base config known)', async () => {
    const stack = v2({
      distribution: { name: 'starter' },
      providers: { inference: { id: 'primary', provider: 'vllm' } },
      resources: { models: [{ name: 'm', provider: 'nope' }] },
    });
    const result = await admitStack(create(stack), registry, lookup());
    expect(result.allowed).toBe(false);
    expect((result as any).message).toContain(
      'spec.resources.models[0].provider "nope" is not the id of an inference provider; available inference provider ids: "primary", "fireworks", "together", "bedrock", "openai", "anthropic", "gemini", "groq", "sambanova", "sentence-transformers"',
    );
  });

  it('denies shields when neither the CR nor the base config has a safety provider (seed message)', async () => {
    const result = await admitStack(
      create(
        v2({
          distribution: { name: 'starter' },
          resources: { shields: ['llama-guard'] },
        }),
      ),
      registry,
      lookup(),
    );
    expect((result as any).message).toContain(
      'resources.shields requires at least one safety provider to be configured',
    );
  });

  it('allows an update that leaves the spec alone, and DELETE', async () => {
    const stack = v2({ distribution: { name: 'nope' } });
    expect(
      await admitStack(
        { operation: 'UPDATE', object: stack, oldObject: stack } as any,
        registry,
        lookup(),
      ),
    ).toEqual({ allowed: true });
    expect(
      await admitStack(
        { operation: 'DELETE', object: null } as any,
        registry,
        lookup(),
      ),
    ).toEqual({ allowed: true });
  });

  it('checks v1alpha1 userConfig references', async () => {
    const stack = {
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: { name: 's', namespace: 'team-a' },
      spec: {
        server: {
          distribution: { name: 'starter' },
          userConfig: { configMapName: 'cfg' },
        },
      },
    };
    expect((await admitStack(create(stack), registry, lookup())).allowed).toBe(
      false,
    );
    expect(
      await admitStack(
        create(stack),
        registry,
        lookup([], { cfg: ['config.yaml'] }),
      ),
    ).toEqual({ allowed: true });
  });
});

describe('validating webhook: ConfigMaps in other namespaces', () => {
  const stack = {
    apiVersion: 'llamastack.io/v1alpha1',
    kind: 'LlamaStackDistribution',
    metadata: { name: 's', namespace: 'team-a' },
    spec: {
      server: {
        distribution: { name: 'starter' },
        userConfig: { configMapName: 'cfg', configMapNamespace: 'shared' },
        tlsConfig: { caBundle: { configMapName: 'ca' } },
      },
    },
  };
  const found = lookup([], { cfg: ['config.yaml'], ca: ['ca-bundle.crt'] });
  const asked: string[] = [];
  const access =
    (allowed: boolean) => async (user: any, ns: string, name: string) => {
      asked.push(`${user.username} ${ns}/${name}`);
      return allowed;
    };
  const as = (request: any) => ({
    ...request,
    userInfo: { username: 'alice' },
  });

  it('denies a user who may not read it, naming the field; asks only about the foreign one', async () => {
    asked.length = 0;
    const denied = await admitStack(
      as(create(stack)),
      registry,
      found,
      access(false),
    );
    expect(denied).toMatchObject({ allowed: false, code: 422 });
    expect((denied as any).message).toContain(
      'spec.server.userConfig.configMapName: alice may not get ConfigMap "cfg" in namespace "shared", and the operator would copy its content into namespace "team-a": use a ConfigMap in "team-a" or get read access to that one',
    );
    expect(asked).toEqual(['alice shared/cfg']);
    expect(
      await admitStack(as(create(stack)), registry, found, access(true)),
    ).toEqual({ allowed: true });
  });

  it('an update that keeps the reference does not ask again', async () => {
    asked.length = 0;
    const changed = {
      ...stack,
      spec: { ...stack.spec, replicas: 2 },
    };
    expect(
      await admitStack(
        as({
          operation: 'UPDATE',
          object: changed,
          oldObject: stack,
          namespace: 'team-a',
        }),
        registry,
        found,
        access(false),
      ),
    ).toEqual({ allowed: true });
    expect(asked).toEqual([]);
  });
});

describe('conversion webhook', () => {
  it('round-trips every upstream sample both ways', () => {
    let count = 0;
    for (const file of readdirSync(SAMPLES).filter(f =>
      f.startsWith('llamastack-'),
    )) {
      for (const doc of parseAllDocuments(
        readFileSync(join(SAMPLES, file), 'utf8'),
      )) {
        const obj = doc.toJS();
        if (obj?.kind !== 'LlamaStackDistribution') continue;
        const other =
          obj.apiVersion === 'llamastack.io/v1alpha1'
            ? 'llamastack.io/v1alpha2'
            : 'llamastack.io/v1alpha1';
        const there = convertStackObject(obj, other);
        expect(there.apiVersion).toBe(other);
        const back = convertStackObject(there, obj.apiVersion);
        const { annotations, ...metadata } = (back.metadata ?? {}) as any;
        expect({ file, ...back, metadata }).toEqual({ file, ...obj });
        expect(annotations ?? {}).toEqual(obj.metadata.annotations ?? {});
        count++;
      }
    }
    expect(count).toBe(11);
  });
});
