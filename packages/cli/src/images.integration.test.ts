/**
 * The controller images' build context, without Docker: what
 * controllers/Dockerfile does (a package's dist-workspace from its
 * build-workspace script, a backend-role bundle unpacked in place, then
 * `yarn workspaces focus --production` and the yarn release removed) done
 * in a temporary folder; the entry point (the bundled dist/controller.cjs,
 * with the ENTRYPOINT's Node flags) then runs from there against a real
 * control plane and must answer its probes. So the image holds everything a
 * controller needs at run time, and no dev dependency is needed.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';

jest.setTimeout(20 * 60_000);

const exec = promisify(execFile);
const REPO = path.resolve(__dirname, '../../..');
const YARN = path.join(
  REPO,
  /^yarnPath:\s*(\S+)/m.exec(
    fs.readFileSync(path.join(REPO, '.yarnrc.yml'), 'utf8'),
  )![1],
);

let cluster: TestCluster;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'runway-image-'));

const yarn = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  exec(process.execPath, [YARN, ...args], {
    cwd,
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });

/** The image's /app for a package, as controllers/Dockerfile's first stage builds it. */
async function buildContext(pkg: string, packageDir: string): Promise<string> {
  await yarn(REPO, ['workspace', pkg, 'build-workspace']);
  const app = path.join(work, pkg.replace(/[@/]/g, '_'));
  fs.cpSync(path.join(REPO, packageDir, 'dist-workspace'), app, {
    recursive: true,
  });
  fs.rmSync(path.join(REPO, packageDir, 'dist-workspace'), {
    recursive: true,
    force: true,
  });
  fs.cpSync(
    path.join(REPO, '.yarn/releases'),
    path.join(app, '.yarn/releases'),
    { recursive: true },
  );
  fs.copyFileSync(
    path.join(REPO, '.yarnrc.yml'),
    path.join(app, '.yarnrc.yml'),
  );
  const bundle = path.join(app, packageDir, 'dist/bundle.tar.gz');
  if (fs.existsSync(bundle)) {
    await exec('tar', ['xzf', bundle], { cwd: app });
    for (const f of fs
      .readdirSync(path.dirname(bundle))
      .filter(n => n.endsWith('.tar.gz')))
      fs.rmSync(path.join(path.dirname(bundle), f));
  }
  await yarn(app, ['workspaces', 'focus', pkg, '--production'], {
    NODE_ENV: 'production',
  });
  fs.rmSync(path.join(app, '.yarn'), { recursive: true, force: true });
  fs.rmSync(path.join(app, '.yarnrc.yml'));
  return app;
}

/** The Node flags of controllers/Dockerfile's ENTRYPOINT (`node <flags> /app/controller.cjs`). */
function entrypointFlags(): string[] {
  const dockerfile = fs.readFileSync(
    path.join(REPO, 'controllers/Dockerfile'),
    'utf8',
  );
  const entrypoint = JSON.parse(
    /^ENTRYPOINT (.*)$/m.exec(dockerfile)?.[1] ?? '[]',
  ) as string[];
  return entrypoint.slice(1, -1);
}

/** Runs the entry as the image's ENTRYPOINT would; resolves with what /readyz answered. */
async function readyz(
  app: string,
  entry: string,
  args: string[],
): Promise<string> {
  const healthPort = await freePort();
  const log = path.join(work, `${path.basename(app)}.log`);
  const out = fs.openSync(log, 'a');
  const child = spawn(
    process.execPath,
    [
      ...entrypointFlags(),
      path.join(app, entry),
      ...args,
      '--metrics-port=0',
      `--health-port=${healthPort}`,
    ],
    {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        KUBECONFIG: cluster.kubeconfigPath,
      },
      stdio: ['ignore', out, out],
    },
  );
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(
          `${entry} exited with ${child.exitCode}: ${fs
            .readFileSync(log, 'utf8')
            .slice(-2000)}`,
        );
      try {
        const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
        if (res.ok) return await res.text();
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(
          `${entry} did not answer /readyz within 60 s: ${fs
            .readFileSync(log, 'utf8')
            .slice(-2000)}`,
        );
      await new Promise(r => setTimeout(r, 250));
    }
  } finally {
    child.kill('SIGTERM');
  }
}

/** A controller serving webhooks registers them itself at a free local port (url mode). */
async function ownWebhookArgs(): Promise<string[]> {
  return [
    '--webhook-mode=url',
    `--webhook-port=${await freePort()}`,
    '--namespace=default',
  ];
}

beforeAll(async () => {
  cluster = await startCluster({
    name: 'runway-images',
    crds: [
      path.join(REPO, 'controllers/deploy/crds'),
      path.join(
        REPO,
        'e2e/simulators/upstream-crds/kaito-kaito.sh_workspaces.yaml',
      ),
    ],
  });
}, 30 * 60_000);

afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('the controller images, built as controllers/Dockerfile builds them', () => {
  it('the core (a backend-role bundle) holds only production dependencies and answers its probes', async () => {
    const app = await buildContext(
      '@runway-portal/controller-core',
      'controllers/core',
    );
    expect(fs.existsSync(path.join(app, 'node_modules/@backstage/cli'))).toBe(
      false,
    );
    expect(
      await readyz(
        app,
        'controllers/core/dist/controller.cjs',
        await ownWebhookArgs(),
      ),
    ).toContain('check passed');
  });

  it('the model operator holds only production dependencies and answers its probes', async () => {
    const app = await buildContext(
      '@runway-portal/controller-models',
      'controllers/models',
    );
    expect(fs.existsSync(path.join(app, 'node_modules/@backstage/cli'))).toBe(
      false,
    );
    // The downloader image's entry is in the same context.
    expect(
      fs.existsSync(
        path.join(app, 'controllers/models/dist/downloader.cjs.js'),
      ),
    ).toBe(true);
    expect(
      await readyz(
        app,
        'controllers/models/dist/controller.cjs',
        await ownWebhookArgs(),
      ),
    ).toContain('check passed');
  });

  it('a provider (KAITO) holds only production dependencies and answers its probes', async () => {
    const app = await buildContext(
      '@runway-portal/provider-kaito',
      'controllers/providers/kaito',
    );
    expect(fs.existsSync(path.join(app, 'node_modules/@backstage/cli'))).toBe(
      false,
    );
    expect(
      await readyz(app, 'controllers/providers/kaito/dist/controller.cjs', [
        '--heartbeat-interval=5s',
      ]),
    ).toContain('provider-registered ok');
  });
});
