import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONTROLLER_BUNDLE,
  CONTROLLER_NODE_FLAGS,
} from '@runway-portal/controller-runtime/bundle';
import {
  CONTROLLERS,
  entryCommand,
  entryFile,
  processCommand,
  SIMULATORS,
} from './plan';
import { REPO_ROOT } from './system';

describe('entryCommand', () => {
  it('turns a plain node start script into node arguments', () => {
    const command = entryCommand(
      'x',
      'node --require @backstage/cli/config/nodeTransform.cjs src/main.ts',
    );
    expect(command.nodeArgs).toEqual([
      '--require',
      '@backstage/cli/config/nodeTransform.cjs',
      'src/main.ts',
    ]);
    expect(entryFile(command)).toBe('src/main.ts');
  });

  it('says how to write a missing start script', () => {
    expect(() => entryCommand('@runway-portal/provider-x', undefined)).toThrow(
      '@runway-portal/provider-x has no "start" script in package.json: add one like "node --require @backstage/cli/config/nodeTransform.cjs src/main.ts"',
    );
  });

  it('refuses scripts that are not a plain node command', () => {
    for (const script of ['yarn other', 'node src/a.ts && rm -rf /', 'node']) {
      expect(() => entryCommand('p', script)).toThrow(
        `p's "start" script "${script}" is not a plain node command`,
      );
    }
  });
});

describe('the controllers of the local system', () => {
  it('run the core with url-mode webhooks on the chosen port and every controller with its health port', () => {
    const core = CONTROLLERS.find(c => c.name === 'core')!;
    expect(
      core.args({
        webhookPort: 9555,
        healthPort: 9556,
        modelsDir: '/m',
        clusterDir: '/c',
      }),
    ).toEqual([
      '--webhook-mode=url',
      '--webhook-host=127.0.0.1',
      '--webhook-port=9555',
      '--metrics-port=0',
      '--health-port=9556',
      '--leader-elect=true',
    ]);
    for (const c of CONTROLLERS) {
      expect(
        c.args({
          webhookPort: 1,
          healthPort: 2,
          modelsDir: '/m',
          clusterDir: '/c',
        }),
      ).toContain('--health-port=2');
    }
  });

  it('run every controller with leader election, so the doctor sees its Lease', () => {
    const args = (c: (typeof CONTROLLERS)[number]) =>
      c.args({
        webhookPort: 1,
        healthPort: 2,
        modelsDir: '/m',
        clusterDir: '/c',
      });
    for (const c of CONTROLLERS) {
      expect([c.name, args(c)]).toEqual([
        c.name,
        expect.arrayContaining([
          c.name.startsWith('provider-')
            ? '--leader-election-namespace=airunway-system'
            : '--leader-elect=true',
        ]),
      ]);
    }
  });

  it('run the download simulator with the models folder and the cluster folder (its node serves the download logs), and its probes on the health port', () => {
    expect(
      SIMULATORS.args({
        webhookPort: 1,
        healthPort: 2,
        modelsDir: '/m',
        clusterDir: '/c',
      }),
    ).toEqual(['--models-dir=/m', '--cluster-dir=/c', '--health-port=2']);
    expect(SIMULATORS.probes).toBe(true);
  });

  it('name packages of this repository whose start script is a node command', () => {
    for (const spec of [...CONTROLLERS, SIMULATORS]) {
      const file = join(REPO_ROOT, spec.packageDir, 'package.json');
      expect({ spec: spec.name, exists: existsSync(file) }).toEqual({
        spec: spec.name,
        exists: true,
      });
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      expect(() => entryCommand(pkg.name, pkg.scripts?.start)).not.toThrow();
    }
  });

  it('run every controller from the bundle its image runs, with its Node flags, and the test doubles from their start script', () => {
    const start = entryCommand('p', 'node --require x src/main.ts');
    for (const c of CONTROLLERS) {
      expect({ name: c.name, ...processCommand(c, start) }).toEqual({
        name: c.name,
        nodeArgs: [...CONTROLLER_NODE_FLAGS, CONTROLLER_BUNDLE],
      });
    }
    expect(processCommand(SIMULATORS, start)).toBe(start);
  });
});
