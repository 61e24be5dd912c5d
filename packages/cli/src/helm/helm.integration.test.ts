/**
 * The chart checked with the real helm (built from its Go module, cached
 * outside the repository): lint, template equal to the bundles, and one
 * helm install into a real control plane (@runway-portal/e2e-cluster).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import {
  CustomResourceDefinitions,
  Deployments,
  KubeClient,
  type KubeObject,
} from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import { CATALOG, defaultDeployDir } from '../bundles/catalog';
import { objectId } from '../bundles/kustomize';
import { loadCatalogBundle } from '../bundles/load';
import { buildPlan } from '../bundles/plan';
import { ensureHelm } from './binary';
import { CHART_DIR } from './chart';

jest.setTimeout(180_000);

const exec = promisify(execFile);
const DEPLOY = defaultDeployDir();
const CHART = path.join(DEPLOY, CHART_DIR);
const NS = 'airunway-system';

let helm: string;
let cluster: TestCluster;
let client: KubeClient;

const helmRun = async (...args: string[]) =>
  (
    await exec(helm, args, {
      env: {
        ...process.env,
        HELM_CACHE_HOME: path.join(cluster.dir, 'helm-cache'),
        HELM_CONFIG_HOME: path.join(cluster.dir, 'helm-config'),
        HELM_DATA_HOME: path.join(cluster.dir, 'helm-data'),
      },
      maxBuffer: 64 * 1024 * 1024,
    })
  ).stdout;

async function template(...set: string[]): Promise<KubeObject[]> {
  const out = await helmRun(
    'template',
    'runway',
    CHART,
    '--namespace',
    NS,
    ...set.flatMap(s => ['--set', s]),
  );
  return parseAllDocuments(out)
    .map(d => d.toJSON() as KubeObject | null)
    .filter((o): o is KubeObject => Boolean(o));
}

beforeAll(async () => {
  [helm, cluster] = await Promise.all([
    ensureHelm(),
    startCluster({
      name: 'runway-helm',
      nodes: [{ name: 'cpu-0', cpu: '32', memory: '128Gi' }],
    }),
  ]);
  client = new KubeClient(cluster.kubeConfig());
}, 40 * 60_000);

afterAll(async () => {
  client?.close();
  await cluster?.stop();
}, 60_000);

describe('the Helm chart, with the real helm', () => {
  it('passes helm lint --strict', async () => {
    const out = await helmRun('lint', CHART, '--strict');
    expect(out).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
  });

  it('renders, with the default values, exactly the objects of the bundles (no drift)', async () => {
    const rendered = await template();
    const plan = buildPlan(
      CATALOG.map(e => loadCatalogBundle(e, DEPLOY)),
    ).filter(p => !p.shared);
    const byId = (objects: KubeObject[]) =>
      Object.fromEntries(objects.map(o => [objectId(o), o]));
    expect(byId(rendered)).toEqual(byId(plan.map(p => p.object)));
  });

  it('takes its values: components off, image tag, leader election, extra labels, namespace', async () => {
    const rendered = await template(
      'kaito.enabled=false',
      'image.tag=v9.9.9',
      'dynamo.image.tag=v1.0.0',
      'leaderElection=false',
      'extraLabels.team=platform',
      'namespace.create=true',
      'core.replicas=3',
    );
    const deployments = Object.fromEntries(
      rendered
        .filter(o => o.kind === 'Deployment')
        .map(o => {
          const spec = (
            o as KubeObject & {
              spec: {
                replicas: number;
                template: {
                  spec: {
                    containers: Array<{
                      image: string;
                      args?: string[] | null;
                    }>;
                  };
                };
              };
            }
          ).spec;
          return [
            o.metadata!.name!,
            {
              replicas: spec.replicas,
              image: spec.template.spec.containers[0].image,
              args: spec.template.spec.containers[0].args ?? null,
            },
          ];
        }),
    );
    expect(deployments).toEqual({
      'airunway-core': {
        replicas: 3,
        image: 'ghcr.io/runway-portal/airunway-core:v9.9.9',
        args: ['--webhook-mode=service', '--leader-elect=false'],
      },
      'airunway-models': {
        replicas: 2,
        image: 'ghcr.io/runway-portal/airunway-models:v9.9.9',
        args: ['--webhook-mode=service', '--leader-elect=false'],
      },
      'airunway-stacks': {
        replicas: 2,
        image: 'ghcr.io/runway-portal/airunway-stacks:v9.9.9',
        args: ['--webhook-mode=service', '--leader-elect=false'],
      },
      'dynamo-provider': {
        replicas: 1,
        image: 'ghcr.io/runway-portal/dynamo-provider:v1.0.0',
        args: null,
      },
      'kuberay-provider': {
        replicas: 1,
        image: 'ghcr.io/runway-portal/kuberay-provider:v9.9.9',
        args: null,
      },
      'llmd-provider': {
        replicas: 1,
        image: 'ghcr.io/runway-portal/llmd-provider:v9.9.9',
        args: null,
      },
    });
    expect(
      rendered
        .filter(o => o.metadata?.labels?.team !== 'platform')
        .map(objectId),
    ).toEqual([]);
    expect(rendered.find(o => o.kind === 'Namespace')?.metadata?.name).toBe(NS);
  });

  it('installs into a real control plane with helm install (CRDs from crds/, the controllers, the webhooks)', async () => {
    const out = await helmRun(
      'install',
      'runway',
      CHART,
      '--namespace',
      NS,
      '--create-namespace',
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--wait',
      '--timeout',
      '120s',
    );
    expect(out).toMatch(/STATUS: deployed/);
    for (const crd of [
      'modeldeployments.airunway.ai',
      'inferenceproviderconfigs.airunway.ai',
      'models.models.airunway.ai',
      'llamastackdistributions.llamastack.io',
    ]) {
      await expect(
        client.get(CustomResourceDefinitions, { name: crd }),
      ).resolves.toMatchObject({ metadata: { name: crd } });
    }
    const names = (
      await client.list<KubeObject>(Deployments, { namespace: NS })
    ).items
      .map(d => d.metadata?.name)
      .sort();
    expect(names).toEqual([
      'airunway-core',
      'airunway-models',
      'airunway-stacks',
      'dynamo-provider',
      'kaito-provider',
      'kuberay-provider',
      'llmd-provider',
    ]);
    const removed = await helmRun(
      'uninstall',
      'runway',
      '--namespace',
      NS,
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--wait',
    );
    expect(removed).toMatch(/uninstalled/);
    expect(
      (await client.list<KubeObject>(Deployments, { namespace: NS })).items,
    ).toEqual([]);
  });
});
