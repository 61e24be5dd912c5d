/**
 * Writes what is generated from the bundles: controllers/deploy/install/install.yaml,
 * the Helm chart controllers/deploy/helm/runway and the doctor's expectations
 * (src/doctor/expectations.generated.ts) (`yarn workspace @runway-portal/cli generate`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderChart, CHART_DIR } from '../helm/chart';
import { CATALOG, DEFAULT_NAMESPACE, defaultDeployDir } from './catalog';
import { expectationsFromBundles } from '../doctor/read';
import { EXPECTATIONS_FILE, renderExpectations } from '../doctor/bundled';
import { INSTALL_YAML, loadCatalogBundle, renderInstallYaml } from './load';

const deployDir = defaultDeployDir();
const write = (rel: string, content: string) => {
  const target = path.join(deployDir, rel);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
  process.stdout.write(`wrote ${target}\n`);
};
write(INSTALL_YAML, renderInstallYaml(deployDir));
// The chart is wholly generated: start from an empty folder so nothing stale stays.
fs.rmSync(path.join(deployDir, CHART_DIR), { recursive: true, force: true });
for (const file of renderChart(
  CATALOG.map(e => loadCatalogBundle(e, deployDir)),
))
  write(file.path, file.content);
const expectationsFile = path.join(
  path.dirname(require.resolve('@runway-portal/cli/package.json')),
  'src',
  'doctor',
  EXPECTATIONS_FILE,
);
fs.writeFileSync(
  expectationsFile,
  renderExpectations(expectationsFromBundles(deployDir, DEFAULT_NAMESPACE)),
);
process.stdout.write(`wrote ${expectationsFile}\n`);
