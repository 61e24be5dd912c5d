/*
 * Bring local clusters up and down by hand:
 *   yarn workspace @runway-portal/e2e-cluster cluster up dev staging   (foreground, Ctrl-C stops)
 *   yarn workspace @runway-portal/e2e-cluster cluster up dev --detach
 *   yarn workspace @runway-portal/e2e-cluster cluster status
 *   yarn workspace @runway-portal/e2e-cluster cluster down dev         (or: down --all)
 *   yarn workspace @runway-portal/e2e-cluster cluster build
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cacheRoot, ensureKubeBinary, kubeBinaryLocation } from './binary';
import { startClusters, type TestCluster } from './cluster';
import { logTail } from './processes';

const USAGE = `usage: cluster <command> [options]

  up [NAME...]       start clusters (default name: dev), print their kubeconfig paths,
                     stay in the foreground until Ctrl-C, then stop them
      --detach       run them in the background instead (stop with: cluster down)
      --crds PATH    install CRDs from a file or folder (repeatable)
      --port N       fixed API server port (one cluster only)
  down [NAME...]     stop clusters started with up --detach (--all: every one)
  status             list the clusters started with up and their kubeconfig paths
  build              build (or find) the Kubernetes binaries and print their path
`;

interface ClusterState {
  name: string;
  /** The process that owns the cluster (up in the foreground or its detached copy). */
  pid: number;
  server: string;
  kubeconfigPath: string;
  startedAt: string;
}

const clustersDir = () => join(cacheRoot(), 'clusters');
const clusterDir = (name: string) => join(clustersDir(), name);
const statePath = (name: string) => join(clusterDir(name), 'state.json');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readState(name: string): Promise<ClusterState | undefined> {
  try {
    return JSON.parse(await readFile(statePath(name), 'utf8'));
  } catch {
    return undefined;
  }
}

function describe(
  state: Pick<ClusterState, 'name' | 'server' | 'kubeconfigPath'>,
): string {
  return `${state.name}\t${state.server}\tKUBECONFIG=${state.kubeconfigPath}`;
}

/** Refuses to start a cluster that runs; removes what a dead owner left. */
async function claimName(name: string): Promise<void> {
  const state = await readState(name);
  if (state && isAlive(state.pid)) {
    throw new Error(
      `Cluster ${name} is already running (owner process ${state.pid}); stop it with: cluster down ${name}`,
    );
  }
  await rm(clusterDir(name), { recursive: true, force: true });
}

async function up(
  names: string[],
  crds: string[],
  port: number | undefined,
): Promise<void> {
  if (port !== undefined && names.length > 1) {
    throw new Error(
      '--port applies to one cluster only: start one cluster per command to give each a fixed port',
    );
  }
  for (const name of names) await claimName(name);
  const clusters = await startClusters(
    names.map(name => ({
      name,
      dir: clusterDir(name),
      crds,
      apiserverPort: port,
    })),
  );
  for (const cluster of clusters) {
    const state: ClusterState = {
      name: cluster.name,
      pid: process.pid,
      server: cluster.server,
      kubeconfigPath: cluster.kubeconfigPath,
      startedAt: new Date().toISOString(),
    };
    await writeFile(statePath(cluster.name), JSON.stringify(state, null, 2));
    process.stdout.write(`${describe(state)}\n`);
  }
  await untilSignal(clusters);
}

function untilSignal(clusters: TestCluster[]): Promise<void> {
  return new Promise(resolvePromise => {
    const stop = async (signal: string) => {
      process.stderr.write(
        `${signal}: stopping ${clusters.map(c => c.name).join(', ')}\n`,
      );
      await Promise.all(clusters.map(cluster => cluster.stop()));
      resolvePromise();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
    process.stderr.write('Clusters are up. Press Ctrl-C to stop them.\n');
  });
}

/** Starts `up` in a detached copy of this process and waits until its clusters are ready. */
async function upDetached(names: string[], argv: string[]): Promise<void> {
  for (const name of names) await claimName(name);
  await mkdir(clustersDir(), { recursive: true });
  const logPath = join(clustersDir(), `up-${names.join('-')}.log`);
  const log = openSync(logPath, 'w');
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      resolve(__filename),
      ...argv.filter(a => a !== '--detach'),
    ],
    {
      detached: true,
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (;;) {
    const states = await Promise.all(names.map(readState));
    if (states.every(state => state?.pid === child.pid)) {
      for (const state of states) process.stdout.write(`${describe(state!)}\n`);
      process.stdout.write(
        `Running in the background (process ${
          child.pid
        }, log ${logPath}). Stop with: cluster down ${names.join(' ')}\n`,
      );
      child.unref();
      return;
    }
    if (exited) {
      throw new Error(
        `Starting ${names.join(
          ', ',
        )} failed. Last lines of ${logPath}:\n${await logTail(logPath, 60)}`,
      );
    }
    await new Promise(r => setTimeout(r, 200));
  }
}

async function runningNames(): Promise<string[]> {
  const entries = await readdir(clustersDir(), { withFileTypes: true }).catch(
    () => [],
  );
  return entries
    .filter(entry => entry.isDirectory() && existsSync(statePath(entry.name)))
    .map(entry => entry.name);
}

async function down(names: string[], all: boolean): Promise<void> {
  const targets = all ? await runningNames() : names;
  if (targets.length === 0) {
    throw new Error(
      all
        ? 'No clusters are running'
        : 'Name the clusters to stop (cluster down dev), or pass --all',
    );
  }
  for (const name of targets) {
    const state = await readState(name);
    if (!state) {
      throw new Error(
        `No cluster named ${name} was started with cluster up (no ${statePath(
          name,
        )}); see: cluster status`,
      );
    }
    if (isAlive(state.pid)) {
      process.kill(state.pid, 'SIGTERM');
      const deadline = Date.now() + 30_000;
      while (isAlive(state.pid) && Date.now() < deadline)
        await new Promise(r => setTimeout(r, 100));
      if (isAlive(state.pid)) process.kill(state.pid, 'SIGKILL'); // its components follow it (parent-death signal)
    }
    await rm(clusterDir(name), { recursive: true, force: true });
    process.stdout.write(`stopped ${name}\n`);
  }
}

async function status(): Promise<void> {
  const names = await runningNames();
  if (names.length === 0)
    process.stdout.write('No clusters started with cluster up.\n');
  for (const name of names) {
    const state = (await readState(name))!;
    process.stdout.write(
      `${describe(state)}\t${
        isAlive(state.pid)
          ? `running (pid ${state.pid})`
          : 'owner gone: run cluster down'
      }\n`,
    );
  }
}

export async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      detach: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      crds: { type: 'string', multiple: true, default: [] },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...names] = positionals;
  if (values.help || !command || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (
    port !== undefined &&
    !(Number.isInteger(port) && port > 0 && port < 65536)
  ) {
    throw new Error(`--port ${values.port} is not a port number (1-65535)`);
  }
  const crds = values.crds.map(path => resolve(path));
  switch (command) {
    case 'up': {
      const clusterNames = names.length > 0 ? names : ['dev'];
      if (values.detach) await upDetached(clusterNames, argv);
      else await up(clusterNames, crds, port);
      return;
    }
    case 'down':
      await down(names, values.all);
      return;
    case 'status':
      await status();
      return;
    case 'build': {
      const path = await ensureKubeBinary();
      const { kubernetesVersion } = await kubeBinaryLocation();
      process.stdout.write(`${path}\t(Kubernetes ${kubernetesVersion})\n`);
      return;
    }
    default:
      throw new Error(`Unknown command "${command}".\n${USAGE}`);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    error => {
      process.stderr.write(
        `${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
