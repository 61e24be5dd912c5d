import { renderCrd } from '../crd/renderCrd';
import { modelCrd } from './crd';
import { defaultModel } from './defaults';
import {
  defaultModelMountPath,
  MODEL_ANNOTATIONS,
  MODEL_INJECTED_LABEL,
  modelDownloadJobName,
  modelEnvPrefix,
  modelPvcName,
  modelSourceType,
  modelVolumeName,
} from './naming';
import type { Model } from '../generated/model';
import { MODEL_API_VERSION } from './schema';
import { validateModel } from './validate';

/** Seed 003's example Model, in this project's group. */
const example: Model = {
  apiVersion: MODEL_API_VERSION,
  kind: 'Model',
  metadata: { name: 'llama-3-8b', namespace: 'default' },
  spec: {
    source: {
      huggingFace: {
        repoId: 'meta-llama/Llama-3.1-8B-Instruct',
        revision: 'main',
      },
    },
    version: '3.1',
    storage: { storageClass: 'longhorn', size: '20Gi' },
    credentialsSecret: 'hf-credentials',
  },
};

/** The example with spec fields replaced; a field set to undefined is removed. */
function withSpec(patch: Record<string, unknown>): unknown {
  const spec: Record<string, unknown> = { ...example.spec, ...patch };
  for (const key of Object.keys(spec))
    if (spec[key] === undefined) delete spec[key];
  return { ...example, spec };
}

function errors(input: unknown) {
  return validateModel(input).issues.filter(i => i.severity === 'error');
}

describe('validateModel', () => {
  it.each([
    ['the seed example (HuggingFace)', example],
    [
      'an S3 source',
      withSpec({
        source: {
          s3: {
            bucket: 'models',
            key: 'llama/',
            endpoint: 'https://minio.local:9000',
            region: 'eu-west-1',
          },
        },
      }),
    ],
    [
      'a URL source',
      withSpec({ source: { url: { url: 'https://example.com/model.gguf' } } }),
    ],
    [
      'an http URL',
      withSpec({ source: { url: { url: 'http://mirror.local/model.gguf' } } }),
    ],
    [
      'a repoId with dots, dashes and underscores',
      withSpec({
        source: { huggingFace: { repoId: 'Qwen/Qwen2.5-0.5B_v1.0' } },
      }),
    ],
    [
      'a size without "i"',
      withSpec({ storage: { storageClass: 'gp3', size: '100G' } }),
    ],
    [
      'all access modes',
      withSpec({
        storage: {
          storageClass: 'gp3',
          size: '1Ti',
          accessModes: ['ReadWriteMany', 'ReadOnlyMany', 'ReadWriteOncePod'],
        },
      }),
    ],
    [
      'a node selector',
      withSpec({ nodeSelector: { 'kubernetes.io/arch': 'amd64' } }),
    ],
    [
      'a name of exactly 48 characters',
      { ...example, metadata: { name: 'a'.repeat(48) } },
    ],
    [
      'no name yet (generateName)',
      { ...example, metadata: { generateName: 'llama-' } },
    ],
  ])('accepts %s', (_label, input) => {
    expect(errors(input)).toEqual([]);
  });

  it.each([
    // Seed 003 "CRD Validation": none set, multiple set, size format, repoId format.
    [
      'no source',
      withSpec({ source: {} }),
      'spec.source',
      'spec.source must set exactly one of huggingFace, s3 or url: remove the others, or add one if none is set',
    ],
    [
      'two sources',
      withSpec({
        source: { huggingFace: { repoId: 'a/b' }, url: { url: 'https://x/y' } },
      }),
      'spec.source',
      'spec.source must set exactly one of huggingFace, s3 or url',
    ],
    [
      'three sources',
      withSpec({
        source: {
          huggingFace: { repoId: 'a/b' },
          s3: { bucket: 'b', key: 'k' },
          url: { url: 'https://x/y' },
        },
      }),
      'spec.source',
      'spec.source must set exactly one of huggingFace, s3 or url',
    ],
    [
      'a size with a bad unit',
      withSpec({ storage: { storageClass: 'gp3', size: '20GB' } }),
      'spec.storage.size',
      'spec.storage.size must be a whole number followed by a unit K, M, G, T, P or E (optionally with "i"), e.g. "20Gi"',
    ],
    [
      'a size without unit',
      withSpec({ storage: { storageClass: 'gp3', size: '20' } }),
      'spec.storage.size',
      'spec.storage.size must be a whole number',
    ],
    [
      'a fractional size',
      withSpec({ storage: { storageClass: 'gp3', size: '1.5Gi' } }),
      'spec.storage.size',
      'spec.storage.size must be a whole number',
    ],
    [
      'a repoId without owner',
      withSpec({ source: { huggingFace: { repoId: 'llama' } } }),
      'spec.source.huggingFace.repoId',
      'spec.source.huggingFace.repoId must be a HuggingFace repository ID of the form "owner/name"',
    ],
    [
      'a repoId with a space',
      withSpec({ source: { huggingFace: { repoId: 'meta llama/x' } } }),
      'spec.source.huggingFace.repoId',
      'must be a HuggingFace repository ID',
    ],
    [
      'a repoId with two slashes',
      withSpec({ source: { huggingFace: { repoId: 'a/b/c' } } }),
      'spec.source.huggingFace.repoId',
      'must be a HuggingFace repository ID',
    ],
    [
      'a URL without scheme',
      withSpec({ source: { url: { url: 'example.com/model' } } }),
      'spec.source.url.url',
      'spec.source.url.url must be an http:// or https:// URL',
    ],
    [
      'an ftp URL',
      withSpec({ source: { url: { url: 'ftp://example.com/model' } } }),
      'spec.source.url.url',
      'must be an http:// or https:// URL',
    ],
    [
      'an S3 source without key',
      withSpec({ source: { s3: { bucket: 'b' } } }),
      'spec.source.s3.key',
      'spec.source.s3.key is required',
    ],
    [
      'an S3 source with an empty bucket',
      withSpec({ source: { s3: { bucket: '', key: 'k' } } }),
      'spec.source.s3.bucket',
      'spec.source.s3.bucket must not be empty',
    ],
    [
      'an S3 endpoint without scheme',
      withSpec({
        source: { s3: { bucket: 'b', key: 'k', endpoint: 'minio:9000' } },
      }),
      'spec.source.s3.endpoint',
      'must be an http:// or https:// URL',
    ],
    [
      'a missing source',
      withSpec({ source: undefined }),
      'spec.source',
      'spec.source is required',
    ],
    [
      'a missing storage',
      withSpec({ storage: undefined }),
      'spec.storage',
      'spec.storage is required',
    ],
    [
      'a missing storage class',
      withSpec({ storage: { size: '1Gi' } }),
      'spec.storage.storageClass',
      'spec.storage.storageClass is required',
    ],
    [
      'an unknown access mode',
      withSpec({
        storage: {
          storageClass: 'gp3',
          size: '1Gi',
          accessModes: ['ReadWriteSometimes'],
        },
      }),
      'spec.storage.accessModes[0]',
      'must be one of: ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod',
    ],
    [
      'a credentials secret that is not a name',
      withSpec({ credentialsSecret: 'HF Token' }),
      'spec.credentialsSecret',
      'must be the name of a Secret in the same namespace',
    ],
    [
      'a node selector with a number',
      withSpec({ nodeSelector: { zone: 1 } }),
      'spec.nodeSelector.zone',
      'must be a string',
    ],
    [
      'a name of 49 characters',
      { ...example, metadata: { name: 'a'.repeat(49) } },
      'metadata.name',
      'must be at most 48 characters',
    ],
    [
      'a name with a dot',
      { ...example, metadata: { name: 'llama.3' } },
      'metadata.name',
      'lowercase letters, digits and "-"',
    ],
    [
      'a name with capitals',
      { ...example, metadata: { name: 'Llama' } },
      'metadata.name',
      'lowercase letters',
    ],
    [
      'a wrong apiVersion',
      { ...example, apiVersion: 'models.example.com/v1alpha1' },
      'apiVersion',
      'apiVersion must be "models.airunway.ai/v1alpha1"',
    ],
    [
      'a wrong kind',
      { ...example, kind: 'Modell' },
      'kind',
      'kind must be "Model"',
    ],
    [
      'a progress over 100',
      { ...example, status: { progress: 101 } },
      'status.progress',
      'status.progress must be at most 100',
    ],
    [
      'an unknown phase',
      { ...example, status: { phase: 'Done' } },
      'status.phase',
      'must be one of: Pending, Downloading, Ready, Failed',
    ],
    [
      'no spec',
      { apiVersion: MODEL_API_VERSION, kind: 'Model', metadata: { name: 'm' } },
      'spec',
      'spec is required',
    ],
    ['not an object', 'model', '(root)', 'a Model must be an object'],
  ])('rejects %s', (_label, input, path, message) => {
    const found = errors(input);
    expect(found.map(i => i.path)).toContain(path);
    expect(found.find(i => i.path === path)!.message).toContain(message);
  });

  it('warns about unknown fields instead of rejecting them', () => {
    const result = validateModel(withSpec({ sorce: {} }));
    expect(result.issues).toContainEqual(
      expect.objectContaining({ path: 'spec.sorce', severity: 'warning' }),
    );
  });

  it('warns that a url source does not use credentialsSecret', () => {
    const result = validateModel(
      withSpec({ source: { url: { url: 'https://example.com/m.gguf' } } }),
    );
    expect(result).toEqual({
      valid: true,
      issues: [
        {
          path: 'spec.credentialsSecret',
          message:
            'spec.credentialsSecret is not used by a url source (only huggingFace reads HF_TOKEN and s3 reads AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); remove it or put credentials in the URL',
          severity: 'warning',
        },
      ],
    });
    expect(
      validateModel(withSpec({ source: { s3: { bucket: 'b', key: 'k' } } }))
        .issues,
    ).toEqual([]);
  });

  it('accepts a status with every field', () => {
    const input = {
      ...example,
      status: {
        phase: 'Downloading',
        pvcName: 'model-llama-3-8b',
        message: 'Download in progress',
        progress: 42,
        download: {
          bytesDownloaded: 1000,
          totalBytes: 2000,
          bytesPerSecond: 100,
          remainingSeconds: 10,
        },
        observedGeneration: 3,
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'Downloading',
            message: '',
            lastTransitionTime: '2025-01-01T00:00:00Z',
          },
        ],
      },
    };
    expect(validateModel(input)).toEqual({ valid: true, issues: [] });
  });
});

describe('defaultModel', () => {
  it.each([
    [
      'revision',
      { huggingFace: { repoId: 'a/b' } },
      'spec.source.huggingFace.revision',
      'main',
    ],
    [
      'accessModes',
      { url: { url: 'https://x/y' } },
      'spec.storage.accessModes',
      ['ReadWriteOnce'],
    ],
  ])('defaults %s', (_label, source, path, value) => {
    const input = {
      ...example,
      spec: { storage: { storageClass: 'gp3', size: '1Gi' }, source },
    } as Model;
    const out = defaultModel(input) as any;
    expect(path.split('.').reduce((n, k) => n?.[k], out)).toEqual(value);
    expect(input.spec.storage.accessModes).toBeUndefined(); // the input is not changed
  });

  it('keeps values that are set', () => {
    const input = withSpec({
      source: { huggingFace: { repoId: 'a/b', revision: 'v2' } },
      storage: {
        storageClass: 'gp3',
        size: '1Gi',
        accessModes: ['ReadWriteMany'],
      },
    }) as Model;
    const out = defaultModel(input);
    expect(out.spec.source.huggingFace!.revision).toBe('v2');
    expect(out.spec.storage.accessModes).toEqual(['ReadWriteMany']);
  });

  it('does not add a revision to other sources', () => {
    const out = defaultModel(
      withSpec({ source: { s3: { bucket: 'b', key: 'k' } } }) as Model,
    );
    expect(out.spec.source).toEqual({ s3: { bucket: 'b', key: 'k' } });
  });
});

describe('naming (seed 003 conventions)', () => {
  it.each([
    [modelPvcName, 'llama-3-8b', 'model-llama-3-8b'],
    [modelDownloadJobName, 'llama-3-8b', 'model-download-llama-3-8b'],
    [modelVolumeName, 'llama-3-8b', 'model-llama-3-8b'],
    [modelEnvPrefix, 'llama-3-8b', 'MODEL_LLAMA_3_8B'],
    [defaultModelMountPath, 'llama-3-8b', '/models/llama-3-8b'],
  ])('%p(%s) = %s', (fn, name, expected) => {
    expect(fn(name)).toBe(expected);
  });

  it.each([
    [{ huggingFace: { repoId: 'a/b' } }, 'huggingface'],
    [{ s3: { bucket: 'b', key: 'k' } }, 's3'],
    [{ url: { url: 'https://x' } }, 'url'],
    [{}, undefined],
    [{ s3: { bucket: 'b', key: 'k' }, url: { url: 'https://x' } }, undefined],
    [undefined, undefined],
  ])('modelSourceType(%j) = %s', (source, expected) => {
    expect(modelSourceType(source as any)).toBe(expected);
  });
});

describe('injection annotations', () => {
  it("are seed 003's, in this project's group", () => {
    expect(Object.values(MODEL_ANNOTATIONS).sort()).toEqual([
      'models.airunway.ai/container',
      'models.airunway.ai/inject',
      'models.airunway.ai/inject-env',
      'models.airunway.ai/mount-path',
      'models.airunway.ai/read-only',
    ]);
    expect(MODEL_INJECTED_LABEL).toBe('models.airunway.ai/injected');
  });
});

describe('the Model CRD', () => {
  const crd = renderCrd(modelCrd) as any;
  const version = crd.spec.versions[0];

  it('has seed 003 names, scope and status subresource', () => {
    expect(crd.metadata.name).toBe('models.models.airunway.ai');
    expect(crd.spec.names).toEqual({
      kind: 'Model',
      listKind: 'ModelList',
      plural: 'models',
      singular: 'model',
      shortNames: ['mdl'],
    });
    expect(crd.spec.scope).toBe('Namespaced');
    expect(version.subresources).toEqual({ status: {} });
  });

  it("has seed 003's printer columns, and progress in wide output", () => {
    expect(
      version.additionalPrinterColumns.filter((c: any) => !c.priority),
    ).toEqual([
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      { name: 'Version', type: 'string', jsonPath: '.spec.version' },
      { name: 'Size', type: 'string', jsonPath: '.spec.storage.size' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
    expect(version.additionalPrinterColumns).toContainEqual({
      name: 'Progress',
      type: 'integer',
      jsonPath: '.status.progress',
      priority: 1,
    });
  });

  it('states the one-source rule in CEL and keeps the defaults', () => {
    const spec = version.schema.openAPIV3Schema.properties.spec;
    expect(
      spec.properties.source['x-kubernetes-validations'][0].rule,
    ).toContain('.filter(x, x).size() == 1');
    expect(
      spec.properties.source.properties.huggingFace.properties.revision.default,
    ).toBe('main');
    expect(spec.properties.storage.properties.accessModes.default).toEqual([
      'ReadWriteOnce',
    ]);
    expect(
      version.schema.openAPIV3Schema.properties.status.properties.phase.enum,
    ).toEqual(['Pending', 'Downloading', 'Ready', 'Failed']);
  });
});
