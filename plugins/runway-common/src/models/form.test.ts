import {
  MODEL_FORM_EDITORS,
  MODEL_FORM_FIELDS,
  MODEL_FORM_STEPS,
  modelFieldHelp,
} from './form';
import { formatBytes, modelSourceText } from './display';
import { ModelSpecSchema } from './schema';

function inSchema(schema: any, path: string[]): boolean {
  if (path.length === 0) return true;
  if (schema?.additionalProperties && !schema.properties) return true;
  const next = schema?.properties?.[path[0]];
  return next !== undefined && inSchema(next, path.slice(1));
}

describe('the model form, described once', () => {
  it('edits only fields the Model schema has', () => {
    const specPaths = [
      ...[...MODEL_FORM_FIELDS].filter(f => f.startsWith('spec.')),
      ...Object.values(MODEL_FORM_EDITORS).filter(
        (p): p is NonNullable<typeof p> => !!p && p.startsWith('spec.'),
      ),
    ];
    expect(
      specPaths.filter(p => !inSchema(ModelSpecSchema, p.split('.').slice(1))),
    ).toEqual([]);
  });

  it('has every editor in a step, each field once, and ends with the review', () => {
    for (const editor of Object.keys(MODEL_FORM_EDITORS))
      expect(MODEL_FORM_FIELDS).toContain(editor);
    const all = MODEL_FORM_STEPS.flatMap(s => s.fields);
    expect(new Set(all).size).toBe(all.length);
    expect(MODEL_FORM_STEPS[MODEL_FORM_STEPS.length - 1]).toEqual({
      label: 'Review',
      fields: [],
    });
  });

  it("gives each spec field's help from the schema", () => {
    expect(modelFieldHelp('spec.storage.size')).toBe(
      'Size of the PVC, e.g. "20Gi".',
    );
    expect(modelFieldHelp('spec.source.s3.endpoint')).toMatch(/MinIO/);
    expect(modelFieldHelp('spec.nothing')).toBeUndefined();
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
