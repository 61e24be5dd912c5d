import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import { KubeClient } from '../kube/client';
import type { KubeObject } from '../kube/types';
import { ConfigMaps, Leases } from '../kube/wellKnown';
import { LeaderElectionLostError, Manager } from '../manager/manager';
import { silentLogger } from '../observability/logger';
import {
  createNamespace,
  eventually,
  sleep,
  START_TIMEOUT_MS,
} from '../testing/integration';
import { claimedSpec, LeaseSpec } from './lease';

jest.setTimeout(180_000);

interface Fact {
  event: 'started' | 'leading' | 'reconcile' | 'stopped';
  identity: string;
  name?: string;
  at: number;
}

/** A replica in its own process, with the facts it printed. */
class Replica {
  readonly facts: Fact[] = [];
  readonly process: ChildProcess;
  stderr = '';

  constructor(
    kubeconfig: string,
    readonly identity: string,
    namespace: string,
  ) {
    this.process = spawn(
      process.execPath,
      [
        '--require',
        require.resolve('@backstage/cli/config/nodeTransform.cjs'),
        join(__dirname, '../testing/leaderReplica.ts'),
        kubeconfig,
        identity,
        namespace,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let buffered = '';
    this.process.stdout!.on('data', chunk => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines)
        if (line.trim()) this.facts.push(JSON.parse(line));
    });
    this.process.stderr!.on(
      'data',
      chunk => (this.stderr = (this.stderr + chunk).slice(-4000)),
    );
  }

  fact(event: Fact['event']): Fact | undefined {
    return this.facts.find(f => f.event === event);
  }

  reconciles(): Fact[] {
    return this.facts.filter(f => f.event === 'reconcile');
  }

  async waitFor(event: Fact['event'], timeoutMs = 60_000): Promise<Fact> {
    await eventually(
      `${this.identity} to print "${event}" (stderr: ${this.stderr})`,
      () => !!this.fact(event),
      timeoutMs,
    );
    return this.fact(event)!;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.process.exitCode === null && this.process.signalCode === null)
      this.process.kill(signal);
  }
}

describe('leader election', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    cluster = await startCluster({ name: 'runtime-leader' });
    client = new KubeClient(cluster.kubeConfig());
    await createNamespace(client, 'lead');
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    for (const r of replicas) r.kill('SIGKILL');
    client?.close();
    await cluster?.stop();
  });

  const reconciledBy = async (name: string) =>
    (await client.get<KubeObject>(ConfigMaps, { namespace: 'lead', name }))
      .metadata?.annotations?.['reconciled-by'];

  it('lets only the leader of two replicas reconcile, and hands over within 20 s when the leader is killed', async () => {
    const a = new Replica(cluster.kubeconfigPath, 'replica-a', 'lead');
    replicas.push(a);
    await a.waitFor('leading');
    const b = new Replica(cluster.kubeconfigPath, 'replica-b', 'lead');
    replicas.push(b);
    await b.waitFor('started'); // warm standby: its caches are synced

    for (let i = 0; i < 5; i++) {
      await client.create(ConfigMaps, {
        metadata: {
          name: `before-${i}`,
          namespace: 'lead',
          labels: { test: 'leader' },
        },
      });
    }
    await eventually('the leader to reconcile every object', async () => {
      const by = await Promise.all(
        [0, 1, 2, 3, 4].map(i => reconciledBy(`before-${i}`)),
      );
      return by.every(x => x === 'replica-a');
    });
    await sleep(1000);
    expect(b.fact('leading')).toBeUndefined();
    expect(b.reconciles()).toEqual([]);
    expect(a.reconciles().length).toBeGreaterThanOrEqual(5);

    // A real crash: the lease is not released, the standby must wait for it to expire.
    const killedAt = Date.now();
    a.kill('SIGKILL');
    const leading = await b.waitFor('leading', 30_000);
    const handoverMs = leading.at - killedAt;
    // eslint-disable-next-line no-console
    console.info(`leader handover after SIGKILL: ${handoverMs} ms`);
    expect(handoverMs).toBeLessThan(20_000);

    await client.create(ConfigMaps, {
      metadata: {
        name: 'after',
        namespace: 'lead',
        labels: { test: 'leader' },
      },
    });
    await eventually(
      'the new leader to reconcile',
      async () => (await reconciledBy('after')) === 'replica-b',
    );
    const lease = await client.get<KubeObject & { spec: LeaseSpec }>(Leases, {
      namespace: 'lead',
      name: 'leader-test-leader',
    });
    expect(lease.spec).toMatchObject({
      holderIdentity: 'replica-b',
      leaseDurationSeconds: 15,
      leaseTransitions: 1,
    });
  });

  it('releases the lease on graceful shutdown so a standby takes over at once', async () => {
    const b = replicas[1];
    const c = new Replica(cluster.kubeconfigPath, 'replica-c', 'lead');
    replicas.push(c);
    await c.waitFor('started');
    const stoppedAt = Date.now();
    b.kill('SIGTERM');
    await b.waitFor('stopped');
    const leading = await c.waitFor('leading', 30_000);
    const handoverMs = leading.at - stoppedAt;
    // eslint-disable-next-line no-console
    console.info(
      `leader handover after SIGTERM (lease released): ${handoverMs} ms`,
    );
    expect(handoverMs).toBeLessThan(5_000);
    expect(
      b.process.exitCode ?? (await new Promise(r => b.process.once('exit', r))),
    ).toBe(0);
  });

  it('stops reconciling at once when another holder takes the lease', async () => {
    for (const r of replicas) r.kill('SIGKILL');
    const reconciles: string[] = [];
    const manager = new Manager({
      name: 'steal-test',
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      metrics: false,
      healthProbes: false,
      handleSignals: false,
      leaderElection: {
        namespace: 'lead',
        identity: 'victim',
        leaseDurationMs: 4000,
        renewDeadlineMs: 3000,
        retryPeriodMs: 500,
      },
    });
    manager
      .controller()
      .named('steal')
      .for(ConfigMaps, {
        selector: { namespace: 'lead', labelSelector: 'test=steal' },
      })
      .complete(req => void reconciles.push(req.name));
    const running = manager.start();
    await manager.elected();
    await client.create(ConfigMaps, {
      metadata: { name: 'one', namespace: 'lead', labels: { test: 'steal' } },
    });
    await eventually('the first reconcile', () => reconciles.includes('one'));

    // An intruder overwrites the lease (as a new leader would after a partition).
    const lease = await client.get<KubeObject & { spec: LeaseSpec }>(Leases, {
      namespace: 'lead',
      name: 'steal-test-leader',
    });
    await client.replace(Leases, {
      ...lease,
      spec: claimedSpec(lease.spec, 'intruder', new Date(), 4),
    });
    const outcome = await running.then(
      () => 'resolved',
      err => err,
    );
    expect(outcome).toBeInstanceOf(LeaderElectionLostError);
    expect(manager.isLeader()).toBe(false);
    await client.create(ConfigMaps, {
      metadata: { name: 'two', namespace: 'lead', labels: { test: 'steal' } },
    });
    await sleep(1000);
    expect(reconciles).toEqual(['one']);
  });

  it('stops reconciling within the renew deadline when the API server becomes unreachable', async () => {
    const manager = new Manager({
      name: 'partition-test',
      client: new KubeClient(cluster.kubeConfig()),
      logger: silentLogger,
      metrics: false,
      healthProbes: false,
      handleSignals: false,
      leaderElection: {
        namespace: 'lead',
        identity: 'cut-off',
        leaseDurationMs: 6000,
        renewDeadlineMs: 4000,
        retryPeriodMs: 500,
      },
    });
    manager
      .controller()
      .named('partition')
      .for(ConfigMaps, {
        selector: { namespace: 'lead', labelSelector: 'test=partition' },
      })
      .complete(() => undefined);
    const running = manager.start();
    await manager.elected();
    const cutAt = Date.now();
    await cluster.stopControlPlane();
    try {
      const outcome = await running.then(
        () => 'resolved',
        err => err,
      );
      const lostAfterMs = Date.now() - cutAt;
      // eslint-disable-next-line no-console
      console.info(
        `leader stepped down ${lostAfterMs} ms after the API server went away (renew deadline 4000 ms)`,
      );
      expect(outcome).toBeInstanceOf(LeaderElectionLostError);
      expect(lostAfterMs).toBeLessThan(6000); // before anyone else could take the lease
    } finally {
      await cluster.startControlPlane();
    }
  });
});
