import { MODEL_FORM, MODEL_FORM_FIELDS, MODEL_FORM_STEPS } from './form';
import { formatBytes, modelSourceText } from './display';
import { schemaAt } from '../schema/form';
import { ModelSchema } from './schema';

describe('the model form, described once', () => {
  it('edits only fields the Model schema has', () => {
    const missing = Object.values(MODEL_FORM).filter(
      f => f.schemaPath && !schemaAt(ModelSchema, f.schemaPath),
    );
    expect(missing).toEqual([]);
    expect(MODEL_FORM.cluster.schemaPath).toBeUndefined();
  });

  it('describes every field of a step, has each field once, and ends with the review', () => {
    expect([...MODEL_FORM_FIELDS].sort()).toEqual(
      Object.keys(MODEL_FORM).sort(),
    );
    const all = MODEL_FORM_STEPS.flatMap(s => s.fields);
    expect(new Set(all).size).toBe(all.length);
    expect(MODEL_FORM_STEPS[MODEL_FORM_STEPS.length - 1]).toEqual({
      label: 'Review',
      fields: [],
    });
  });

  it('takes help, options, input and required from the schema', () => {
    expect(MODEL_FORM['spec.storage.size'].help).toBe(
      'Size of the PVC, e.g. "20Gi".',
    );
    expect(MODEL_FORM['spec.source.s3.endpoint'].help).toMatch(
      /MinIO.*Empty for AWS\.$/,
    );
    expect(MODEL_FORM['spec.storage.accessModes']).toMatchObject({
      input: 'multiselect',
      required: false,
      options: expect.arrayContaining([
        { value: 'ReadWriteOnce', label: 'ReadWriteOnce' },
      ]),
    });
    expect(MODEL_FORM['spec.storage.size'].required).toBe(true);
    expect(MODEL_FORM['metadata.name'].help).toMatch(/^Up to 48 lower-case/);
    expect(MODEL_FORM.nodeSelector).toMatchObject({
      input: 'keyValue',
      help: undefined,
      schemaPath: 'spec.nodeSelector',
    });
  });
});

describe('display', () => {
  it('formats bytes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GiB');
  });

  it('describes each source, and none without exactly one', () => {
    expect(
      modelSourceText({ huggingFace: { repoId: 'runway-demo/tiny-model' } }),
    ).toBe('HuggingFace runway-demo/tiny-model@main');
    expect(modelSourceText({ s3: { bucket: 'b', key: 'k/' } })).toBe(
      's3://b/k/',
    );
    expect(modelSourceText({ url: { url: 'https://x/y' } })).toBe(
      'https://x/y',
    );
    expect(modelSourceText({})).toBeUndefined();
    expect(
      modelSourceText({
        url: { url: 'https://x' },
        s3: { bucket: 'b', key: 'k' },
      }),
    ).toBeUndefined();
  });
});
