/**
 * A controller's identity in an integration test, set up the way users set
 * it up: the `runway` CLI's own command installs the component out of
 * cluster (namespace, CRDs, ServiceAccount, RBAC, admission policy, empty
 * webhook configurations; no Deployment, the test runs the controller in its
 * process), then the test gets a token for the bundle's ServiceAccount.
 */
import { KubeConfig } from '@kubernetes/client-node';
import {
  CATALOG,
  catalogEntry,
  defaultDeployDir,
  loadCatalogBundle,
  memoryReporter,
  run,
} from '@runway-portal/cli';
import type { KubeClient, KubeObject } from '@runway-portal/controller-runtime';
import {
  serviceAccountOf,
  serviceAccountToken,
  serviceAccountUser,
} from './serviceAccounts';

/** What a test cluster (e2e-cluster's `TestCluster`) offers the CLI. */
export interface InstallTarget {
  name: string;
  kubeconfigPath: string;
  kubeConfig(): KubeConfig;
}

/** A component installed by the CLI, and who it runs as. */
export interface InstalledComponent {
  /** The objects of its bundle as shipped (before the CLI's namespace and labels). */
  objects: KubeObject[];
  /** `system:serviceaccount:<namespace>:<name>`. */
  user: string;
  /** The test cluster, authenticated with a token of the component's ServiceAccount. */
  kubeConfig: KubeConfig;
}

/** A token is valid for an hour: longer than any integration file. */
const TEST_TOKEN_SECONDS = 3600;

/**
 * Runs the `runway` CLI's command in this process (its own `run`, as the
 * binary does) and returns what it printed; throws with its last lines when
 * it exits non-zero.
 */
export async function runRunway(args: string[]): Promise<string[]> {
  const reporter = memoryReporter();
  const code = await run(args, { reporter, stdout: t => reporter.line(t) });
  if (code !== 0)
    throw new Error(
      `runway ${args.join(' ')} exited ${code}:\n${reporter.lines
        .slice(-20)
        .join('\n')}`,
    );
  return reporter.lines;
}

/**
 * Installs `component` (its name in the CLI's catalog: core, models, stacks,
 * kaito, …) into `target` with `runway <controller|provider> install
 * <component> --out-of-cluster`, and returns a kubeconfig with a token for
 * its ServiceAccount: a controller run with it has exactly the rights its
 * bundle ships with. Throws with the CLI's last lines when it fails.
 */
export async function installForTest(
  target: InstallTarget,
  component: string,
  admin: KubeClient,
): Promise<InstalledComponent> {
  const entry = catalogEntry(component);
  if (!entry)
    throw new Error(
      `component "${component}" is not in the runway CLI's catalog: name one of ${CATALOG.map(
        e => e.name,
      ).join(', ')}`,
    );
  await runRunway([
    entry.type,
    'install',
    component,
    '--out-of-cluster',
    '--kubeconfig',
    target.kubeconfigPath,
  ]);
  const { objects } = loadCatalogBundle(entry, defaultDeployDir());
  const account = serviceAccountOf(objects, `the bundle ${entry.dir}`);
  const token = await serviceAccountToken(admin, account, TEST_TOKEN_SECONDS);
  const cluster = target.kubeConfig().getCurrentCluster();
  if (!cluster)
    throw new Error(
      `the kubeconfig of cluster ${target.name} has no current cluster`,
    );
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [cluster],
    users: [{ name: account.name, token }],
    contexts: [{ name: 'sa', cluster: cluster.name, user: account.name }],
    currentContext: 'sa',
  });
  return {
    objects,
    user: serviceAccountUser(account),
    kubeConfig,
  };
}
