import os from 'node:os';
import type { ReconnectSource } from '../kube/connectivity';
import { Applier } from '../apply/applier';
import { SharedInformerFactory } from '../cache/sharedInformers';
import { ControllerBuilder, ControllerHost } from '../controller/builder';
import type { Controller } from '../controller/controller';
import { KubeClient } from '../kube/client';
import { leaderIdentity } from '../leader/lease';
import { LeaderElector } from '../leader/leaderElector';
import { ControllerMetrics } from '../metrics/metrics';
import { EventRecorder } from '../observability/eventRecorder';
import { createLogger, Logger } from '../observability/logger';
import { CertManager, CertManagerOptions } from '../webhook/certManager';
import { WebhookServer } from '../webhook/server';
import { Check, HttpEndpoints, runChecks } from './httpServer';

/** @public */
export interface BindAddress {
  host?: string;
  /** 0 picks a free port. */
  port: number;
}

/** A manager's leader-election Lease unless it names its own (its Role in controllers/deploy names it). @public */
export function defaultLeaseName(managerName: string): string {
  return `${managerName}-leader`;
}

/** @public */
export interface LeaderElectionOptions {
  /** Namespace of the Lease (usually the controller's own). */
  namespace: string;
  /** Default `<manager name>-leader`. */
  leaseName?: string;
  /** Default `leaderIdentity`: `$LEADER_ELECTION_ID`, the pod's name in a cluster, else `<hostname>_<random>`. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/** @public */
export interface WebhookOptions {
  host?: string;
  /** Default 9443. */
  port?: number;
  certificates: Omit<CertManagerOptions, 'logger'>;
}

/** @public */
export interface ManagerOptions {
  /** Names the controller process in logs, the Lease and the event source. */
  name: string;
  /** A ready client; otherwise one is loaded from `kubeconfigPath` or in-cluster/default config. */
  client?: KubeClient;
  kubeconfigPath?: string;
  logger?: Logger;
  /** Default port 8080; `false` disables the metrics endpoint. */
  metrics?: BindAddress | false;
  /** Default port 8081; `false` disables /healthz and /readyz. */
  healthProbes?: BindAddress | false;
  /** Leader election; `false` (the default) means every replica reconciles. */
  leaderElection?: LeaderElectionOptions | false;
  webhook?: WebhookOptions;
  /** How long in-flight reconciles may run on shutdown; default 30 s. */
  gracefulShutdownTimeoutMs?: number;
  /** Stop gracefully on SIGTERM and SIGINT; default true. */
  handleSignals?: boolean;
  /** Informer tuning shared by every informer of this manager. */
  informers?: { silenceTimeoutMs?: number; pageSize?: number };
}

/** The manager lost its leader lease; the process should exit and restart. @public */
export class LeaderElectionLostError extends Error {
  readonly name = 'LeaderElectionLostError';
}

/**
 * Ties controllers, shared informers, leader election, metrics, probes,
 * the webhook server and graceful shutdown together, like
 * controller-runtime's manager:
 *
 *   const mgr = new Manager({ name: 'airunway-core', leaderElection: { namespace: 'airunway-system' } });
 *   mgr.controller().for(ModelDeployments).owns(Deployments).complete(reconcile);
 *   await mgr.start(); // until SIGTERM
 *
 * @public
 */
export class Manager implements ControllerHost {
  readonly client: KubeClient;
  readonly logger: Logger;
  readonly metrics: ControllerMetrics;
  readonly informers: SharedInformerFactory;
  readonly webhookServer?: WebhookServer;
  /** The client's reconnects: controllers retry their failed keys when the API server answers again. */
  get reconnects(): ReconnectSource {
    return this.client.connectivity;
  }
  readonly certManager?: CertManager;
  private readonly controllers: Controller[] = [];
  private readonly recorders: EventRecorder[] = [];
  private readonly elector?: LeaderElector;
  private readonly healthChecks = new Map<string, Check>();
  private readonly readyChecks = new Map<string, Check>();
  private metricsServer?: HttpEndpoints;
  private probeServer?: HttpEndpoints;
  private leading = false;
  private leadingWaiters: Array<() => void> = [];
  private readonly stopController = new AbortController();
  private stopping?: Promise<void>;
  private finish?: { resolve: () => void; reject: (err: Error) => void };
  private started = false;
  private signalHandler?: () => void;

  constructor(private readonly options: ManagerOptions) {
    if (
      !options.name ||
      !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(options.name)
    ) {
      throw new Error(
        `manager name "${options.name}" is not valid: use lower-case letters, digits and "-", e.g. "runway-core"`,
      );
    }
    if (
      options.gracefulShutdownTimeoutMs !== undefined &&
      !(options.gracefulShutdownTimeoutMs >= 0)
    ) {
      throw new Error(
        `gracefulShutdownTimeoutMs must be 0 or more, got ${options.gracefulShutdownTimeoutMs}`,
      );
    }
    this.logger = (options.logger ?? createLogger()).child({
      manager: options.name,
    });
    this.client = options.client ?? KubeClient.load(options.kubeconfigPath);
    this.metrics = new ControllerMetrics();
    this.informers = new SharedInformerFactory(this.client, {
      ...options.informers,
      logger: this.logger,
      metrics: this.metrics.informerMetrics(),
    });
    if (options.leaderElection) {
      const le = options.leaderElection;
      this.elector = new LeaderElector(this.client, {
        ...le,
        leaseName: le.leaseName ?? defaultLeaseName(options.name),
        identity:
          le.identity ??
          leaderIdentity({
            env: process.env,
            hostname: os.hostname(),
            random: () => Math.random().toString(36).slice(2, 10),
          }),
        logger: this.logger,
      });
    }
    if (options.webhook) {
      this.webhookServer = new WebhookServer({
        host: options.webhook.host,
        port: options.webhook.port,
        logger: this.logger,
        metrics: this.metrics,
      });
      this.certManager = new CertManager(this.client, {
        ...options.webhook.certificates,
        logger: this.logger,
      });
      this.certManager.onCertificate(b =>
        this.webhookServer!.setCertificate(b.cert, b.key),
      );
      this.readyChecks.set('webhook-certificate', () =>
        this.certManager!.isReady(),
      );
    }
    this.readyChecks.set('informers-synced', () => this.informers.hasSynced());
    this.healthChecks.set('ping', () => true);
    if (this.elector) {
      // A leader that can no longer renew is unhealthy.
      this.healthChecks.set(
        'leader-election',
        () => !this.leading || this.elector!.isLeader(),
      );
    }
  }

  // ---- building ---------------------------------------------------------------

  /** Starts declaring a controller. */
  controller(): ControllerBuilder {
    return new ControllerBuilder(this);
  }

  /** ControllerHost: called by the builder's complete(). */
  register(controller: Controller): void {
    if (this.controllers.some(c => c.name === controller.name)) {
      throw new Error(
        `a controller named "${controller.name}" already exists: give each a unique name with named()`,
      );
    }
    this.controllers.push(controller);
    if (this.leading && this.informers.hasSynced()) controller.start();
  }

  /** Server-side apply as `fieldManager`. */
  applier(fieldManager: string): Applier {
    return new Applier(this.client, fieldManager);
  }

  /** Events written as `component` (default the manager name), aggregated. */
  eventRecorder(component = this.options.name): EventRecorder {
    const recorder = new EventRecorder(this.client, {
      component,
      logger: this.logger,
    });
    this.recorders.push(recorder);
    return recorder;
  }

  addHealthCheck(name: string, check: Check): void {
    this.healthChecks.set(name, check);
  }

  addReadyCheck(name: string, check: Check): void {
    this.readyChecks.set(name, check);
  }

  // ---- running ----------------------------------------------------------------

  /** Whether this replica leads (always true without leader election, once started). */
  isLeader(): boolean {
    return this.leading;
  }

  /** Resolves when this replica starts leading. */
  elected(): Promise<void> {
    if (this.leading) return Promise.resolve();
    return new Promise(resolve => this.leadingWaiters.push(resolve));
  }

  metricsPort(): number {
    return this.metricsServer?.boundPort ?? 0;
  }

  probesPort(): number {
    return this.probeServer?.boundPort ?? 0;
  }

  /**
   * Runs until `stop()` or SIGTERM (resolves) or until leadership is lost
   * (rejects with LeaderElectionLostError).
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('the manager was already started');
    this.started = true;
    const done = new Promise<void>(
      (resolve, reject) => (this.finish = { resolve, reject }),
    );
    if (this.options.handleSignals ?? true) {
      this.signalHandler = () => {
        this.logger.info('signal received, shutting down');
        void this.stop();
      };
      process.once('SIGTERM', this.signalHandler);
      process.once('SIGINT', this.signalHandler);
    }
    try {
      await this.startEndpoints();
      if (this.certManager && this.webhookServer) {
        await this.certManager.start();
        await this.webhookServer.start();
      }
      // Caches run on every replica, so a new leader starts with warm caches.
      this.informers.start();
      if (this.elector) {
        const won = await this.elector.acquire(this.stopController.signal);
        if (!won) return await done;
        void this.elector.lost.then(reason => this.onLeadershipLost(reason));
      }
      this.becomeLeader();
      await this.informers.waitForSync();
      if (this.stopController.signal.aborted || !this.leading)
        return await done;
      for (const controller of this.controllers) controller.start();
      this.logger.info('controllers started', {
        controllers: this.controllers.map(c => c.name),
      });
    } catch (err) {
      this.logger.error('manager failed to start', { error: err });
      await this.shutdown(0);
      throw err;
    }
    return done;
  }

  /** Graceful stop: no new work, in-flight reconciles get the grace period, the lease is released. */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = this.shutdown(
        this.options.gracefulShutdownTimeoutMs ?? 30_000,
      ).then(() => this.finish?.resolve());
    }
    return this.stopping;
  }

  private becomeLeader(): void {
    this.leading = true;
    this.metrics.leaderStatus.set({ name: this.options.name }, 1);
    for (const w of this.leadingWaiters.splice(0)) w();
  }

  private onLeadershipLost(reason: string): void {
    if (this.stopping) return;
    this.logger.error('leader lease lost, stopping all controllers at once', {
      reason,
    });
    this.leading = false;
    this.metrics.leaderStatus.set({ name: this.options.name }, 0);
    // Synchronously: no reconcile starts after this line.
    const stopped = Promise.all(this.controllers.map(c => c.stop(0)));
    this.stopping = stopped
      .then(() => this.shutdown(0))
      .then(() =>
        this.finish?.reject(
          new LeaderElectionLostError(`lost the leader lease: ${reason}`),
        ),
      );
  }

  private async shutdown(graceMs: number): Promise<void> {
    this.stopController.abort();
    if (this.signalHandler) {
      process.off('SIGTERM', this.signalHandler);
      process.off('SIGINT', this.signalHandler);
    }
    await Promise.all(this.controllers.map(c => c.stop(graceMs)));
    if (this.leading) {
      this.leading = false;
      this.metrics.leaderStatus.set({ name: this.options.name }, 0);
    }
    await this.elector?.release();
    await Promise.race([
      Promise.all(this.recorders.map(r => r.flush())),
      new Promise(r => setTimeout(r, 2000).unref()),
    ]);
    await this.informers.stop();
    await this.certManager?.stop();
    await this.webhookServer?.stop();
    await this.metricsServer?.stop();
    await this.probeServer?.stop();
    this.client.close();
    this.logger.info('manager stopped');
  }

  private async startEndpoints(): Promise<void> {
    const metrics = this.options.metrics ?? { port: 8080 };
    if (metrics) {
      this.metricsServer = new HttpEndpoints(
        metrics.host ?? '0.0.0.0',
        metrics.port,
        {
          '/metrics': async () => {
            const { contentType, body } = await this.metrics.render();
            return { status: 200, contentType, body };
          },
        },
      );
      await this.metricsServer.start();
      // With port 0 this is the one place that says which port was picked.
      this.logger.info('metrics server listening', {
        port: this.metricsServer.boundPort,
      });
    }
    const probes = this.options.healthProbes ?? { port: 8081 };
    if (probes) {
      this.probeServer = new HttpEndpoints(
        probes.host ?? '0.0.0.0',
        probes.port,
        {
          '/healthz': () => runChecks(this.healthChecks),
          '/readyz': () => runChecks(this.readyChecks),
        },
      );
      await this.probeServer.start();
    }
  }
}
