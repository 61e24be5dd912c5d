import { CoreV1Api, KubeConfig, type V1Node } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureKubeBinary } from './binary';
import { installCrds, type InstalledCrds } from './crds';
import { renderKubeconfig } from './kubeconfig';
import {
  clusterLayout,
  componentArgs,
  COMPONENTS,
  logPath,
  serverUrl,
  SERVICE_IP,
  SUBCOMMANDS,
  type ClusterLayout,
  type Component,
} from './layout';
import {
  DEFAULT_NODES,
  nodeManifest,
  validateNodeSpec,
  type NodeSpec,
} from './nodes';
import { assertPortFree, freePort } from './ports';
import {
  logTail,
  ManagedProcess,
  processMemory,
  removeDirOnExit,
  type ProcessMemory,
} from './processes';
import { httpsStatus, type ClientTls } from './tls';
import { apiErrorMessage, StopWaiting, waitFor } from './wait';

export interface StartClusterOptions {
  /** Unique per test file; lower-case letters, digits and '-'. */
  name: string;
  /** kwok nodes; default one GPU node (gpu-0, 4 GPUs) and one CPU node (cpu-0). */
  nodes?: NodeSpec[];
  /**
   * CRD files or folders, installed and waited Established before
   * kube-controller-manager starts, so its garbage collector knows them at once.
   */
  crds?: string[];
  /** Fixed port for the API server; default a free port. */
  apiserverPort?: number;
  /** Folder for the cluster's files (removed by stop()); default a fresh one under the OS temp dir. */
  dir?: string;
  /** Limit for each readiness step (default 60 s). */
  timeoutMs?: number;
  /** Extra flags per component, e.g. `{ 'kube-apiserver': ['--feature-gates=...'] }`. */
  extraArgs?: Partial<Record<Component, string[]>>;
}

export interface TestCluster {
  readonly name: string;
  /** https://127.0.0.1:PORT */
  readonly server: string;
  /** Admin kubeconfig (certificates embedded). */
  readonly kubeconfigPath: string;
  /** The folder with this cluster's data, certificates and logs. */
  readonly dir: string;
  /** A fresh KubeConfig for the admin user. */
  kubeConfig(): KubeConfig;
  /**
   * Installs the CRDs in files or folders (multi-document YAML too) and waits
   * until they are Established. The garbage collector picks up types added
   * after start within 30 s; CRDs given to startCluster are known at once.
   */
  installCrds(paths: string[]): Promise<InstalledCrds>;
  /** Creates kwok nodes and waits until they are Ready and schedulable. */
  createNodes(nodes: NodeSpec[]): Promise<V1Node[]>;
  /** Stops kube-apiserver, kube-controller-manager and kube-scheduler; etcd (and its data) and kwok stay. */
  stopControlPlane(): Promise<void>;
  /** Starts them again on the same port and waits until the API server is ready. */
  startControlPlane(): Promise<void>;
  /** Stops every process of this cluster and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
  /** Process id of each running component. */
  pids(): Partial<Record<Component, number>>;
  /** Memory in bytes (RSS and PSS) of each running component. */
  memoryUsage(): Promise<Partial<Record<Component, ProcessMemory>>>;
  /** Log file of a component. */
  logPath(component: Component): string;
}

const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;
const CONTROL_PLANE: readonly Component[] = [
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
];
/** Base folder of the default cluster folders, `<name>-<pid of the owner>`. */
export const DEFAULT_CLUSTERS_DIR = join(tmpdir(), 'runway-e2e-clusters');

/** With RUNWAY_CLUSTER_TRACE=1, prints the time of each start-up step to stderr. */
function traceFor(name: string): (step: string) => void {
  if (!process.env.RUNWAY_CLUSTER_TRACE) return () => {};
  const started = Date.now();
  return step =>
    process.stderr.write(`[${name}] +${Date.now() - started} ms ${step}\n`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes default cluster folders left by processes that died (kill -9). */
async function pruneStaleClusterDirs(): Promise<void> {
  const entries = await readdir(DEFAULT_CLUSTERS_DIR).catch(
    () => [] as string[],
  );
  await Promise.all(
    entries.map(async entry => {
      const owner = Number(/-(\d+)$/.exec(entry)?.[1]);
      if (owner && owner !== process.pid && !isAlive(owner)) {
        await rm(join(DEFAULT_CLUSTERS_DIR, entry), {
          recursive: true,
          force: true,
        });
      }
    }),
  );
}

export function validateStartOptions(options: StartClusterOptions): void {
  if (typeof options?.name !== 'string' || !CLUSTER_NAME.test(options.name)) {
    throw new Error(
      `startCluster: name ${JSON.stringify(
        options?.name,
      )} is invalid: use 1-40 lower-case letters, digits and '-', starting and ending with a letter or digit (e.g. "runtime-test")`,
    );
  }
  options.nodes?.forEach(validateNodeSpec);
  const names = (options.nodes ?? []).map(node => node.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) {
    throw new Error(
      `startCluster: nodes has two nodes named "${duplicate}": node names must be unique`,
    );
  }
  for (const [component, args] of Object.entries(options.extraArgs ?? {})) {
    if (!(COMPONENTS as readonly string[]).includes(component)) {
      throw new Error(
        `startCluster: extraArgs has unknown component "${component}": use one of ${COMPONENTS.join(
          ', ',
        )}`,
      );
    }
    if (!Array.isArray(args) || args.some(arg => typeof arg !== 'string')) {
      throw new Error(
        `startCluster: extraArgs["${component}"] must be an array of strings such as ["--v=2"]`,
      );
    }
  }
  const port = options.apiserverPort;
  if (
    port !== undefined &&
    (!Number.isInteger(port) || port < 1 || port > 65535)
  ) {
    throw new Error(
      `startCluster: apiserverPort must be a whole number from 1 to 65535, got ${JSON.stringify(
        port,
      )}`,
    );
  }
}

class LocalCluster implements TestCluster {
  readonly server: string;
  readonly kubeconfigPath: string;
  readonly dir: string;
  private readonly processes = new Map<Component, ManagedProcess>();
  private tls: ClientTls | undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly name: string,
    private readonly binary: string,
    private readonly layout: ClusterLayout,
    private readonly timeoutMs: number,
    private readonly extraArgs: Partial<Record<Component, string[]>> = {},
  ) {
    this.server = serverUrl(layout.ports);
    this.kubeconfigPath = layout.kubeconfigPath;
    this.dir = layout.dir;
  }

  kubeConfig(): KubeConfig {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(this.kubeconfigPath);
    return kubeConfig;
  }

  logPath(component: Component): string {
    return logPath(this.layout, component);
  }

  pids(): Partial<Record<Component, number>> {
    const pids: Partial<Record<Component, number>> = {};
    for (const [component, child] of this.processes) {
      if (!child.exit && child.pid) pids[component] = child.pid;
    }
    return pids;
  }

  async memoryUsage(): Promise<Partial<Record<Component, ProcessMemory>>> {
    const usage: Partial<Record<Component, ProcessMemory>> = {};
    for (const [component, pid] of Object.entries(this.pids()) as Array<
      [Component, number]
    >) {
      usage[component] = await processMemory(pid);
    }
    return usage;
  }

  /** Runs the whole start sequence; on failure the caller stops the cluster. */
  async start(options: StartClusterOptions): Promise<void> {
    const { layout } = this;
    const trace = traceFor(this.name);
    await Promise.all(
      [layout.certsDir, layout.logsDir, layout.etcdDataDir].map(dir =>
        mkdir(dir, { recursive: true, mode: 0o700 }),
      ),
    );
    this.spawn('etcd');
    await this.writeCertsAndKubeconfig();
    trace('certificates written');
    // The scheduler and kwok retry until the API server answers, so starting
    // them now overlaps their start-up with the API server's.
    for (const component of [
      'kube-apiserver',
      'kube-scheduler',
      'kwok',
    ] as const) {
      this.spawn(component);
    }
    // The garbage collector discovers resource types when it starts and then
    // only every 30 s: with CRDs to install, start it after them, so objects
    // owned by custom resources are collected from the first second.
    const crds = options.crds ?? [];
    if (crds.length === 0) this.spawn('kube-controller-manager');
    await this.waitForApiServer();
    trace('kube-apiserver ready');
    await Promise.all([
      (async () => {
        if (crds.length > 0) {
          await this.installCrds(crds);
          trace('CRDs established');
          this.spawn('kube-controller-manager');
        }
        await this.waitForDefaultServiceAccount();
        trace('default ServiceAccount created');
      })(),
      this.createNodes(options.nodes ?? [...DEFAULT_NODES]).then(() =>
        trace('nodes ready'),
      ),
    ]);
  }

  private spawn(component: Component): void {
    const child = new ManagedProcess(
      component,
      this.binary,
      [
        SUBCOMMANDS[component],
        ...componentArgs(component, this.layout),
        ...(this.extraArgs[component] ?? []),
      ],
      this.logPath(component),
    );
    this.processes.set(component, child);
  }

  private async writeCertsAndKubeconfig(): Promise<void> {
    const { certsDir } = this.layout;
    const logFile = join(this.layout.logsDir, 'certs.log');
    const certs = new ManagedProcess(
      'certs',
      this.binary,
      ['certs', `--dir=${certsDir}`, `--service-ip=${SERVICE_IP}`],
      logFile,
    );
    const exit = await certs.exited;
    if (exit.code !== 0) {
      throw new Error(
        `Generating the cluster certificates failed (${
          this.binary
        } certs exited with ${exit.code ?? exit.signal}):\n${await logTail(
          logFile,
        )}`,
      );
    }
    const read = (file: string) => readFile(join(certsDir, file), 'utf8');
    const [ca, cert, key] = await Promise.all([
      read('ca.crt'),
      read('admin.crt'),
      read('admin.key'),
    ]);
    this.tls = { ca, cert, key };
    await writeFile(
      this.kubeconfigPath,
      renderKubeconfig({
        name: this.name,
        server: this.server,
        caPem: ca,
        clientCertPem: cert,
        clientKeyPem: key,
      }),
      { mode: 0o600 },
    );
  }

  /** Throws StopWaiting with the log tail when a component has exited. */
  private async assertRunning(components: readonly Component[]): Promise<void> {
    for (const component of components) {
      const exit = this.processes.get(component)?.exit;
      if (exit) {
        throw new StopWaiting(
          `${component} of cluster ${this.name} exited (${
            exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal}`
          }) before the cluster was ready. ` +
            `Last lines of ${this.logPath(component)}:\n${await logTail(
              this.logPath(component),
            )}`,
        );
      }
    }
  }

  private explainWith(component: Component) {
    return async () =>
      `Last lines of ${this.logPath(component)}:\n${await logTail(
        this.logPath(component),
      )}`;
  }

  private async waitForApiServer(): Promise<void> {
    await waitFor(
      `kube-apiserver of cluster ${this.name} at ${this.server}/readyz`,
      async () => {
        await this.assertRunning(['etcd', 'kube-apiserver']);
        return (await httpsStatus(`${this.server}/readyz`, this.tls!)) === 200;
      },
      {
        timeoutMs: this.timeoutMs,
        intervalMs: 100,
        explain: this.explainWith('kube-apiserver'),
      },
    );
  }

  private async waitForDefaultServiceAccount(): Promise<void> {
    const core = this.kubeConfig().makeApiClient(CoreV1Api);
    await waitFor(
      `the default ServiceAccount of cluster ${this.name} (created by kube-controller-manager)`,
      async () => {
        await this.assertRunning(['kube-controller-manager']);
        await core.readNamespacedServiceAccount({
          name: 'default',
          namespace: 'default',
        });
        return true;
      },
      {
        timeoutMs: this.timeoutMs,
        explain: this.explainWith('kube-controller-manager'),
      },
    );
  }

  async installCrds(paths: string[]): Promise<InstalledCrds> {
    return installCrds(this.kubeConfig(), paths, this.timeoutMs);
  }

  async createNodes(nodes: NodeSpec[]): Promise<V1Node[]> {
    nodes.forEach(validateNodeSpec);
    const core = this.kubeConfig().makeApiClient(CoreV1Api);
    await Promise.all(
      nodes.map(async spec => {
        try {
          await core.createNode({ body: nodeManifest(spec) });
        } catch (error) {
          throw new Error(
            `Creating node ${spec.name} in cluster ${
              this.name
            } failed: ${apiErrorMessage(error)}`,
          );
        }
      }),
    );
    const ready: V1Node[] = [];
    await Promise.all(
      nodes.map(spec =>
        waitFor(
          `node ${spec.name} of cluster ${this.name} to be Ready and schedulable (kwok sets Ready; kube-controller-manager then removes the not-ready taint)`,
          async () => {
            await this.assertRunning(['kwok', 'kube-controller-manager']);
            const node = await core.readNode({ name: spec.name });
            const isReady = node.status?.conditions?.some(
              c => c.type === 'Ready' && c.status === 'True',
            );
            const notReadyTaint = node.spec?.taints?.some(t =>
              t.key.startsWith('node.kubernetes.io/'),
            );
            if (isReady && !notReadyTaint) ready.push(node);
            return Boolean(isReady && !notReadyTaint);
          },
          { timeoutMs: this.timeoutMs, explain: this.explainWith('kwok') },
        ),
      ),
    );
    return ready;
  }

  async stopControlPlane(): Promise<void> {
    await Promise.all(
      CONTROL_PLANE.map(component => this.processes.get(component)?.stop()),
    );
  }

  async startControlPlane(): Promise<void> {
    await assertPortFree(
      this.layout.ports.apiserver,
      `kube-apiserver of cluster ${this.name}`,
    );
    for (const component of CONTROL_PLANE) {
      if (!this.processes.get(component) || this.processes.get(component)?.exit)
        this.spawn(component);
    }
    await this.waitForApiServer();
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // etcd last, so the others do not log connection errors while stopping.
      const others = [...this.processes.entries()].filter(
        ([component]) => component !== 'etcd',
      );
      await Promise.all(others.map(([, child]) => child.stop()));
      await this.processes.get('etcd')?.stop();
      await rm(this.dir, { recursive: true, force: true });
      removeDirOnExit(this.dir, false);
    })();
    return this.stopping;
  }
}

/**
 * Starts a Kubernetes control plane (etcd, kube-apiserver,
 * kube-controller-manager, kube-scheduler) and kwok on loopback ports, creates
 * the kwok nodes, installs the CRDs, and resolves when all is ready.
 */
export async function startCluster(
  options: StartClusterOptions,
): Promise<TestCluster> {
  validateStartOptions(options);
  const binary = await ensureKubeBinary();
  await pruneStaleClusterDirs();

  const dir =
    options.dir ?? join(DEFAULT_CLUSTERS_DIR, `${options.name}-${process.pid}`);
  if (existsSync(dir) && (await readdir(dir)).length > 0) {
    throw new Error(
      options.dir
        ? `Cluster folder ${dir} is not empty: stop the cluster using it, or remove the folder`
        : `A cluster named "${options.name}" is already running in this process: give each cluster a unique name`,
    );
  }
  await mkdir(dir, { recursive: true });
  removeDirOnExit(dir, true);

  let cluster: LocalCluster | undefined;
  try {
    if (options.apiserverPort !== undefined) {
      await assertPortFree(
        options.apiserverPort,
        `kube-apiserver of cluster ${options.name}`,
      );
    }
    const ports = {
      apiserver: options.apiserverPort ?? (await freePort()),
      etcdClient: await freePort(),
      etcdPeer: await freePort(),
    };
    cluster = new LocalCluster(
      options.name,
      binary,
      clusterLayout(dir, ports),
      options.timeoutMs ?? 60_000,
      options.extraArgs,
    );
    await cluster.start(options);
    return cluster;
  } catch (error) {
    if (cluster) await cluster.stop();
    else await rm(dir, { recursive: true, force: true });
    removeDirOnExit(dir, false);
    throw error;
  }
}

/** Starts several clusters at once; if one fails, stops the others and throws. */
export async function startClusters(
  options: StartClusterOptions[],
): Promise<TestCluster[]> {
  const names = options.map(option => option.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) {
    throw new Error(
      `startClusters: two clusters are named "${duplicate}": names must be unique`,
    );
  }
  const results = await Promise.allSettled(options.map(startCluster));
  const failures = results.filter(
    (result): result is PromiseRejectedResult => result.status === 'rejected',
  );
  if (failures.length > 0) {
    await Promise.all(
      results.map(result =>
        result.status === 'fulfilled' ? result.value.stop() : undefined,
      ),
    );
    throw failures[0].reason;
  }
  return results.map(
    result => (result as PromiseFulfilledResult<TestCluster>).value,
  );
}
