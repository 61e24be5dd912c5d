/** A controller under test, run in the test's own process against a test cluster. */
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type Manager } from '@runway-portal/controller-runtime';
import { eventually } from './eventually';

/** What a controller package's `build…` function returns (core, models, stacks). */
export interface ControllerUnderTest {
  manager: Manager;
  start(): Promise<void>;
}

/**
 * Builds a controller with a client for `cluster` (with `kubeConfig`, e.g.
 * a ServiceAccount's from `installForTest`, so RBAC decides as for it; else
 * as admin), starts it and waits until it leads with synced caches. The
 * caller stops `controller.manager` and awaits `running`.
 */
export async function startControllerForTest<T extends ControllerUnderTest>(
  cluster: { kubeConfig(): KubeConfig },
  build: (client: KubeClient) => T,
  options: { kubeConfig?: KubeConfig; name?: string } = {},
): Promise<{ controller: T; running: Promise<void> }> {
  const kc = options.kubeConfig ?? cluster.kubeConfig();
  const controller = build(new KubeClient(kc));
  const running = controller.start();
  running.catch(() => undefined);
  await eventually(
    `${options.name ?? 'the controller'} to lead with synced caches`,
    () =>
      controller.manager.isLeader() && controller.manager.informers.hasSynced(),
    30_000,
  );
  return { controller, running };
}
