import {
  emptyModelValues,
  fromModel,
  type ModelFormValues,
  toModel,
  validateModelForm,
} from './modelForm';

function valid(): ModelFormValues {
  const v = emptyModelValues({ cluster: 'dev', namespace: 'ml' });
  v.metadata.name = 'tiny';
  v.spec.source.huggingFace.repoId = 'runway-demo/tiny-model';
  v.spec.storage.storageClass = 'standard';
  return v;
}

describe('the model form', () => {
  it('writes only the chosen source, without empty strings', () => {
    const v = valid();
    v.spec.source.s3.bucket = 'left-over';
    expect(toModel(v)).toEqual({
      apiVersion: 'models.airunway.ai/v1alpha1',
      kind: 'Model',
      metadata: { name: 'tiny', namespace: 'ml' },
      spec: {
        source: {
          huggingFace: { repoId: 'runway-demo/tiny-model', revision: 'main' },
        },
        storage: {
          storageClass: 'standard',
          size: '20Gi',
          accessModes: ['ReadWriteOnce'],
        },
      },
    });
    expect(validateModelForm(v)).toEqual([]);
  });

  it('writes an S3 source with its optional fields, credentials and node selector', () => {
    const v = valid();
    v.sourceType = 's3';
    v.spec.source.s3 = {
      bucket: 'weights',
      key: 'llama/',
      endpoint: 'http://minio:9000',
      region: '',
    };
    v.spec.credentialsSecret = 's3-creds';
    v.nodeSelector = [{ key: 'disk', value: 'ssd' }];
    const model = toModel(v);
    expect(model.spec.source).toEqual({
      s3: { bucket: 'weights', key: 'llama/', endpoint: 'http://minio:9000' },
    });
    expect(model.spec.credentialsSecret).toBe('s3-creds');
    expect(model.spec.nodeSelector).toEqual({ disk: 'ssd' });
    expect(fromModel('dev', model)).toMatchObject({
      cluster: 'dev',
      sourceType: 's3',
      spec: { credentialsSecret: 's3-creds' },
      nodeSelector: [{ key: 'disk', value: 'ssd' }],
    });
  });

  it('round-trips a Model through the form', () => {
    const model = toModel(valid());
    expect(toModel(fromModel('dev', model))).toEqual(model);
  });

  it("puts runway-common's messages on the fields, naming them", () => {
    const v = valid();
    v.cluster = '';
    v.metadata.name = 'Bad_Name';
    v.spec.source.huggingFace.repoId = 'no-slash';
    v.spec.storage.size = '20 gigs';
    v.spec.storage.storageClass = '';
    const byField = Object.fromEntries(
      validateModelForm(v).map(i => [i.field, i.message]),
    );
    expect(Object.keys(byField).sort()).toEqual([
      'cluster',
      'metadata.name',
      'spec.source.huggingFace.repoId',
      'spec.storage.size',
      'spec.storage.storageClass',
    ]);
    expect(byField['spec.source.huggingFace.repoId']).toMatch(/owner\/name/);
    expect(byField['spec.storage.size']).toMatch(/20Gi/);
    expect(byField['metadata.name']).toMatch(/model-download-<name>/);
  });

  it('warns that a URL source does not read credentials', () => {
    const v = valid();
    v.sourceType = 'url';
    v.spec.source.url.url = 'https://example.com/model.gguf';
    v.spec.credentialsSecret = 'hf';
    expect(validateModelForm(v)).toEqual([
      expect.objectContaining({
        field: 'spec.credentialsSecret',
        severity: 'warning',
      }),
    ]);
  });

  it('checks the namespace against the allow-list', () => {
    expect(
      validateModelForm(valid(), { namespaces: ['default'] })[0],
    ).toMatchObject({
      field: 'metadata.namespace',
      message: expect.stringContaining('choose one of default'),
    });
  });
});
