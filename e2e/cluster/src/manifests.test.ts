import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  isCrd,
  manifestFiles,
  parseManifests,
  readManifests,
} from './manifests';

describe('parseManifests', () => {
  it('reads every document of a multi-document file and skips empty ones', () => {
    const objects = parseManifests(
      '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n# only a comment\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: b}\n',
      'x.yaml',
    );
    expect(objects.map(o => `${o.object.kind} ${o.source}`)).toEqual([
      'ConfigMap x.yaml#0',
      'Secret x.yaml#2',
    ]);
  });

  it('names the file and document of bad input', () => {
    expect(() => parseManifests('a: [1, 2', 'bad.yaml')).toThrow(
      /bad.yaml#0 is not valid YAML/,
    );
    expect(() => parseManifests('- 1\n- 2\n', 'list.yaml')).toThrow(
      /list.yaml#0 is not a Kubernetes object: it needs apiVersion and kind/,
    );
  });

  it('recognises CRDs', () => {
    expect(
      isCrd({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
      }),
    ).toBe(true);
    expect(
      isCrd({ apiVersion: 'example.com/v1', kind: 'CustomResourceDefinition' }),
    ).toBe(false);
  });
});

describe('manifestFiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'manifests-'));
    await mkdir(join(dir, 'nested'));
    await writeFile(join(dir, 'b.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
    await writeFile(
      join(dir, 'nested', 'a.yml'),
      'apiVersion: v1\nkind: Secret\n',
    );
    await writeFile(join(dir, 'notes.txt'), 'not a manifest');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('walks folders for YAML and JSON files', async () => {
    expect(await manifestFiles([dir])).toEqual([
      join(dir, 'b.yaml'),
      join(dir, 'nested', 'a.yml'),
    ]);
    expect((await readManifests([dir])).map(m => m.object.kind)).toEqual([
      'ConfigMap',
      'Secret',
    ]);
  });

  it('says how to fix a missing path', async () => {
    await expect(manifestFiles([join(dir, 'missing')])).rejects.toThrow(
      /does not exist: pass a YAML\/JSON file or a folder/,
    );
  });
});
