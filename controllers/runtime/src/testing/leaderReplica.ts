/**
 * One replica of a leader-elected controller, run as its own process by
 * leader.integration.test.ts (so that killing it is a real SIGKILL).
 *
 * Usage: node --require @backstage/cli/config/nodeTransform.cjs leaderReplica.ts <kubeconfig> <identity> <namespace>
 * Prints one JSON line per fact on stdout: started, leading, reconcile, stopped.
 */
import { KubeClient } from '../kube/client';
import { ConfigMaps } from '../kube/wellKnown';
import { Manager } from '../manager/manager';
import { createLogger } from '../observability/logger';

const [kubeconfigPath, identity, namespace] = process.argv.slice(2);
const say = (fact: Record<string, unknown>) =>
  process.stdout.write(
    `${JSON.stringify({ ...fact, identity, at: Date.now() })}\n`,
  );

const client = KubeClient.load(kubeconfigPath);
const manager = new Manager({
  name: 'leader-test',
  client,
  logger: createLogger({
    level: 'warn',
    write: line => process.stderr.write(line),
  }),
  metrics: false,
  healthProbes: false,
  leaderElection: { namespace, identity },
  gracefulShutdownTimeoutMs: 5000,
});
manager
  .controller()
  .named('leader-test')
  .for(ConfigMaps, { selector: { namespace, labelSelector: 'test=leader' } })
  .complete(async req => {
    say({ event: 'reconcile', name: req.name });
    await client.patch(
      ConfigMaps,
      req,
      { metadata: { annotations: { 'reconciled-by': identity } } },
      'merge',
    );
  });

void manager.informers
  .informerFor(ConfigMaps, { namespace, labelSelector: 'test=leader' })
  .waitForSync()
  .then(() => say({ event: 'started' }));
void manager.elected().then(() => say({ event: 'leading' }));
manager.start().then(
  () => {
    say({ event: 'stopped' });
    process.exit(0);
  },
  err => {
    say({ event: 'stopped', error: String(err) });
    process.exit(1);
  },
);
