import { CoreV1Api } from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import {
  startCluster,
  startClusters,
  waitFor,
  type TestCluster,
} from './index';
import { FIXTURES_DIR, START_TIMEOUT_MS } from './testing';

jest.setTimeout(120_000);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cluster lifecycle', () => {
  describe('two clusters at once', () => {
    let clusters: TestCluster[] = [];
    beforeAll(async () => {
      clusters = await startClusters([
        { name: 'lifecycle-a' },
        { name: 'lifecycle-b', nodes: [{ name: 'only-node' }] },
      ]);
    }, START_TIMEOUT_MS);
    afterAll(() => Promise.all(clusters.map(cluster => cluster.stop())));

    it('gives each its own server, kubeconfig, nodes and data', async () => {
      const [a, b] = clusters;
      expect(a.server).not.toBe(b.server);
      expect(a.kubeconfigPath).not.toBe(b.kubeconfigPath);
      const coreA = a.kubeConfig().makeApiClient(CoreV1Api);
      const coreB = b.kubeConfig().makeApiClient(CoreV1Api);
      expect(
        (await coreA.listNode()).items.map(n => n.metadata?.name).sort(),
      ).toEqual(['cpu-0', 'gpu-0']);
      expect((await coreB.listNode()).items.map(n => n.metadata?.name)).toEqual(
        ['only-node'],
      );
      await coreA.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: 'only-in-a' } },
      });
      await expect(
        coreB.readNamespacedConfigMap({
          name: 'only-in-a',
          namespace: 'default',
        }),
      ).rejects.toMatchObject({ code: 404 });
    });

    it('keeps the data when the control plane is stopped and started again', async () => {
      const [a] = clusters;
      const core = a.kubeConfig().makeApiClient(CoreV1Api);
      await core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: 'survivor' }, data: { k: 'v' } },
      });
      const apiserverPid = a.pids()['kube-apiserver'];

      await a.stopControlPlane();
      expect(a.pids()['kube-apiserver']).toBeUndefined();
      expect(isAlive(apiserverPid!)).toBe(false);
      expect(a.pids().etcd).toBeDefined();
      await expect(core.listNamespace()).rejects.toThrow(/ECONNREFUSED/);

      await a.startControlPlane();
      expect(a.pids()['kube-apiserver']).not.toBe(apiserverPid);
      const survivor = await a
        .kubeConfig()
        .makeApiClient(CoreV1Api)
        .readNamespacedConfigMap({ name: 'survivor', namespace: 'default' });
      expect(survivor.data).toEqual({ k: 'v' });
    });

    it('stops every process and removes the folder', async () => {
      const b = clusters[1];
      const pids = Object.values(b.pids());
      expect(pids).toHaveLength(5);
      await b.stop();
      expect(pids.filter(isAlive)).toEqual([]);
      expect(existsSync(b.dir)).toBe(false);
      await expect(b.stop()).resolves.toBeUndefined();
    });
  });

  it(
    'leaves no process behind when the test process is killed with SIGKILL',
    async () => {
      const child = spawn(
        process.execPath,
        [
          '--require',
          require.resolve('@backstage/cli/config/nodeTransform.cjs'),
          join(FIXTURES_DIR, 'startAndWait.ts'),
          'orphan-check',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', chunk => (stderr += chunk));
      const line = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', chunk => {
          stdout += chunk;
          if (stdout.includes('\n')) resolve(stdout.split('\n')[0]);
        });
        child.once('exit', code =>
          reject(new Error(`child exited with ${code}: ${stderr}`)),
        );
      });
      const { pids } = JSON.parse(line) as { pids: Record<string, number> };
      expect(Object.keys(pids).sort()).toEqual([
        'etcd',
        'kube-apiserver',
        'kube-controller-manager',
        'kube-scheduler',
        'kwok',
      ]);
      expect(Object.values(pids).every(isAlive)).toBe(true);

      child.kill('SIGKILL');
      await waitFor(
        'every component of the killed process to exit',
        async () => Object.values(pids).every(pid => !isAlive(pid)),
        {
          timeoutMs: 5_000,
        },
      );
    },
    START_TIMEOUT_MS,
  );

  describe('clear errors', () => {
    let server: Server;
    let busyPort: number;
    beforeAll(async () => {
      server = createServer();
      await new Promise<void>(resolve =>
        server.listen(0, '127.0.0.1', resolve),
      );
      busyPort = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise(resolve => server.close(resolve)));

    it(
      'names a requested port that is in use and the process using it',
      async () => {
        await expect(
          startCluster({ name: 'busy-port', apiserverPort: busyPort }),
        ).rejects.toThrow(
          `Port ${busyPort} on 127.0.0.1 (kube-apiserver of cluster busy-port) is already in use by process ${process.pid} `,
        );
      },
      START_TIMEOUT_MS,
    );

    it(
      'shows the log tail of a component that exits before it is ready',
      async () => {
        await expect(
          startCluster({
            name: 'bad-flag',
            extraArgs: {
              'kube-apiserver': ['--feature-gates=NoSuchGate=true'],
            },
          }),
        ).rejects.toThrow(
          /kube-apiserver of cluster bad-flag exited \(code 1\) before the cluster was ready\. Last lines of .*kube-apiserver\.log:\n[\s\S]*unrecognized feature gate: NoSuchGate/,
        );
      },
      START_TIMEOUT_MS,
    );

    it('rejects invalid options before starting anything', async () => {
      await expect(startCluster({ name: 'Bad_Name' })).rejects.toThrow(
        /name "Bad_Name" is invalid: use 1-40 lower-case letters/,
      );
      await expect(
        startCluster({ name: 'ok', nodes: [{ name: 'n', gpus: -2 }] }),
      ).rejects.toThrow(/nodes\[0\]\.gpus must be a whole number >= 0/);
      await expect(
        startCluster({ name: 'ok', nodes: [{ name: 'n' }, { name: 'n' }] }),
      ).rejects.toThrow(/two nodes named "n"/);
      await expect(
        startCluster({
          name: 'ok',
          extraArgs: { kubelet: ['--v=2'] } as never,
        }),
      ).rejects.toThrow(/unknown component "kubelet"/);
      await expect(
        startClusters([{ name: 'same' }, { name: 'same' }]),
      ).rejects.toThrow(/two clusters are named "same"/);
    });

    it(
      'names a CRD path that does not exist, and stops what it started',
      async () => {
        await expect(
          startCluster({
            name: 'missing-crd',
            nodes: [],
            crds: ['/nonexistent/crds'],
          }),
        ).rejects.toThrow(
          'Manifest path /nonexistent/crds does not exist: pass a YAML/JSON file or a folder of them',
        );
      },
      START_TIMEOUT_MS,
    );
  });
});
