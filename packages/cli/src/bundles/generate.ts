/** Writes controllers/deploy/install/install.yaml (`yarn workspace @runway-portal/cli generate`). */
import fs from 'node:fs';
import path from 'node:path';
import { defaultDeployDir } from './catalog';
import { INSTALL_YAML, renderInstallYaml } from './load';

const deployDir = defaultDeployDir();
const target = path.join(deployDir, INSTALL_YAML);
fs.writeFileSync(target, renderInstallYaml(deployDir));
process.stdout.write(`wrote ${target}\n`);
