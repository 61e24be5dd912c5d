/**
 * Providers that are not running. Selection: a provider whose heartbeat is
 * stale is not ready, and a deployment naming it says why. Deletion always finishes: the core, running as its ServiceAccount with a
 * short `--finalizer-timeout` and `--provider-heartbeat-timeout`, shows
 * `Terminating` while a deployment is being deleted and removes the
 * finalizer of a provider whose controller is not running once the timeout
 * has passed, paused or not; a running provider keeps its finalizer.
 * Provider controllers are not started: the test writes their registrations
 * and heartbeats, and puts their finalizers on, as they would.
 */
import { isNotFound } from '@runway-portal/controller-runtime';
import { ModelDeployments } from './reconciler';
import {
  conditionOf,
  deployment,
  eventsOf,
  eventually,
  getDeployment,
  registerProvider,
  setProviderReady,
  sleep,
  useCoreCluster,
} from './__testUtils__/cluster';

jest.setTimeout(60_000);

const NS = 'apps';
const GPU = {
  model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
  engine: { type: 'vllm' },
  resources: { gpu: { count: 1 } },
};
const CPU = {
  model: { id: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF' },
  engine: { type: 'llamacpp' },
};

describe('providers that are not running', () => {
  const env = useCoreCluster({
    name: 'core-deletion',
    namespaces: [NS],
    asCoreServiceAccount: true,
    flags: [
      '--webhook-mode=off',
      '--finalizer-timeout=3s',
      '--provider-heartbeat-timeout=2s',
    ],
  });

  const gone = (name: string) =>
    getDeployment(env.client, NS, name).then(() => false, isNotFound);
  /** A deployment holding `finalizers`, as a provider controller would have left it. */
  const createHeld = (
    name: string,
    finalizers: string[],
    annotations?: Record<string, string>,
  ) => {
    const md = deployment(NS, name, CPU, annotations);
    return env.client.create(ModelDeployments, {
      ...md,
      metadata: { ...md.metadata, finalizers },
    });
  };
  const remove = (name: string) =>
    env.client.delete(ModelDeployments, { namespace: NS, name });

  it('shows Terminating, then removes the finalizer of a stopped provider after the timeout, with a warning event', async () => {
    await registerProvider(env.client, 'kaito', true); // one heartbeat, then the "controller" stops
    await createHeld('stopped', ['airunway.ai/provider-kaito']);
    await remove('stopped');
    const md = await eventually('Terminating', async () => {
      const live = await getDeployment(env.client, NS, 'stopped');
      return live.status?.phase === 'Terminating' && live;
    });
    expect(md.status?.message).toMatch(/^Deleting: waiting for /);
    await eventually('the deployment gone', () => gone('stopped'), 15_000);
    // The event recorder writes after the patch that lets the deletion finish: wait for it.
    const event = await eventually('the FinalizerTimeout event', async () =>
      (
        await eventsOf(env.client, NS, 'stopped')
      ).find(e => e.reason === 'FinalizerTimeout'),
    );
    expect(event.message).toMatch(
      /^Finalizer airunway\.ai\/provider-kaito removed after 3s: provider 'kaito' last reported \d+s ago \(status\.lastHeartbeat; its controller is not running\); its resources may be orphaned/,
    );
  });

  it('cleans up a paused deployment whose provider is not installed, and leaves other finalizers alone', async () => {
    await createHeld(
      'paused',
      ['airunway.ai/provider-dynamo', 'example.com/keep'],
      { 'airunway.ai/reconcile-paused': 'true' },
    );
    await remove('paused');
    const md = await eventually(
      'the provider finalizer removed',
      async () => {
        const live = await getDeployment(env.client, NS, 'paused');
        return live.metadata?.finalizers?.length === 1 && live;
      },
      15_000,
    );
    expect(md.metadata?.finalizers).toEqual(['example.com/keep']);
    expect(md.status).toMatchObject({
      phase: 'Terminating',
      message: 'Deleting: waiting for finalizer example.com/keep',
    });
    await env.client.patch(
      ModelDeployments,
      { namespace: NS, name: 'paused' },
      [{ op: 'remove', path: '/metadata/finalizers' }],
      'json',
    );
    await eventually('the deployment gone', () => gone('paused'));
  });

  it('leaves a running provider its finalizer past the timeout', async () => {
    await registerProvider(env.client, 'llmd', true);
    let beating = true;
    const heartbeat = (async () => {
      while (beating) {
        await setProviderReady(env.client, 'llmd', true);
        await sleep(500);
      }
    })();
    try {
      await createHeld('running', ['airunway.ai/provider-llmd']);
      await remove('running');
      await sleep(5_000);
      const md = await getDeployment(env.client, NS, 'running');
      expect(md.metadata?.finalizers).toEqual(['airunway.ai/provider-llmd']);
      expect(md.status).toMatchObject({
        phase: 'Terminating',
        message:
          "Deleting: waiting for provider 'llmd' to delete its resources",
      });
    } finally {
      beating = false;
      await heartbeat;
    }
    // Its controller stops: the heartbeat turns stale and the core takes the finalizer off.
    await eventually(
      'the deployment gone once the provider stopped',
      () => gone('running'),
      15_000,
    );
  });

  it('does not hand a deployment to a provider whose heartbeat is stale, says why, and does once it beats again', async () => {
    await registerProvider(env.client, 'kuberay', true);
    await sleep(2_500); // the heartbeat turns stale (--provider-heartbeat-timeout=2s)
    await env.client.create(
      ModelDeployments,
      deployment(NS, 'named', { ...GPU, provider: { name: 'kuberay' } }),
    );
    const md = await eventually('Pending with the reason', async () => {
      const live = await getDeployment(env.client, NS, 'named');
      return live.status?.phase === 'Pending' && live;
    });
    expect(conditionOf(md, 'ProviderSelected')).toMatchObject({
      status: 'False',
      message: expect.stringMatching(
        /^Provider 'kuberay' is not ready: its controller last reported \d+s ago \(status\.lastHeartbeat\) and is not running/,
      ),
    });
    expect(md.status?.provider).toBeUndefined();
    await setProviderReady(env.client, 'kuberay', true); // it beats again
    await eventually(
      'handed to kuberay',
      async () =>
        (
          await getDeployment(env.client, NS, 'named')
        ).status?.provider?.name === 'kuberay',
      10_000,
    );
  });
});
