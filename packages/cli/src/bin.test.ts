/**
 * bin/runway: the esbuild bundle when it is current, the sources otherwise.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bundleController,
  bundleInputsFile,
} from '@runway-portal/controller-runtime/bundle';

const PACKAGE_DIR = path.resolve(__dirname, '..');
const REPO_NODE_MODULES = path.resolve(PACKAGE_DIR, '..', '..', 'node_modules');

function node(args: string[], cwd = PACKAGE_DIR) {
  return spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('the bundle of src/main.ts', () => {
  // Beside the real one (dist/runway.cjs), so the package resolves itself as it does there.
  const bundle = `dist/runway-test-${process.pid}.cjs`;
  afterAll(() => {
    for (const f of [bundle, bundleInputsFile(bundle)])
      fs.rmSync(path.join(PACKAGE_DIR, f), { force: true });
  });

  it('runs the command: help, and bad input as one line with exit 1, nothing else on stderr', async () => {
    await bundleController(PACKAGE_DIR, 'src/main.ts', bundle);
    const help = node([bundle, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: runway /);
    expect(help.stderr).toBe('');
    const bad = node([bundle, 'provider', 'install', 'nosuch']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('');
    expect(bad.stdout).toBe(
      'runway: bad input: unknown provider "nosuch" (known: kaito, dynamo, kuberay, llmd); or give a folder, a YAML file or an http(s) URL of a provider bundle\n',
    );
  }, 120_000);
});

describe('bin/runway chooses', () => {
  let root: string;
  const file = (rel: string) => path.join(root, rel);
  const run = () => node([file('bin/runway')], root);

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'runway-bin-'));
    fs.mkdirSync(file('bin'));
    fs.mkdirSync(file('dist'));
    fs.mkdirSync(file('src'));
    fs.copyFileSync(
      path.join(PACKAGE_DIR, 'bin', 'runway'),
      file('bin/runway'),
    );
    fs.symlinkSync(REPO_NODE_MODULES, file('node_modules'));
    fs.writeFileSync(
      file('src/main.ts'),
      "const from: string = 'sources';\nprocess.stdout.write(from);\n",
    );
    fs.writeFileSync(
      file('dist/runway.cjs'),
      "process.stdout.write('bundle');\n",
    );
    fs.writeFileSync(
      file('dist/runway.inputs.json'),
      JSON.stringify({ entry: 'src/main.ts', inputs: [file('src/main.ts')] }),
    );
    // The bundle written after its input, as a build does.
    const later = new Date(Date.now() + 2000);
    fs.utimesSync(file('dist/runway.cjs'), later, later);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('the bundle while it is current', () => {
    expect(run().stdout).toBe('bundle');
  });

  it('the sources once one of its inputs changed', () => {
    const later = new Date(Date.now() + 10_000);
    fs.utimesSync(file('src/main.ts'), later, later);
    expect(run().stdout).toBe('sources');
  });

  it('the sources when it is not built, or its inputs are not recorded', () => {
    fs.rmSync(file('dist/runway.inputs.json'));
    expect(run().stdout).toBe('sources');
    fs.rmSync(file('dist/runway.cjs'));
    expect(run().stdout).toBe('sources');
  });

  it('the bundle in a built package, which has no sources', () => {
    fs.rmSync(file('src'), { recursive: true });
    fs.rmSync(file('dist/runway.inputs.json'));
    expect(run().stdout).toBe('bundle');
  });
});
