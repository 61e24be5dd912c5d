/**
 * Brings the local Runway Portal up: clusters, CRDs, controllers,
 * simulators, Backstage. Every step is a thin loop over the data in
 * plan.ts; a failure stops whatever was started and names the step.
 */
import {
  KubeClient,
  LEADER_ELECTION_ID_ENV,
  Namespaces,
  type ResourceType,
} from '@runway-portal/controller-runtime';
import { ensureControllerBundle } from '@runway-portal/controller-runtime/bundle';
import {
  cacheRoot,
  freePort,
  logTail,
  type ManagedProcess,
  startClusters,
  type StartClusterOptions,
  type TestCluster,
} from '@runway-portal/e2e-cluster';
import {
  gatewayApiCrdFiles,
  startLocalHub,
  upstreamCrdFiles,
  type HubStandIn,
} from '@runway-portal/e2e-simulators';
import { existsSync, readFileSync } from 'node:fs';
import {
  controllerServiceAccount,
  runRunway,
  CONTROLLER_TOKEN_SECONDS,
  serviceAccountToken,
  serviceAccountUser,
  tokenKubeconfig,
} from '@runway-portal/e2e-testing';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import {
  DEFAULT_PORTS,
  systemAppConfig,
  configuredClusters,
  type PortalPorts,
  type PortalCluster,
} from './config';
import {
  CONTROLLERS,
  entryCommand,
  entryFile,
  processCommand,
  LOCAL_GATEWAY,
  LOCAL_GATEWAY_NAMESPACE,
  LOCAL_NODES,
  SIMULATORS,
  type ControllerSpec,
} from './plan';
import { portalToken } from './portalAccess';
import { startService } from './processes';

export const DEFAULT_CLUSTERS = ['dev', 'staging'];

export interface SystemOptions {
  /** Local clusters to start; default dev and staging. */
  clusters?: string[];
  /** Start Backstage (`yarn start`); default true. `'backend'`: its backend only, no frontend (benchmarks of the REST API). */
  backstage?: boolean | 'backend';
  /** Step delay of the operator simulators (ms). */
  stepDelayMs?: number;
  /** Logs and the generated app-config; default $RUNWAY_SYSTEM_DIR or ~/.cache/runway-portal/system. */
  stateDir?: string;
  /** Where progress lines go; default stdout. */
  log?: (line: string) => void;
  /** Ports of the frontend and backend; default 3000 and 7007. */
  ports?: Partial<PortalPorts>;
  /** Read app-config.local.yaml for the user's own clusters; default true. */
  honourLocalConfig?: boolean;
  /** Nodes and component flags of each local cluster (e.g. a benchmark's capacity); default `LOCAL_NODES` (the harness's gpu-0, labelled as an 80 GiB A100, and cpu-0). */
  clusterOptions?: Pick<StartClusterOptions, 'nodes' | 'extraArgs'>;
  /** How fast the hub stand-in serves files; default 4 MiB/s (the 16 MiB demo model in about 4 s). */
  hubBytesPerSecond?: number;
}

export interface SystemService {
  cluster: string;
  name: string;
  /** The running process; `restart()` replaces it. */
  service: ManagedProcess;
  logPath: string;
  healthPort?: number;
  /** The kubeconfig the process runs with: its ServiceAccount's (controllers) or the admin's (simulators). */
  kubeconfigPath?: string;
  /** The user it acts as, e.g. system:serviceaccount:airunway-system:airunway-core; undefined for the admin. */
  user?: string;
  /**
   * Starts the process again with the same command, ports and environment,
   * appending to its log. Fails while the current process still runs: kill
   * or stop it first. A controller that exits by itself (a crash, a SIGKILL,
   * a lost leader lease) is restarted like this automatically, as the
   * kubelet restarts a pod's container: after 1 s, doubling to 30 s while
   * it keeps exiting within 10 s of its start.
   */
  restart(): ManagedProcess;
  /** How many times the process was started again. */
  restarts: number;
  /** Stops the process for good (no restart). */
  stop(graceMs?: number): Promise<unknown>;
  /**
   * SIGKILL to its process group: a crash, restarted like any exit; with
   * `restart: false` a pod that is gone (e.g. its node failed), not restarted
   * until `restart()`.
   */
  kill(options?: { restart?: boolean }): Promise<unknown>;
}

export interface RunningSystem {
  /** Local clusters (none when app-config.local.yaml configures clusters). */
  clusters: TestCluster[];
  services: SystemService[];
  /** Controllers not started because their package has no entry point yet. */
  missing: string[];
  /** The user's clusters from app-config.local.yaml, when they are used instead. */
  userClusters: string[];
  /** http://localhost:3000 (or the chosen port) when Backstage's frontend runs. */
  portalUrl?: string;
  /** http://localhost:7007 (or the chosen port) when Backstage runs. */
  backendUrl?: string;
  /** The generated app-config (ports, and the local clusters with their tokens). */
  appConfigPath?: string;
  /** How Backstage reaches each local cluster. */
  portalClusters?: PortalCluster[];
  /** The local Hugging Face Hub stand-in every local process gets as `HF_ENDPOINT`. */
  hubUrl?: string;
  stateDir: string;
  /**
   * Starts another replica of a controller of a local cluster (its own
   * health and webhook ports and log, the same identity and flags, so the
   * same leader lease), as a Deployment with two replicas runs it; stopped
   * with the rest. Resolves once it answers /readyz.
   */
  startReplica(cluster: string, name: string): Promise<SystemService>;
  /** Stops everything started, in reverse order. Safe to call twice. */
  stop(): Promise<void>;
}

/** The repository root (this package is e2e/system). */
export const REPO_ROOT = resolve(
  dirname(require.resolve('@runway-portal/e2e-system/package.json')),
  '..',
  '..',
);

/** Runway's own CRDs (generated by runway-common); the local system installs them with the CLI, benchmarks load them directly. */
export const RUNWAY_CRDS_DIR = join(REPO_ROOT, 'controllers', 'deploy', 'crds');

/** Fails with a clear message when something already listens on `port`. */
export async function assertPortFree(
  port: number,
  what: string,
): Promise<void> {
  await new Promise<void>((resolvePort, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `port ${port} for ${what} is already in use (another Backstage? see \`ss -ltnp | grep :${port}\`): stop that process or choose other ports (--port, --backend-port)`
            : `cannot listen on port ${port} for ${what}: ${err.message}`,
        ),
      ),
    );
    server.listen(port, () => server.close(() => resolvePort()));
  });
}

/** Waits until a controller answers /readyz (after a start, restart or replica); fails early when it exits. */
export async function waitServiceReady(
  service: SystemService,
  timeoutMs = 120_000,
): Promise<void> {
  if (service.healthPort === undefined)
    throw new Error(
      `${service.cluster}/${service.name} serves no /readyz (no health port): wait for what it does instead`,
    );
  await waitHttpOk(
    `http://127.0.0.1:${service.healthPort}/readyz`,
    `${service.cluster}/${service.name}`,
    service,
    timeoutMs,
  );
}

/** Polls `url` until it answers 2xx; fails early when `service` exits. */
async function waitHttpOk(
  url: string,
  what: string,
  service: SystemService,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service.service.exit) {
      throw new Error(
        `${what} exited (${JSON.stringify(
          service.service.exit,
        )}) before it was ready; last lines of ${
          service.logPath
        }:\n${await logTail(service.logPath)}`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${what} was not ready at ${url} after ${Math.round(
          timeoutMs / 1000,
        )} s; last lines of ${service.logPath}:\n${await logTail(
          service.logPath,
        )}`,
      );
    }
    await new Promise(r => setTimeout(r, 500));
  }
}

/**
 * Backstage's environment: ours without NODE_ENV, which `backstage-cli repo
 * start` sets itself (a test runner's NODE_ENV=test breaks the frontend
 * build's browserslist lookup), with `HF_ENDPOINT` set to the local hub
 * stand-in when there is one (the backend's hub search).
 */
export function backstageEnv(
  env: NodeJS.ProcessEnv,
  hubUrl?: string,
): NodeJS.ProcessEnv {
  const { NODE_ENV: _nodeEnv, ...rest } = env;
  // The backend's hub search uses the same hub as the downloader: the local stand-in.
  return hubUrl ? { ...rest, HF_ENDPOINT: hubUrl } : rest;
}

/** Reads the user's clusters from app-config.local.yaml ([] when there is none). */
export function userConfiguredClusters(root = REPO_ROOT): string[] {
  const path = join(root, 'app-config.local.yaml');
  if (!existsSync(path)) return [];
  return configuredClusters(readFileSync(path, 'utf8'), path);
}

function readPackage(dir: string): {
  name: string;
  scripts?: Record<string, string>;
} {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** The kubelet's restart back-off, shortened for local processes: 1 s, doubling to 30 s. */
export function restartDelayMs(quickExitsInARow: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, quickExitsInARow - 1));
}

/** A process that ran this long before exiting starts the back-off over. */
const STABLE_RUN_MS = 10_000;

/**
 * A service started by `spawn(false)` whose `restart()` calls `spawn(true)`
 * (same command, log appended); with `autoRestart`, an exit that is not
 * `stop()` restarts it after `restartDelayMs`.
 */
class RestartableService implements SystemService {
  readonly cluster: string;
  readonly name: string;
  readonly logPath: string;
  readonly healthPort?: number;
  readonly kubeconfigPath?: string;
  readonly user?: string;
  service: ManagedProcess;
  restarts = 0;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private quickExits = 0;

  constructor(
    base: Omit<
      SystemService,
      'service' | 'restart' | 'restarts' | 'stop' | 'kill'
    >,
    private readonly spawn: (appendLog: boolean) => ManagedProcess,
    private readonly autoRestart: boolean,
  ) {
    this.cluster = base.cluster;
    this.name = base.name;
    this.logPath = base.logPath;
    this.healthPort = base.healthPort;
    this.kubeconfigPath = base.kubeconfigPath;
    this.user = base.user;
    this.service = spawn(false);
    this.watch(this.service);
  }

  restart(): ManagedProcess {
    if (!this.service.exit)
      throw new Error(
        `${this.cluster || 'local'}/${this.name} (pid ${
          this.service.pid
        }) still runs: kill() or stop() its process before restart()`,
      );
    clearTimeout(this.timer);
    this.stopped = false;
    this.service = this.spawn(true);
    this.restarts++;
    this.watch(this.service);
    return this.service;
  }

  stop(graceMs?: number): Promise<unknown> {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.service.stop(graceMs);
  }

  kill(options: { restart?: boolean } = {}): Promise<unknown> {
    if (options.restart === false) {
      this.stopped = true;
      clearTimeout(this.timer);
    }
    return this.service.kill('SIGKILL');
  }

  private watch(proc: ManagedProcess): void {
    const startedAt = Date.now();
    if (!this.autoRestart) return;
    void proc.exited.then(() => {
      if (this.stopped || this.service !== proc) return;
      this.quickExits =
        Date.now() - startedAt < STABLE_RUN_MS ? this.quickExits + 1 : 1;
      this.timer = setTimeout(() => {
        if (!this.stopped && this.service === proc) this.restart();
      }, restartDelayMs(this.quickExits));
    });
  }
}

export async function startSystem(
  options: SystemOptions = {},
): Promise<RunningSystem> {
  const log =
    options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const stateDir =
    options.stateDir ??
    process.env.RUNWAY_SYSTEM_DIR ??
    join(cacheRoot(), 'system');
  const logDir = join(stateDir, 'logs');
  await mkdir(logDir, { recursive: true });

  const clusters: TestCluster[] = [];
  const services: SystemService[] = [];
  const missing: string[] = [];
  /** How to start one more process of a controller, by `<cluster>/<name>`. */
  const launchers = new Map<string, Launcher>();
  let hub: HubStandIn | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Backstage first (it watches the clusters), then controllers, then clusters.
      const [portal, rest] = [
        services.filter(s => s.name === 'backstage'),
        services.filter(s => s.name !== 'backstage'),
      ];
      await Promise.all(portal.map(s => s.stop(10_000)));
      await Promise.all(rest.map(s => s.stop()));
      await Promise.all(clusters.map(c => c.stop()));
      await hub?.close();
    })());

  const system: RunningSystem = {
    clusters,
    services,
    missing,
    userClusters: [],
    stateDir,
    async startReplica(cluster, name) {
      const launch = launchers.get(`${cluster}/${name}`);
      if (!launch)
        throw new Error(
          `no controller ${name} runs in local cluster ${cluster}: choose one of ${[
            ...launchers.keys(),
          ].join(', ')}`,
        );
      const index = services.filter(
        s => s.cluster === cluster && s.name === name,
      ).length;
      const replica = await launch(
        `${cluster}-${name}-${index + 1}.log`,
        `${cluster}-${name}-${index + 1}`,
      );
      services.push(replica);
      log(
        `  ${cluster}/${name} replica ${index + 1}: pid ${
          replica.service.pid
        }, log ${replica.logPath}`,
      );
      await waitServiceReady(replica);
      return replica;
    },
    stop,
  };

  try {
    let controllersReady: Promise<unknown> = Promise.resolve();
    const userClusters =
      options.honourLocalConfig ?? true ? userConfiguredClusters() : [];
    const configFiles = [join(REPO_ROOT, 'app-config.yaml')];
    if (userClusters.length > 0) {
      system.userClusters = userClusters;
      configFiles.push(join(REPO_ROOT, 'app-config.local.yaml'));
      log(
        `app-config.local.yaml configures clusters (${userClusters.join(
          ', ',
        )}): using them, starting no local clusters`,
      );
    } else {
      if (existsSync(join(REPO_ROOT, 'app-config.local.yaml'))) {
        configFiles.push(join(REPO_ROOT, 'app-config.local.yaml'));
      }
      const names = options.clusters ?? DEFAULT_CLUSTERS;
      log(
        `starting local clusters ${names.join(
          ', ',
        )} (the first start on a machine builds the binaries: minutes)`,
      );
      // The upstream runtimes' CRDs, and the Gateway API's Gateway and HTTPRoute as the
      // simulators' stand-ins (not upstream's CRDs); Runway's own come with the CLI's install.
      const crds = [...upstreamCrdFiles(), ...gatewayApiCrdFiles()];
      // Bundled while the clusters start (seconds; nothing when current).
      const bundling = ensureBundles(log);
      bundling.catch(() => {}); // awaited below; a cluster failure must not leave it unhandled
      clusters.push(
        ...(await startClusters(
          names.map(name => ({
            ...options.clusterOptions,
            nodes: options.clusterOptions?.nodes ?? LOCAL_NODES,
            name,
            crds,
          })),
        )),
      );
      const bundleFailures = await bundling;
      for (const c of clusters)
        log(`  cluster ${c.name}: ${c.server}  KUBECONFIG=${c.kubeconfigPath}`);
      for (const line of await Promise.all(clusters.map(installRunway)))
        log(line);

      // One hub stand-in for every cluster: the demo model the Models download, and the
      // GGUF repository KAITO's llama.cpp deployments list (no hub is reachable from here).
      hub = await startLocalHub(options.hubBytesPerSecond);
      system.hubUrl = hub.url;
      log(`  hub stand-in: ${hub.url} (HF_ENDPOINT of every local process)`);
      const portalClusters: PortalCluster[] = [];
      for (const cluster of clusters) {
        portalClusters.push(await preparePortalAccess(cluster));
        await createLocalGateway(cluster);
        await startClusterServices(
          cluster,
          { ...options, hubUrl: hub.url },
          logDir,
          { services, missing, launchers },
          bundleFailures,
          log,
        );
      }
      for (const line of missing) log(`  NOT STARTED: ${line}`);
      log('waiting for the controllers to be ready');
      // Backstage (the longest start) starts meanwhile: awaited together below.
      controllersReady = Promise.all(
        services
          .filter(s => s.healthPort !== undefined)
          .map(s => waitServiceReady(s)),
      );
      controllersReady.catch(() => {}); // awaited below; not unhandled while Backstage starts
      system.portalClusters = portalClusters;
    }
    if (options.backstage ?? true) {
      const ports = { ...DEFAULT_PORTS, ...options.ports };
      await assertPortFree(ports.app, 'the Backstage frontend');
      await assertPortFree(ports.backend, 'the Backstage backend');
      const appConfigPath = join(stateDir, 'app-config.system.yaml');
      await writeFile(
        appConfigPath,
        systemAppConfig(
          ports,
          userClusters.length > 0 ? undefined : system.portalClusters,
        ),
        { mode: 0o600 }, // holds the clusters' tokens
      );
      system.appConfigPath = appConfigPath;
      configFiles.push(appConfigPath);
      const logPath = join(logDir, 'backstage.log');
      const backendOnly = options.backstage === 'backend';
      const args = [
        'start',
        ...(backendOnly ? ['packages/backend'] : []),
        ...configFiles.flatMap(f => ['--config', f]),
      ];
      log(`starting Backstage: yarn ${args.join(' ')}  (log: ${logPath})`);
      const spawn = (appendLog: boolean) =>
        startService('backstage', 'yarn', args, {
          cwd: REPO_ROOT,
          env: backstageEnv(process.env, system.hubUrl),
          logPath,
          appendLog,
        });
      const portal = new RestartableService(
        { cluster: '', name: 'backstage', logPath },
        spawn,
        false, // a failed start must fail the command, not loop
      );
      services.push(portal);
      const portalUrl = `http://localhost:${ports.app}`;
      const backendUrl = `http://localhost:${ports.backend}`;
      const backstageReady = (async () => {
        await waitHttpOk(
          `${backendUrl}/.backstage/health/v1/readiness`,
          'the Backstage backend',
          portal,
          300_000,
        );
        system.backendUrl = backendUrl;
        if (!backendOnly) {
          await waitHttpOk(
            portalUrl,
            'the Backstage frontend',
            portal,
            300_000,
          );
          system.portalUrl = portalUrl;
        }
      })();
      // Fails as soon as either fails (the catch below stops everything).
      await Promise.all([controllersReady, backstageReady]);
    }
    await controllersReady;
    return system;
  } catch (err) {
    await stop();
    throw err;
  }
}

async function preparePortalAccess(
  cluster: TestCluster,
): Promise<PortalCluster> {
  const client = new KubeClient(cluster.kubeConfig());
  try {
    const caData = cluster.kubeConfig().getCurrentCluster()?.caData;
    if (!caData)
      throw new Error(
        `the kubeconfig of cluster ${cluster.name} has no CA data`,
      );
    return {
      name: cluster.name,
      title: `${cluster.name} (local)`,
      url: cluster.server,
      serviceAccountToken: await portalToken(client),
      caData,
    };
  } finally {
    client.close();
  }
}

const Gateways: ResourceType = {
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  plural: 'gateways',
  kind: 'Gateway',
  namespaced: true,
};

/** The Gateway deployments are routed through (`LOCAL_GATEWAY`); the gateway simulator programs it. */
async function createLocalGateway(cluster: TestCluster): Promise<void> {
  const client = new KubeClient(cluster.kubeConfig());
  const options = { fieldManager: 'runway-system', force: true };
  try {
    await client.apply(
      Namespaces,
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: LOCAL_GATEWAY_NAMESPACE },
      },
      options,
    );
    await client.apply(Gateways, LOCAL_GATEWAY, options);
  } finally {
    client.close();
  }
}

/**
 * Builds the bundle of every controller whose bundle is missing or older
 * than its sources (what its image runs: see controller-runtime's
 * bundle/). Returns why a package could not be bundled, by folder.
 */
async function ensureBundles(
  log: (line: string) => void,
): Promise<Map<string, string>> {
  const failures = new Map<string, string>();
  await Promise.all(
    CONTROLLERS.filter(spec => spec.runs === 'bundle').map(async spec => {
      const dir = join(REPO_ROOT, spec.packageDir);
      if (!existsSync(join(dir, 'package.json'))) return; // reported when starting
      try {
        const pkg = readPackage(dir);
        const entry = entryFile(entryCommand(pkg.name, pkg.scripts?.start));
        const result = await ensureControllerBundle(dir, entry);
        if (result.built) {
          log(
            `  bundled ${spec.packageDir} in ${result.ms} ms (${result.reason})`,
          );
        }
      } catch (err) {
        failures.set(spec.packageDir, (err as Error).message);
      }
    }),
  );
  return failures;
}

/** Starts one process of a controller, with fresh ports, logging to `logFile` in the log folder; `slot` names it in leader election. */
type Launcher = (logFile: string, slot: string) => Promise<SystemService>;

/** Starts the controllers that exist, and the simulators, against one cluster. */
async function startClusterServices(
  cluster: TestCluster,
  options: SystemOptions & { hubUrl: string },
  logDir: string,
  started: {
    services: SystemService[];
    missing: string[];
    launchers: Map<string, Launcher>;
  },
  bundleFailures: ReadonlyMap<string, string>,
  log: (line: string) => void,
): Promise<void> {
  const { services, missing } = started;
  const specs: ControllerSpec[] = [...CONTROLLERS, SIMULATORS];
  // The model PVCs' stand-in folders and the download pods' logs (model operator and simulator).
  const modelsDir = join(logDir, '..', 'models', cluster.name);
  for (const spec of specs) {
    const dir = join(REPO_ROOT, spec.packageDir);
    if (!existsSync(join(dir, 'package.json'))) {
      missing.push(
        `${cluster.name}/${spec.name}: ${spec.packageDir} has no package.json yet`,
      );
      continue;
    }
    const pkg = readPackage(dir);
    const bundleFailure = bundleFailures.get(spec.packageDir);
    if (bundleFailure) {
      missing.push(
        `${cluster.name}/${spec.name}: could not bundle: ${bundleFailure}`,
      );
      continue;
    }
    let command;
    try {
      command = processCommand(
        spec,
        entryCommand(pkg.name, pkg.scripts?.start),
      );
    } catch (err) {
      missing.push(`${cluster.name}/${spec.name}: ${(err as Error).message}`);
      continue;
    }
    if (!existsSync(join(dir, entryFile(command)))) {
      missing.push(
        `${cluster.name}/${spec.name}: entry point ${
          spec.packageDir
        }/${entryFile(command)} does not exist yet`,
      );
      continue;
    }
    const access = spec.component
      ? await controllerKubeconfig(cluster, spec.name, spec.component, logDir)
      : undefined;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      KUBECONFIG: access?.kubeconfigPath ?? cluster.kubeconfigPath,
      HF_ENDPOINT: options.hubUrl,
    };
    if (options.stepDelayMs !== undefined) {
      env.RUNWAY_SIMULATOR_STEP_DELAY_MS = String(options.stepDelayMs);
    }
    const nodeArgs = command.nodeArgs;
    const launch: Launcher = async (logFile, slot) => {
      const healthPort = spec.probes ? await freePort() : undefined;
      const webhookPort = await freePort(); // one per process: the core, the model and the stack operators serve webhooks
      const logPath = join(logDir, logFile);
      const spawn = (appendLog: boolean) =>
        startService(
          `${cluster.name}-${spec.name}`,
          process.execPath,
          [
            ...nodeArgs,
            ...spec.args({
              webhookPort,
              healthPort: healthPort ?? 0,
              modelsDir,
              clusterDir: cluster.dir,
            }),
          ],
          {
            cwd: dir,
            // Its leader-election identity: the same after a restart, as a pod's name.
            env: { ...env, [LEADER_ELECTION_ID_ENV]: slot },
            logPath,
            appendLog,
          },
        );
      return new RestartableService(
        {
          cluster: cluster.name,
          name: spec.name,
          logPath,
          healthPort,
          kubeconfigPath: access?.kubeconfigPath ?? cluster.kubeconfigPath,
          user: access?.user,
        },
        spawn,
        true,
      );
    };
    started.launchers.set(`${cluster.name}/${spec.name}`, launch);
    const service = await launch(
      `${cluster.name}-${spec.name}.log`,
      `${cluster.name}-${spec.name}`,
    );
    services.push(service);
    log(
      `  ${cluster.name}/${spec.name}: pid ${service.service.pid}, as ${
        access?.user ?? 'cluster-admin'
      }, log ${service.logPath}`,
    );
  }
}

/**
 * Installs Runway into a local cluster the way a user does, through the
 * CLI's own command: `runway install --all --out-of-cluster` (namespace,
 * CRDs, each controller's ServiceAccount, RBAC and admission policy, its
 * webhook configurations empty for it to fill in; no Deployments, since
 * the controllers run here as processes). Returns the CLI's summary line.
 */
export async function installRunway(cluster: TestCluster): Promise<string> {
  const args = [
    'install',
    '--all',
    '--out-of-cluster',
    '--kubeconfig',
    cluster.kubeconfigPath,
  ];
  const lines = await runRunway(args);
  return `  cluster ${cluster.name}: runway ${args
    .slice(0, 3)
    .join(' ')}: ${lines.at(-1)}`;
}

/**
 * Writes a kubeconfig (mode 0600, next to the logs) with a token for the
 * ServiceAccount the CLI installed for a controller's bundle.
 */
async function controllerKubeconfig(
  cluster: TestCluster,
  name: string,
  component: string,
  logDir: string,
): Promise<{ kubeconfigPath: string; user: string }> {
  const admin = new KubeClient(cluster.kubeConfig());
  try {
    const account = controllerServiceAccount(component);
    const token = await serviceAccountToken(
      admin,
      account,
      CONTROLLER_TOKEN_SECONDS,
    );
    const caData = cluster.kubeConfig().getCurrentCluster()?.caData;
    if (!caData)
      throw new Error(
        `the kubeconfig of cluster ${cluster.name} has no CA data`,
      );
    const user = serviceAccountUser(account);
    const kubeconfigPath = join(
      logDir,
      '..',
      'kubeconfigs',
      `${cluster.name}-${name}.yaml`,
    );
    await mkdir(dirname(kubeconfigPath), { recursive: true });
    await writeFile(
      kubeconfigPath,
      tokenKubeconfig({
        cluster: cluster.name,
        server: cluster.server,
        caData,
        user: account.name,
        token,
      }),
      { mode: 0o600 }, // holds the token
    );
    return { kubeconfigPath, user };
  } finally {
    admin.close();
  }
}
