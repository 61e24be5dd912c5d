import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CATALOG, defaultDeployDir } from '../bundles/catalog';
import { loadCatalogBundle } from '../bundles/load';
import { CHART_DIR, renderChart } from './chart';

const DEPLOY = defaultDeployDir();
const files = renderChart(CATALOG.map(e => loadCatalogBundle(e, DEPLOY)));

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap(d =>
      d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)],
    );
}

describe('the Helm chart controllers/deploy/helm/runway', () => {
  it('is generated from the bundles and has not drifted (run `yarn workspace @runway-portal/cli generate` when this fails)', () => {
    const onDisk = walk(path.join(DEPLOY, CHART_DIR))
      .map(f => path.relative(DEPLOY, f))
      .sort();
    expect(onDisk).toEqual(files.map(f => f.path).sort());
    for (const f of files)
      expect(
        `${f.path}\n${fs.readFileSync(path.join(DEPLOY, f.path), 'utf8')}`,
      ).toBe(`${f.path}\n${f.content}`);
  });

  it('has a values section per component and the CRDs in crds/', () => {
    const values = parseAllDocuments(
      files.find(f => f.path.endsWith('values.yaml'))!.content,
    )[0].toJSON();
    for (const entry of CATALOG)
      expect(values[entry.name.replace(/[^A-Za-z0-9]/g, '')]).toMatchObject({
        enabled: true,
        replicas: expect.any(Number),
      });
    expect(
      files
        .filter(f => f.path.includes('/crds/'))
        .map(f => path.basename(f.path)),
    ).toEqual(
      expect.arrayContaining([
        'modeldeployments.airunway.ai.yaml',
        'inferenceproviderconfigs.airunway.ai.yaml',
      ]),
    );
  });

  it('templates the namespace everywhere it appears', () => {
    for (const f of files.filter(x => x.path.includes('/templates/')))
      expect(`${f.path}: ${/airunway-system/.test(f.content)}`).toBe(
        `${f.path}: false`,
      );
  });
});
