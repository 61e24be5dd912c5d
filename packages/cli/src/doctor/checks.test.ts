import { DEFAULT_NAMESPACE, defaultDeployDir } from '../bundles/catalog';
import { bundledExpectations } from './bundled';
import { formatChecks, runChecks } from './checks';
import { expectationsFromBundles, READ_NEEDS } from './read';
import type { Check, ClusterState, Expectations } from './types';

const expected: Expectations = {
  namespace: 'airunway-system',
  crds: [{ name: 'modeldeployments.airunway.ai', versions: ['v1alpha1'] }],
  controllers: [{ component: 'core', deployment: 'airunway-core' }],
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
      upstreamCrds: ['workspaces.kaito.sh'],
    },
  ],
  operators: [
    { name: 'models', deployment: 'airunway-models', title: 'models operator' },
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
    });
  });
});
