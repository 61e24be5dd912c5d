import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  type V1PodSpec,
} from '@kubernetes/client-node';
import { GPU_RESOURCE, startCluster, waitFor, type TestCluster } from './index';
import { START_TIMEOUT_MS } from './testing';

jest.setTimeout(90_000);

const container = (gpus?: number): V1PodSpec['containers'][number] => ({
  name: 'main',
  image: 'registry.example/inference:1.0',
  resources: gpus ? { limits: { [GPU_RESOURCE]: String(gpus) } } : undefined,
});

describe('workloads on kwok nodes', () => {
  let cluster: TestCluster;
  let apps: AppsV1Api;
  let batch: BatchV1Api;
  let core: CoreV1Api;

  beforeAll(async () => {
    cluster = await startCluster({
      name: 'workloads',
      nodes: [
        { name: 'gpu-0', gpus: 4, cpu: '32', memory: '128Gi' },
        { name: 'cpu-0' },
      ],
    });
    apps = cluster.kubeConfig().makeApiClient(AppsV1Api);
    batch = cluster.kubeConfig().makeApiClient(BatchV1Api);
    core = cluster.kubeConfig().makeApiClient(CoreV1Api);
  }, START_TIMEOUT_MS);
  afterAll(() => cluster?.stop());

  it('shows GPU capacity on the GPU node only', async () => {
    const nodes = (await core.listNode()).items;
    const gpus = Object.fromEntries(
      nodes.map(node => [
        node.metadata!.name,
        node.status?.capacity?.[GPU_RESOURCE] ?? '0',
      ]),
    );
    expect(gpus).toEqual({ 'gpu-0': '4', 'cpu-0': '0' });
    expect(
      nodes.find(node => node.metadata!.name === 'gpu-0')!.status!.allocatable![
        GPU_RESOURCE
      ],
    ).toBe('4');
  });

  it('brings a Deployment asking for GPUs to Available, on the GPU node', async () => {
    const labels = { app: 'server' };
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'server' },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { containers: [container(1)] },
          },
        },
      },
    });
    await waitFor(
      'Deployment server to be Available',
      async () => {
        const deployment = await apps.readNamespacedDeployment({
          name: 'server',
          namespace: 'default',
        });
        return Boolean(
          deployment.status?.conditions?.some(
            c => c.type === 'Available' && c.status === 'True',
          ) && deployment.status.availableReplicas === 2,
        );
      },
      { timeoutMs: 60_000 },
    );
    const pods = (
      await core.listNamespacedPod({
        namespace: 'default',
        labelSelector: 'app=server',
      })
    ).items;
    expect(pods.map(pod => [pod.spec?.nodeName, pod.status?.phase])).toEqual([
      ['gpu-0', 'Running'],
      ['gpu-0', 'Running'],
    ]);
  });

  it('leaves a pod asking for more GPUs than any node has Pending as Unschedulable', async () => {
    await core.createNamespacedPod({
      namespace: 'default',
      body: {
        metadata: { name: 'too-big' },
        spec: { containers: [container(8)] },
      },
    });
    await waitFor('pod too-big to be marked Unschedulable', async () => {
      const pod = await core.readNamespacedPod({
        name: 'too-big',
        namespace: 'default',
      });
      return Boolean(
        pod.status?.conditions?.some(
          c => c.type === 'PodScheduled' && c.reason === 'Unschedulable',
        ),
      );
    });
    const pod = await core.readNamespacedPod({
      name: 'too-big',
      namespace: 'default',
    });
    expect(pod.status?.phase).toBe('Pending');
    expect(
      pod.status?.conditions?.find(c => c.type === 'PodScheduled')?.message,
    ).toMatch(/Insufficient nvidia\.com\/gpu/);
  });

  it('completes a Job: its pod Succeeds and the Job is Complete', async () => {
    await batch.createNamespacedJob({
      namespace: 'default',
      body: {
        metadata: { name: 'download' },
        spec: {
          backoffLimit: 0,
          template: {
            spec: { restartPolicy: 'Never', containers: [container()] },
          },
        },
      },
    });
    await waitFor(
      'Job download to be Complete',
      async () => {
        const job = await batch.readNamespacedJob({
          name: 'download',
          namespace: 'default',
        });
        return Boolean(
          job.status?.conditions?.some(
            c => c.type === 'Complete' && c.status === 'True',
          ),
        );
      },
      { timeoutMs: 60_000 },
    );
    const job = await batch.readNamespacedJob({
      name: 'download',
      namespace: 'default',
    });
    expect(job.status?.succeeded).toBe(1);
    const pods = (
      await core.listNamespacedPod({
        namespace: 'default',
        labelSelector: 'job-name=download',
      })
    ).items;
    expect(pods.map(pod => pod.status?.phase)).toEqual(['Succeeded']);
  });
});
