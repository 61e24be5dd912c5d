import { DEFAULT_NAMESPACE, defaultDeployDir } from '../bundles/catalog';
import { bundledExpectations } from './bundled';
import { formatChecks, runChecks } from './checks';
import { expectationsFromBundles, READ_NEEDS } from './read';
import type { Check, ClusterState, Expectations } from './types';

const expected: Expectations = {
  namespace: 'airunway-system',
  crds: [{ name: 'modeldeployments.airunway.ai', versions: ['v1alpha1'] }],
  controllers: [
    {
      component: 'core',
      deployment: 'airunway-core',
      lease: 'airunway-core-leader',
    },
  ],
  webhooks: [
    {
      kind: 'ValidatingWebhookConfiguration',
      name: 'airunway-core-validating',
      component: 'core',
    },
  ],
  providers: [
    {
      name: 'kaito',
      deployment: 'kaito-provider',
      lease: 'kaito-provider-leader',
      upstreamCrds: ['workspaces.kaito.sh'],
    },
  ],
  operators: [
    {
      name: 'models',
      deployment: 'airunway-models',
      lease: 'airunway-models-leader',
      title: 'models operator',
    },
  ],
};

const NOW = '2026-11-25T12:00:00Z';
const healthy = (): ClusterState => ({
  serverVersion: 'v1.36.3',
  readAt: NOW,
  crds: {
    'modeldeployments.airunway.ai': {
      established: true,
      versions: ['v1alpha1'],
    },
    'workspaces.kaito.sh': { established: true, versions: ['v1beta1'] },
  },
  deployments: {
    'airunway-core': { replicas: 2, readyReplicas: 2, ready: true },
    'kaito-provider': { replicas: 1, readyReplicas: 1, ready: true },
    'airunway-models': { replicas: 1, readyReplicas: 1, ready: true },
  },
  leases: {},
  webhooks: {
    'ValidatingWebhookConfiguration/airunway-core-validating': {
      answered: true,
      message: 'answered',
    },
  },
  providers: [
    {
      name: 'kaito',
      ready: true,
      lastHeartbeat: '2026-11-25T11:59:30Z',
      upstreamCRDVersion: 'kaito.sh/v1beta1',
    },
  ],
  gateway: { crdInstalled: true, gateways: 1, labelled: 1 },
});

const byId = (checks: Check[], id: string) => checks.find(c => c.id === id);

describe('runChecks', () => {
  it('passes a healthy installation, one line per check', () => {
    const checks = runChecks(healthy(), expected);
    expect(checks.filter(c => c.status !== 'ok')).toEqual([]);
    expect(checks.map(c => c.id)).toEqual([
      'crd/modeldeployments.airunway.ai',
      'controller/core',
      'webhook/airunway-core-validating',
      'provider/kaito/controller',
      'provider/kaito/ready',
      'provider/kaito/heartbeat',
      'provider/kaito/upstream',
      'gateway',
      'operator/models',
    ]);
  });

  it('a missing CRD, and one older than ours, with the fix', () => {
    const state = healthy();
    state.crds['modeldeployments.airunway.ai'] = undefined;
    expect(
      byId(runChecks(state, expected), 'crd/modeldeployments.airunway.ai'),
    ).toEqual({
      id: 'crd/modeldeployments.airunway.ai',
      status: 'fail',
      message: 'CRD modeldeployments.airunway.ai is not installed',
      fix: 'runway controller install',
    });
    state.crds['modeldeployments.airunway.ai'] = {
      established: true,
      versions: ['v1alpha0'],
    };
    expect(
      byId(runChecks(state, expected), 'crd/modeldeployments.airunway.ai'),
    ).toMatchObject({ status: 'fail', fix: 'runway controller upgrade' });
  });

  it('a stopped controller', () => {
    const state = healthy();
    state.deployments['airunway-core'] = {
      replicas: 2,
      readyReplicas: 0,
      ready: false,
    };
    expect(byId(runChecks(state, expected), 'controller/core')).toMatchObject({
      status: 'fail',
      message: 'controller core: 0/2 replicas ready',
      fix: expect.stringContaining('logs deployment/airunway-core'),
    });
    state.deployments['airunway-core'] = undefined;
    expect(byId(runChecks(state, expected), 'controller/core')).toMatchObject({
      status: 'fail',
      fix: 'runway controller install core',
    });
  });

  it('a webhook that does not answer, and one not registered', () => {
    const state = healthy();
    state.webhooks['ValidatingWebhookConfiguration/airunway-core-validating'] =
      {
        answered: false,
        message: 'failed calling webhook: connection refused',
      };
    expect(
      byId(runChecks(state, expected), 'webhook/airunway-core-validating'),
    ).toMatchObject({
      status: 'fail',
      message: expect.stringContaining(
        'does not answer (failed calling webhook: connection refused)',
      ),
      fix: expect.stringContaining(
        'kubectl delete validatingwebhookconfiguration airunway-core-validating',
      ),
    });
    state.webhooks['ValidatingWebhookConfiguration/airunway-core-validating'] =
      undefined;
    expect(
      byId(runChecks(state, expected), 'webhook/airunway-core-validating'),
    ).toMatchObject({ status: 'fail', fix: 'runway controller install core' });
  });

  it('a stale provider, a provider not ready, a missing upstream CRD', () => {
    const state = healthy();
    state.providers = [
      {
        name: 'kaito',
        ready: false,
        lastHeartbeat: '2026-11-25T11:50:00Z',
        message: 'Workspace CRD not installed',
      },
    ];
    state.crds['workspaces.kaito.sh'] = undefined;
    const checks = runChecks(state, expected);
    expect(byId(checks, 'provider/kaito/heartbeat')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('600s old (stale after 180s)'),
    });
    expect(byId(checks, 'provider/kaito/ready')).toMatchObject({
      status: 'fail',
      message: 'provider kaito reports not ready: Workspace CRD not installed',
    });
    expect(byId(checks, 'provider/kaito/upstream')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('workspaces.kaito.sh not installed'),
    });
  });

  it('a provider not installed is a warning with the install command', () => {
    const state = healthy();
    state.providers = [];
    state.deployments['kaito-provider'] = undefined;
    expect(
      runChecks(state, expected).filter(c => c.id.startsWith('provider/')),
    ).toEqual([
      {
        id: 'provider/kaito',
        status: 'warn',
        message: 'provider kaito is not installed',
        fix: 'runway provider install kaito',
      },
    ]);
  });

  it('no gateway, and operators not installed', () => {
    const state = healthy();
    state.gateway = { crdInstalled: false, gateways: 0, labelled: 0 };
    state.deployments['airunway-models'] = undefined;
    const checks = runChecks(state, expected);
    expect(byId(checks, 'gateway')).toMatchObject({ status: 'warn' });
    expect(byId(checks, 'operator/models')).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('not installed'),
    });
  });
});

describe('optional operators (models, stacks)', () => {
  const withModelsWebhook: Expectations = {
    ...expected,
    webhooks: [
      ...expected.webhooks,
      {
        kind: 'MutatingWebhookConfiguration',
        name: 'airunway-models-inject',
        component: 'models',
      },
    ],
  };

  it('warns when one is absent and does not check its webhooks', () => {
    const state = healthy();
    delete state.deployments['airunway-models'];
    const checks = runChecks(state, withModelsWebhook);
    expect(byId(checks, 'operator/models')).toMatchObject({ status: 'warn' });
    expect(byId(checks, 'webhook/airunway-models-inject')).toBeUndefined();
    expect(checks.some(c => c.status === 'fail')).toBe(false);
  });

  it('checks the webhooks of one that is installed', () => {
    const checks = runChecks(healthy(), withModelsWebhook);
    expect(byId(checks, 'operator/models')).toMatchObject({ status: 'ok' });
    expect(byId(checks, 'webhook/airunway-models-inject')).toMatchObject({
      status: 'fail',
    });
  });
});

describe('controllers running outside the cluster (the local system, a laptop)', () => {
  // The controllers' own lease: 15 s, renewed every 2 s.
  const renewedAt = (renewTime: string) => ({
    holderIdentity: 'laptop_abc123',
    renewTime,
    leaseDurationSeconds: 15,
  });
  const withoutDeployments = (): ClusterState => {
    const state = healthy();
    state.deployments = {};
    return state;
  };

  it('a ready Deployment is judged by its replicas, whatever the lease says', () => {
    const state = healthy();
    state.leases['airunway-core-leader'] = renewedAt('2026-11-25T11:00:00Z');
    expect(byId(runChecks(state, expected), 'controller/core')).toEqual({
      id: 'controller/core',
      status: 'ok',
      message: 'controller core: 2/2 replicas ready',
    });
  });

  it('no Deployment and a fresh leader lease: ok, naming its age and holder', () => {
    const state = withoutDeployments();
    state.leases['airunway-core-leader'] = renewedAt(
      '2026-11-25T11:59:57.000000Z',
    );
    expect(byId(runChecks(state, expected), 'controller/core')).toEqual({
      id: 'controller/core',
      status: 'ok',
      message:
        'controller core: running outside the cluster (leader lease renewed 3 s ago by laptop_abc123)',
    });
    // Within the slack past its duration (clock skew) it still counts; beyond, it does not.
    state.leases['airunway-core-leader'] = renewedAt('2026-11-25T11:59:42Z');
    expect(byId(runChecks(state, expected), 'controller/core')?.status).toBe(
      'ok',
    );
    expect(
      byId(runChecks(state, expected, { leaseSlackMs: 0 }), 'controller/core')
        ?.status,
    ).toBe('fail');
  });

  it('no Deployment and a stale lease: fails with the install fix, naming the age', () => {
    const state = withoutDeployments();
    state.leases['airunway-core-leader'] = renewedAt('2026-11-25T11:58:00Z');
    expect(byId(runChecks(state, expected), 'controller/core')).toEqual({
      id: 'controller/core',
      status: 'fail',
      message:
        'controller core: Deployment airunway-system/airunway-core not found, and its leader lease airunway-core-leader was last renewed 120 s ago by laptop_abc123 (expired after 15 s)',
      fix: 'runway controller install core',
    });
    // A released lease (no holder) is no sign of life either.
    state.leases['airunway-core-leader'] = { leaseDurationSeconds: 15 };
    expect(byId(runChecks(state, expected), 'controller/core')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining(
        'its leader lease airunway-core-leader is not held',
      ),
    });
    // No lease at all: the message of a controller that is not there.
    state.leases = {};
    expect(byId(runChecks(state, expected), 'controller/core')).toMatchObject({
      status: 'fail',
      message:
        'controller core: Deployment airunway-system/airunway-core not found',
    });
  });

  it('no Deployment and the leases not readable: not-checked, naming the permission', () => {
    const state = withoutDeployments();
    state.notChecked = { leases: READ_NEEDS.leases };
    expect(byId(runChecks(state, expected), 'controller/core')).toEqual({
      id: 'controller/core',
      status: 'not-checked',
      message:
        'controller core: Deployment airunway-system/airunway-core not found; whether it runs outside the cluster is not checked: needs get on leases.coordination.k8s.io',
      fix: 'grant get on leases.coordination.k8s.io to the identity that runs the checks, or runway controller install core',
    });
  });

  it('a provider with no Deployment and a fresh heartbeat: ok, even without its lease', () => {
    const state = withoutDeployments();
    state.notChecked = { leases: READ_NEEDS.leases };
    const checks = runChecks(state, expected);
    expect(byId(checks, 'provider/kaito/controller')).toEqual({
      id: 'provider/kaito/controller',
      status: 'ok',
      message:
        'provider kaito: running outside the cluster (heartbeat 30 s ago)',
    });
    // A stale heartbeat and a stale lease: the controller is not running.
    state.notChecked = {};
    state.providers[0].lastHeartbeat = '2026-11-25T11:50:00Z';
    state.leases['kaito-provider-leader'] = renewedAt('2026-11-25T11:50:00Z');
    expect(
      byId(runChecks(state, expected), 'provider/kaito/controller'),
    ).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('last renewed 600 s ago'),
      fix: 'runway provider install kaito',
    });
    // Its stale heartbeat's fix names no Deployment to restart or read logs from: there is none.
    const heartbeat = byId(
      runChecks(state, expected),
      'provider/kaito/heartbeat',
    );
    expect(heartbeat).toMatchObject({ status: 'fail' });
    expect(heartbeat?.fix).toContain('where it runs (no Deployment');
    expect(heartbeat?.fix).not.toContain('rollout restart');
    state.providers[0].lastHeartbeat = undefined;
    expect(
      byId(runChecks(state, expected), 'provider/kaito/heartbeat')?.fix,
    ).toMatch(
      /^read the log of the process that runs provider kaito outside the cluster/,
    );
  });

  it('an operator running outside the cluster is ok and its webhooks are checked', () => {
    const state = withoutDeployments();
    state.leases['airunway-models-leader'] = renewedAt('2026-11-25T11:59:58Z');
    const checks = runChecks(state, {
      ...expected,
      webhooks: [
        {
          kind: 'MutatingWebhookConfiguration',
          name: 'airunway-models-inject',
          component: 'models',
        },
      ],
    });
    expect(byId(checks, 'operator/models')).toMatchObject({
      status: 'ok',
      message:
        'models operator: running outside the cluster (leader lease renewed 2 s ago by laptop_abc123)',
    });
    expect(byId(checks, 'webhook/airunway-models-inject')).toMatchObject({
      status: 'fail',
    });
  });
});

describe('parts the reader may not read (the portal with its ClusterRole)', () => {
  it('reports each as not-checked, naming the permission, never as a failure', () => {
    const state = healthy();
    state.deployments = {};
    state.notChecked = {
      deployments: READ_NEEDS.deployments,
      webhookProbes: READ_NEEDS.webhookProbes,
    };
    const checks = runChecks(state, expected);
    expect(checks.some(c => c.status === 'fail')).toBe(false);
    expect(byId(checks, 'controller/*')).toEqual({
      id: 'controller/*',
      status: 'not-checked',
      message:
        'controllers in airunway-system: not checked: needs get on deployments.apps',
      fix: 'grant get on deployments.apps to the identity that runs the checks',
    });
    expect(byId(checks, 'operator/*')).toMatchObject({
      status: 'not-checked',
    });
    // A registered webhook: registration is known, its answer is not.
    expect(byId(checks, 'webhook/airunway-core-validating')).toMatchObject({
      status: 'not-checked',
      message: expect.stringContaining(
        'is registered; whether it answers is not checked: needs create on services/proxy',
      ),
    });
    // The provider is judged by its registration alone.
    expect(byId(checks, 'provider/kaito/controller')).toBeUndefined();
    expect(byId(checks, 'provider/kaito/heartbeat')).toMatchObject({
      status: 'ok',
    });
  });

  it('still fails a webhook that is not registered when only the probe is not allowed', () => {
    const state = healthy();
    state.webhooks = {};
    state.notChecked = { webhookProbes: READ_NEEDS.webhookProbes };
    expect(
      byId(runChecks(state, expected), 'webhook/airunway-core-validating'),
    ).toMatchObject({ status: 'fail', fix: 'runway controller install core' });
  });

  it('CRDs, registrations and the gateway not readable: one not-checked line each', () => {
    const state = healthy();
    state.crds = {};
    state.providers = [];
    state.notChecked = {
      crds: READ_NEEDS.crds,
      providers: READ_NEEDS.providers,
      gateway: READ_NEEDS.crds,
    };
    const checks = runChecks(state, expected);
    expect(
      checks.filter(c => c.status === 'not-checked').map(c => c.id),
    ).toEqual(['crd/*', 'provider/*', 'gateway']);
    expect(formatChecks(checks)).toContain(
      "SKIP crd/*: Runway's CRDs: not checked: needs get on customresourcedefinitions.apiextensions.k8s.io (fix: grant get on customresourcedefinitions.apiextensions.k8s.io to the identity that runs the checks)",
    );
  });
});

describe('bundledExpectations', () => {
  it('are what the bundles say (run `yarn workspace @runway-portal/cli generate` when this fails)', () => {
    expect(bundledExpectations()).toEqual(
      expectationsFromBundles(defaultDeployDir(), DEFAULT_NAMESPACE),
    );
    expect(bundledExpectations('other').namespace).toBe('other');
    expect(bundledExpectations().controllers).toContainEqual({
      component: 'core',
      deployment: 'airunway-core',
      lease: 'airunway-core-leader',
    });
  });
});
