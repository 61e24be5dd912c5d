import { stackV1, stackV2 } from './__fixtures__/celCases';
import {
  checkStackReferences,
  foreignConfigMapReferences,
  type StackReferenceLookup,
} from './references';
import { convertStackToV1alpha2, overrideConfigNamespace } from './conversion';

/** An in-memory namespace: the objects a lookup finds, and a log of what it was asked. */
function namespaceWith(
  secrets: string[],
  configMaps: Record<string, string[]>,
) {
  const asked: string[] = [];
  const lookup: StackReferenceLookup = {
    async secretExists(ns, name) {
      asked.push(`Secret ${ns}/${name}`);
      return secrets.includes(`${ns}/${name}`);
    },
    async configMapKeys(ns, name) {
      asked.push(`ConfigMap ${ns}/${name}`);
      return configMaps[`${ns}/${name}`];
    },
  };
  return { lookup, asked };
}

const withNs = (obj: Record<string, any>, namespace = 'team') => ({
  ...obj,
  metadata: { ...obj.metadata, namespace },
});

describe('checkStackReferences (FR-073, FR-074)', () => {
  const full = withNs(
    stackV2('refs', {
      providers: {
        inference: [
          {
            id: 'vllm-primary',
            provider: 'vllm',
            apiKey: { secretKeyRef: { name: 'vllm-creds', key: 'token' } },
          },
        ],
        vectorIo: [
          {
            provider: 'pgvector',
            secretRefs: { host: { name: 'pg', key: 'host' } },
            settings: { password: { secretKeyRef: { name: 'pg', key: 'pw' } } },
          },
        ],
      },
      storage: {
        kv: {
          type: 'redis',
          endpoint: 'redis://r',
          password: { secretKeyRef: { name: 'redis', key: 'pw' } },
        },
      },
      networking: {
        tls: {
          enabled: true,
          secretName: 'llama-tls',
          caBundle: { configMapName: 'ca', configMapKeys: ['a.crt', 'b.crt'] },
        },
      },
    }),
  );

  it('passes when every Secret and ConfigMap exists, asking once per object', async () => {
    const { lookup, asked } = namespaceWith(
      ['team/vllm-creds', 'team/pg', 'team/redis', 'team/llama-tls'],
      { 'team/ca': ['a.crt', 'b.crt'] },
    );
    expect(await checkStackReferences(full as any, lookup)).toEqual([]);
    expect(asked.sort()).toEqual([
      'ConfigMap team/ca',
      'Secret team/llama-tls',
      'Secret team/pg',
      'Secret team/redis',
      'Secret team/vllm-creds',
    ]);
  });

  it('names each missing Secret at the field that refers to it', async () => {
    const { lookup } = namespaceWith(['team/pg'], {
      'team/ca': ['a.crt', 'b.crt'],
    });
    expect(await checkStackReferences(full as any, lookup)).toEqual([
      {
        path: 'spec.providers.inference[0].apiKey.secretKeyRef.name',
        message:
          'Secret "vllm-creds" not found in namespace "team": create it or change spec.providers.inference[0].apiKey.secretKeyRef.name',
        severity: 'error',
      },
      {
        path: 'spec.storage.kv.password.secretKeyRef.name',
        message:
          'Secret "redis" not found in namespace "team": create it or change spec.storage.kv.password.secretKeyRef.name',
        severity: 'error',
      },
      {
        path: 'spec.networking.tls.secretName',
        message:
          'Secret "llama-tls" not found in namespace "team": create it or change spec.networking.tls.secretName',
        severity: 'error',
      },
    ]);
  });

  it('names missing CA bundle keys', async () => {
    const { lookup } = namespaceWith(
      ['team/vllm-creds', 'team/pg', 'team/redis', 'team/llama-tls'],
      { 'team/ca': ['a.crt'] },
    );
    expect(await checkStackReferences(full as any, lookup)).toEqual([
      {
        path: 'spec.networking.tls.caBundle.configMapKeys',
        message:
          'ConfigMap "ca" in namespace "team" has no key "b.crt": add the certificates under that key or list the right keys in spec.networking.tls.caBundle.configMapKeys',
        severity: 'error',
      },
    ]);
  });

  it.each([
    [
      'a missing override ConfigMap (user story 6.3)',
      {},
      'ConfigMap "my-config" not found in namespace "team": create it or change spec.overrideConfig.configMapName',
    ],
    [
      'an override ConfigMap without config.yaml',
      { 'team/my-config': ['other.yaml'] },
      'ConfigMap "my-config" in namespace "team" has no config.yaml or run.yaml key: store the server configuration under config.yaml',
    ],
  ])('reports %s', async (_label, configMaps, message) => {
    const stack = withNs(
      stackV2('o', { overrideConfig: { configMapName: 'my-config' } }),
    );
    const { lookup } = namespaceWith([], configMaps);
    expect(await checkStackReferences(stack as any, lookup)).toEqual([
      { path: 'spec.overrideConfig.configMapName', message, severity: 'error' },
    ]);
  });

  it('checks the default CA key and a CA bundle in another namespace', async () => {
    const stack = withNs(
      stackV2('c', {
        networking: {
          tls: {
            caBundle: { configMapName: 'ca', configMapNamespace: 'certs' },
          },
        },
      }),
    );
    const { lookup, asked } = namespaceWith([], { 'certs/ca': ['other.crt'] });
    expect(await checkStackReferences(stack as any, lookup)).toEqual([
      {
        path: 'spec.networking.tls.caBundle.configMapName',
        message:
          'ConfigMap "ca" in namespace "certs" has no key "ca-bundle.crt": add the certificates under that key or list the right keys in spec.networking.tls.caBundle.configMapName',
        severity: 'error',
      },
    ]);
    expect(asked).toEqual(['ConfigMap certs/ca']);
  });

  it('checks v1alpha1 userConfig and CA bundle, in their namespaces', async () => {
    const stack = withNs(
      stackV1('v1', {
        userConfig: { configMapName: 'cfg', configMapNamespace: 'shared' },
        tlsConfig: { caBundle: { configMapName: 'ca' } },
      }),
    );
    const { lookup, asked } = namespaceWith([], {
      'shared/cfg': ['config.yaml'],
    });
    expect(await checkStackReferences(stack as any, lookup)).toEqual([
      {
        path: 'spec.server.tlsConfig.caBundle.configMapName',
        message:
          'ConfigMap "ca" not found in namespace "team": create it or change spec.server.tlsConfig.caBundle.configMapName',
        severity: 'error',
      },
    ]);
    expect(asked.sort()).toEqual(['ConfigMap shared/cfg', 'ConfigMap team/ca']);
  });

  it('a v1alpha1 stack read as v1alpha2 looks for its userConfig in the namespace conversion kept', async () => {
    const converted = convertStackToV1alpha2(
      withNs(
        stackV1('v1', {
          userConfig: { configMapName: 'cfg', configMapNamespace: 'shared' },
        }),
      ) as any,
    );
    expect(overrideConfigNamespace(converted)).toBe('shared');
    const { lookup, asked } = namespaceWith([], {
      'shared/cfg': ['config.yaml'],
    });
    expect(await checkStackReferences(converted, lookup)).toEqual([]);
    expect(asked).toEqual(['ConfigMap shared/cfg']);
    // Without the annotation (or with a broken one): the stack's namespace.
    const plain = withNs(
      stackV2('n', { overrideConfig: { configMapName: 'c' } }),
    );
    expect(overrideConfigNamespace(plain as any)).toBe('team');
    const broken = {
      ...plain,
      metadata: {
        ...plain.metadata,
        annotations: { 'llamastack.io/v1alpha1-fields': '{not json' },
      },
    };
    expect(overrideConfigNamespace(broken as any)).toBe('team');
  });

  it('foreignConfigMapReferences: only what lies outside the stack namespace, with its field', () => {
    const v2 = withNs(
      stackV2('f', {
        overrideConfig: { configMapName: 'local' },
        networking: {
          tls: {
            caBundle: { configMapName: 'ca', configMapNamespace: 'certs' },
          },
        },
      }),
    );
    expect(foreignConfigMapReferences(v2 as any)).toEqual([
      {
        path: 'spec.networking.tls.caBundle.configMapName',
        namespace: 'certs',
        name: 'ca',
      },
    ]);
    const v1 = withNs(
      stackV1('f', {
        userConfig: { configMapName: 'cfg', configMapNamespace: 'team' },
      }),
    );
    expect(foreignConfigMapReferences(v1 as any)).toEqual([]);
  });

  it('uses the namespace it is given, else the object namespace, else "default"', async () => {
    const stack = stackV2('n', { overrideConfig: { configMapName: 'c' } });
    const { lookup, asked } = namespaceWith([], {
      'default/c': ['config.yaml'],
      'x/c': ['config.yaml'],
    });
    await checkStackReferences(stack as any, lookup);
    await checkStackReferences(stack as any, lookup, 'x');
    expect(asked).toEqual(['ConfigMap default/c', 'ConfigMap x/c']);
  });

  it('rejects when a lookup fails, so the caller decides', async () => {
    const lookup: StackReferenceLookup = {
      secretExists: async () => {
        throw new Error('connection refused');
      },
      configMapKeys: async () => [],
    };
    const stack = stackV2('f', {
      networking: { tls: { enabled: true, secretName: 's' } },
    });
    await expect(checkStackReferences(stack as any, lookup)).rejects.toThrow(
      'connection refused',
    );
  });
});
