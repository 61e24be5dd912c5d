/**
 * The runway CLI against a real control plane (@runway-portal/e2e-cluster):
 * an empty cluster, then install, a second install, doctor, uninstall and an
 * upgrade from the 2026-11-25 bundle, in that order on one cluster.
 *
 * kwok runs no containers, so the controllers' Deployments get simulated
 * pods (available, but nothing listens behind them). For a ModelDeployment
 * to go through, the test runs the core and the KAITO provider as local
 * processes from their packages' entry points (as e2e/system does): the
 * core in url mode registers its own webhooks, so the CLI installs with
 * --no-webhooks there. The first test keeps the webhooks and shows what the
 * CLI does when nothing answers them.
 */
import { startLocalHub, type HubStandIn } from '@runway-portal/e2e-simulators';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  CustomResourceDefinitions,
  Deployments,
  KubeClient,
  type KubeObject,
  MutatingWebhookConfigurations,
  Namespaces,
  type ResourceType,
  ValidatingWebhookConfigurations,
} from '@runway-portal/controller-runtime';
import { MODEL_DEPLOYMENTS_RESOURCE as ModelDeployments } from '@runway-portal/plugin-runway-common';
import {
  startCluster,
  type TestCluster,
  freePort,
} from '@runway-portal/e2e-cluster';
import { defaultDeployDir } from './bundles/catalog';
import { expectationsFromBundles, readClusterState, runChecks } from './doctor';
import { memoryReporter } from './install/reporter';
import { run } from './program';

jest.setTimeout(240_000);

const REPO = path.resolve(__dirname, '../../..');
const KAITO_CRD = path.join(
  REPO,
  'e2e/simulators/upstream-crds/kaito-kaito.sh_workspaces.yaml',
);
const FIXTURE = path.join(
  __dirname,
  '__fixtures__/core-bundle-2026-11-25.yaml',
);
const NS = 'airunway-system';

const Workspaces: ResourceType = {
  group: 'kaito.sh',
  version: 'v1beta1',
  plural: 'workspaces',
  kind: 'Workspace',
  namespaced: true,
};
const ClusterRoles: ResourceType = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
};
const ClusterRoleBindings: ResourceType = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterrolebindings',
  kind: 'ClusterRoleBinding',
  namespaced: false,
};
const InferenceProviderConfigs: ResourceType = {
  group: 'airunway.ai',
  version: 'v1alpha1',
  plural: 'inferenceproviderconfigs',
  kind: 'InferenceProviderConfig',
  namespaced: false,
};

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}${
          last ? ` (${(last as Error).message})` : ''
        }`,
      );
    await sleep(250);
  }
}

let cluster: TestCluster;
let hub: HubStandIn;
let client: KubeClient;
const processes = new Map<string, ChildProcess>();

/** Runs `runway <args> --kubeconfig <cluster>`; returns the exit code and every line it printed. */
async function runway(
  ...args: string[]
): Promise<{ code: number; lines: string[]; out: string }> {
  const reporter = memoryReporter();
  const out: string[] = [];
  const code = await run([...args, '--kubeconfig', cluster.kubeconfigPath], {
    reporter,
    stdout: t => out.push(t),
  });
  return { code, lines: reporter.lines, out: out.join('') };
}

/** A controller as a local process, from its package's entry point; resolves once /readyz answers. */
async function startController(
  name: string,
  entry: string,
  args: string[],
): Promise<void> {
  const healthPort = await freePort();
  const log = fs.openSync(path.join(cluster.dir, `${name}.log`), 'a');
  const child = spawn(
    process.execPath,
    [
      '--require',
      require.resolve('@backstage/cli/config/nodeTransform.cjs'),
      path.join(REPO, entry),
      ...args,
      '--metrics-port=0',
      `--health-port=${healthPort}`,
    ],
    {
      // KAITO finds a llama.cpp model's GGUF file in the hub's file list: the stand-in's.
      env: {
        ...process.env,
        KUBECONFIG: cluster.kubeconfigPath,
        HF_ENDPOINT: hub.url,
      },
      stdio: ['ignore', log, log],
    },
  );
  processes.set(name, child);
  await eventually(
    `${name} to answer /readyz (log: ${path.join(cluster.dir, `${name}.log`)})`,
    async () => {
      if (child.exitCode !== null)
        throw new Error(`${name} exited with ${child.exitCode}`);
      const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
      return res.ok;
    },
    120_000,
  );
}

async function stopController(name: string): Promise<void> {
  const child = processes.get(name);
  if (!child || child.exitCode !== null) return;
  const exited = new Promise(resolve => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
  processes.delete(name);
}

async function exists(
  rt: ResourceType,
  key: { namespace?: string; name: string },
): Promise<boolean> {
  try {
    await client.get(rt, key);
    return true;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return false;
    throw err;
  }
}

/** Everything of ours the bundles create, by kind, cluster-scoped included; empty when nothing is left. */
async function leftovers(): Promise<string[]> {
  const found: string[] = [];
  if (await exists(Namespaces, { name: NS })) found.push(`Namespace ${NS}`);
  for (const crd of [
    'modeldeployments.airunway.ai',
    'inferenceproviderconfigs.airunway.ai',
    'models.models.airunway.ai',
    'llamastackdistributions.llamastack.io',
  ]) {
    if (await exists(CustomResourceDefinitions, { name: crd }))
      found.push(`CRD ${crd}`);
  }
  for (const rt of [
    ClusterRoles,
    ClusterRoleBindings,
    ValidatingWebhookConfigurations,
    MutatingWebhookConfigurations,
  ]) {
    const items = (await client.list<KubeObject>(rt)).items.filter(
      o =>
        o.metadata?.labels?.['app.kubernetes.io/part-of'] === 'airunway' ||
        o.metadata?.labels?.['airunway.ai/component'] ||
        /^airunway-/.test(o.metadata?.name ?? ''),
    );
    found.push(...items.map(o => `${rt.kind} ${o.metadata?.name}`));
  }
  return found;
}

async function waitEstablished(name: string): Promise<void> {
  await eventually(`CRD ${name} Established`, async () => {
    const crd = await client.get<
      KubeObject & {
        status?: { conditions?: Array<{ type: string; status: string }> };
      }
    >(CustomResourceDefinitions, { name });
    return (crd.status?.conditions ?? []).some(
      c => c.type === 'Established' && c.status === 'True',
    );
  });
}

beforeAll(async () => {
  hub = await startLocalHub();
  cluster = await startCluster({
    name: 'runway-cli',
    nodes: [{ name: 'cpu-0', cpu: '32', memory: '128Gi' }],
    crds: [KAITO_CRD],
  });
  client = new KubeClient(cluster.kubeConfig());
}, 30 * 60_000);

afterAll(async () => {
  for (const name of [...processes.keys()]) await stopController(name);
  client?.close();
  await cluster?.stop();
  await hub?.close();
}, 60_000);

describe('runway on a real control plane', () => {
  it('without permission: one line naming what it may not do, and nothing applied', async () => {
    // A ServiceAccount with no RBAC at all, as a kubeconfig user.
    await client.create(
      {
        group: '',
        version: 'v1',
        plural: 'serviceaccounts',
        kind: 'ServiceAccount',
        namespaced: true,
      },
      { metadata: { name: 'nobody', namespace: 'default' } },
    );
    const { status } = await client.request<{ status: { token: string } }>({
      method: 'POST',
      path: '/api/v1/namespaces/default/serviceaccounts/nobody/token',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 600 },
      },
    });
    const admin = cluster.kubeConfig();
    const ca = admin.getCurrentCluster()!.caData!;
    const file = path.join(cluster.dir, 'nobody.kubeconfig');
    fs.writeFileSync(
      file,
      `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${cluster.server}", certificate-authority-data: "${ca}" } }]
users: [{ name: nobody, user: { token: "${status.token}" } }]
contexts: [{ name: nobody, context: { cluster: c, user: nobody } }]
current-context: nobody
`,
    );
    const reporter = memoryReporter();
    const code = await run(['install', '--all', '--kubeconfig', file], {
      reporter,
      stdout: () => undefined,
    });
    expect(code).toBe(1);
    expect(reporter.lines.at(-1)).toMatch(
      /^runway: no permission: you may not create namespaces; patch namespaces; create customresourcedefinitions\.apiextensions\.k8s\.io; .*: ask a cluster admin \(installing Runway needs cluster-admin\); nothing was applied$/,
    );
    expect(await exists(Namespaces, { name: NS })).toBe(false);
    expect(
      await exists(CustomResourceDefinitions, {
        name: 'modeldeployments.airunway.ai',
      }),
    ).toBe(false);
  });

  it('on an empty cluster: namespace and CRDs first, and the webhooks removed again when nothing answers them', async () => {
    const { code, lines } = await runway(
      'controller',
      'install',
      '--wait',
      '--timeout',
      '15',
    );
    expect(lines[0]).toMatch(
      /^Installing core into https:\/\/127\.0\.0\.1:\d+ \(namespace airunway-system\):$/,
    );
    expect(lines).toContain('    - Namespace airunway-system');
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatch(
      /^runway: webhook not answering: (Mutating|Validating)WebhookConfiguration airunway-core-(mutating|validating) does not answer \(Service airunway-system\/airunway-core-webhook: .+\); the webhook configurations were removed again so writes are not refused/,
    );
    // Nothing points at nothing; everything before the webhooks is in place.
    expect(
      await exists(ValidatingWebhookConfigurations, {
        name: 'airunway-core-validating',
      }),
    ).toBe(false);
    expect(
      await exists(MutatingWebhookConfigurations, {
        name: 'airunway-core-mutating',
      }),
    ).toBe(false);
    const crd = await client.get<
      KubeObject & {
        status?: { conditions?: Array<{ type: string; status: string }> };
      }
    >(CustomResourceDefinitions, { name: 'modeldeployments.airunway.ai' });
    expect(crd.status?.conditions).toContainEqual(
      expect.objectContaining({ type: 'Established', status: 'True' }),
    );
    const core = await client.get(Deployments, {
      namespace: NS,
      name: 'airunway-core',
    });
    expect(core.metadata?.labels?.['airunway.ai/component']).toBe('core');
    expect(
      core.metadata?.managedFields?.map(
        f => (f as { manager?: string }).manager,
      ),
    ).toContain('runway-cli');
  });

  it('with the controllers running (as local processes), install --wait reaches ready and a ModelDeployment goes through', async () => {
    const webhookPort = await freePort();
    await startController('core', 'controllers/core/src/index.ts', [
      '--webhook-mode=url',
      '--webhook-host=127.0.0.1',
      `--webhook-port=${webhookPort}`,
      `--namespace=${NS}`,
    ]);
    await startController('kaito', 'controllers/providers/kaito/src/main.ts', [
      '--heartbeat-interval=1s',
    ]);

    const core = await runway(
      'controller',
      'install',
      '--no-webhooks',
      '--wait',
      '--timeout',
      '60',
    );
    expect(core.lines.at(-1)).toMatch(/^install: /);
    expect(core.code).toBe(0);
    expect(core.lines).toContain(
      '  ready: Deployment airunway-system/airunway-core',
    );

    const kaito = await runway(
      'provider',
      'install',
      'kaito',
      '--wait',
      '--timeout',
      '60',
    );
    expect(kaito.code).toBe(0);
    expect(kaito.lines).toContain('  ready: provider kaito');
    expect(kaito.lines).toContain(
      '  created: Deployment airunway-system/kaito-provider',
    );

    await client.create(Namespaces, { metadata: { name: 'team-a' } });
    await client.create(ModelDeployments, {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: { name: 'gemma', namespace: 'team-a' },
      spec: {
        model: {
          id: 'google/gemma-3-1b-it-qat-q8_0-gguf',
          source: 'huggingface',
        },
        engine: { type: 'llamacpp' },
        resources: { gpu: { count: 0 }, memory: '16Gi', cpu: '8' },
        image: 'ghcr.io/sozercan/llama-cpp-runner:latest',
      },
    } as KubeObject);
    const md = await eventually(
      'the core to select kaito and the provider to create the Workspace',
      async () => {
        const got = await client.get<
          KubeObject & { status?: { provider?: { name?: string } } }
        >(ModelDeployments, { namespace: 'team-a', name: 'gemma' });
        return (
          got.status?.provider?.name === 'kaito' &&
          (await client.list(Workspaces, { namespace: 'team-a' })).items
            .length === 1 &&
          got
        );
      },
    );
    expect(md.status?.provider?.name).toBe('kaito');
  });

  it('a second install changes nothing and says so (and so does a dry run)', async () => {
    for (const args of [
      ['controller', 'install', '--no-webhooks'],
      ['provider', 'install', 'kaito'],
      ['controller', 'install', '--no-webhooks', '--dry-run'],
    ]) {
      const { code, lines } = await runway(...args);
      expect(code).toBe(0);
      const results = lines.filter(l =>
        /^ {2}(created|changed|unchanged): /.test(l),
      );
      expect(results.length).toBeGreaterThan(5);
      expect(results.filter(l => !l.startsWith('  unchanged: '))).toEqual([]);
      expect(lines.at(-1)).toMatch(
        /^(\(dry run, nothing stored\) )?install: \d+ unchanged$/,
      );
    }
  });

  it('doctor: a healthy installation, in text and JSON', async () => {
    const { code, out } = await runway('doctor', '--output', 'json');
    const report = JSON.parse(out);
    const status = Object.fromEntries(
      report.checks.map((c: { id: string; status: string }) => [
        c.id,
        c.status,
      ]),
    );
    expect(status).toMatchObject({
      'crd/modeldeployments.airunway.ai': 'ok',
      'controller/core': 'ok',
      'webhook/airunway-core-validating': 'ok',
      'webhook/airunway-core-mutating': 'ok',
      'provider/kaito/controller': 'ok',
      'provider/kaito/ready': 'ok',
      'provider/kaito/heartbeat': 'ok',
      'provider/kaito/upstream': 'ok',
      'provider/dynamo': 'warn',
      gateway: 'warn',
      'operator/models': 'warn',
    });
    expect(report.healthy).toBe(true);
    expect(code).toBe(0);

    const list = await runway('provider', 'list');
    expect(list.code).toBe(0);
    const rows = list.out
      .trimEnd()
      .split('\n')
      .map(r => r.split(/\s{2,}/));
    expect(rows[0]).toEqual([
      'NAME',
      'INSTALLED',
      'REGISTERED',
      'READY',
      'LAST HEARTBEAT',
    ]);
    expect(rows.find(r => r[0] === 'kaito')?.slice(0, 4)).toEqual([
      'kaito',
      'yes',
      'yes',
      'yes',
    ]);
    expect(rows.find(r => r[0] === 'dynamo')).toEqual([
      'dynamo',
      'no',
      'no',
      'no',
      '-',
    ]);
  });

  it('uninstall refuses while deployments use it; --force says what would be orphaned', async () => {
    const refused = await runway('uninstall', '--all');
    expect(refused.code).toBe(1);
    expect(refused.lines.at(-1)).toBe(
      'runway: in use: 1 resource(s) still use it (ModelDeployment team-a/gemma): delete them first, or pass --force to orphan them',
    );
    const dry = await runway(
      'provider',
      'uninstall',
      'kaito',
      '--force',
      '--dry-run',
    );
    expect(dry.code).toBe(0);
    expect(dry.lines).toContain('  orphaned: ModelDeployment team-a/gemma');
    expect(dry.lines).toContain(
      '  deleted: Deployment airunway-system/kaito-provider',
    );
    expect(
      await exists(Deployments, { namespace: NS, name: 'kaito-provider' }),
    ).toBe(true);
    // Delete it while its provider still runs (it removes its finalizer).
    await client.delete(ModelDeployments, {
      namespace: 'team-a',
      name: 'gemma',
    });
    await eventually(
      'the ModelDeployment to be gone',
      async () =>
        !(await exists(ModelDeployments, {
          namespace: 'team-a',
          name: 'gemma',
        })),
    );
  });

  it('doctor reports each broken state with its fix', async () => {
    const expected = expectationsFromBundles(defaultDeployDir(), NS);
    const check = async (id: string) =>
      runChecks(await readClusterState(client, expected), expected, {
        heartbeatStaleMs: 3000,
      }).find(c => c.id === id);

    await stopController('kaito');
    await sleep(4000);
    expect(await check('provider/kaito/heartbeat')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /last heartbeat is \d+s old \(stale after 3s\)/,
      ),
      fix: expect.stringContaining('rollout restart deployment/kaito-provider'),
    });

    await stopController('core');
    expect(await check('webhook/airunway-core-validating')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('does not answer'),
      fix: expect.stringContaining(
        'kubectl delete validatingwebhookconfiguration airunway-core-validating',
      ),
    });

    await client.patch(
      Deployments,
      { namespace: NS, name: 'airunway-core' },
      { spec: { replicas: 0 } },
      'merge',
    );
    expect(await check('controller/core')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('scaled to 0'),
      fix: `kubectl -n ${NS} scale deployment airunway-core --replicas=1`,
    });

    await client.delete(CustomResourceDefinitions, {
      name: 'models.models.airunway.ai',
    });
    await eventually(
      'the CRD to be gone',
      async () =>
        !(await exists(CustomResourceDefinitions, {
          name: 'models.models.airunway.ai',
        })),
    );
    expect(await check('crd/models.models.airunway.ai')).toEqual({
      id: 'crd/models.models.airunway.ai',
      status: 'fail',
      message: 'CRD models.models.airunway.ai is not installed',
      fix: 'runway controller install',
    });

    const text = await runway('doctor');
    expect(text.code).toBe(1);
    expect(text.out).toContain(
      'FAIL crd/models.models.airunway.ai: CRD models.models.airunway.ai is not installed (fix: runway controller install)',
    );
    expect(text.out.trimEnd().split('\n').at(-1)).toBe('problems found');
  });

  it('uninstall --all --delete-crds leaves nothing of ours', async () => {
    const { code, lines } = await runway(
      'uninstall',
      '--all',
      '--delete-crds',
      '--wait',
    );
    expect(lines.at(-1)).toMatch(/^uninstall: /);
    expect(code).toBe(0);
    expect(lines).toContain(
      '  deleted: ValidatingWebhookConfiguration airunway-core-validating',
    );
    expect(lines).toContain('  deleted: InferenceProviderConfig kaito');
    expect(
      await eventually(
        'nothing of ours to be left',
        async () => (await leftovers()).length === 0 || undefined,
        90_000,
      ).catch(async () => leftovers()),
    ).toBe(true);
    // Nothing to upgrade, in the cluster or out of it (no Deployment to look for: its ServiceAccount).
    for (const flags of [[], ['--out-of-cluster']]) {
      const upgrade = await runway('controller', 'upgrade', ...flags);
      expect(upgrade.code).toBe(1);
      expect(upgrade.lines.at(-1)).toBe(
        `runway: not installed: ${
          flags.length ? 'ServiceAccount' : 'Deployment'
        } airunway-system/airunway-core is not installed: run runway controller install (or runway provider install) first`,
      );
    }
  });

  it('upgrades from the 2026-11-25 bundle (applied as kubectl did): a conflict stops it with nothing applied, --force-conflicts takes over', async () => {
    // The old bundle had no Namespace: users created it, then ran kubectl apply -k.
    await client.create(Namespaces, { metadata: { name: NS } });
    for (const doc of parseAllDocuments(fs.readFileSync(FIXTURE, 'utf8'))) {
      const object = doc.toJSON() as KubeObject | null;
      if (!object) continue;
      const rt = await client.resolve(object.apiVersion!, object.kind!);
      await client.create(rt, object, {
        fieldManager: 'kubectl-client-side-apply',
      });
      if (object.kind === 'CustomResourceDefinition')
        await waitEstablished(object.metadata!.name!);
    }

    const refused = await runway('controller', 'upgrade', '--no-webhooks');
    expect(refused.code).toBe(1);
    expect(refused.lines.at(-1)).toMatch(
      // The first of our CRDs that changed since that bundle (the apply order decides which).
      /^runway: conflict: apply CustomResourceDefinition [a-z.]+\.(airunway\.ai|llamastack\.io): fields .* are owned by field manager kubectl-client-side-apply .*--force-conflicts.*; nothing was applied$/,
    );
    expect(
      (await client.get(Namespaces, { name: NS })).metadata?.labels?.[
        'app.kubernetes.io/part-of'
      ],
    ).toBeUndefined();

    const upgraded = await runway(
      'controller',
      'upgrade',
      '--no-webhooks',
      '--force-conflicts',
    );
    expect(upgraded.code).toBe(0);
    expect(upgraded.lines).toContain('  changed: Namespace airunway-system');
    expect(upgraded.lines).toContain(
      '  changed: CustomResourceDefinition llamastackdistributions.llamastack.io',
    );
    expect(upgraded.lines).toContain(
      '  changed: Deployment airunway-system/airunway-core',
    );
    const crd = await client.get<
      KubeObject & {
        spec: {
          conversion: {
            webhook: { clientConfig: { service: { namespace: string } } };
          };
        };
      }
    >(CustomResourceDefinitions, {
      name: 'llamastackdistributions.llamastack.io',
    });
    expect(crd.spec.conversion.webhook.clientConfig.service.namespace).toBe(NS);

    // The old webhook configurations are ours too: uninstall removes them with the rest.
    const removed = await runway(
      'uninstall',
      '--all',
      '--delete-crds',
      '--wait',
    );
    expect(removed.code).toBe(0);
    expect(
      await eventually(
        'nothing of ours to be left',
        async () => (await leftovers()).length === 0 || undefined,
        90_000,
      ).catch(async () => leftovers()),
    ).toBe(true);
    expect(
      await exists(InferenceProviderConfigs, { name: 'kaito' }).catch(
        () => false,
      ),
    ).toBe(false);
  });
});
