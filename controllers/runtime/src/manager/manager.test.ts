import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../kube/client';
import { silentLogger } from '../observability/logger';
import { runChecks } from './httpServer';
import { Manager } from './manager';

/** A client for an address nothing listens on: these tests never connect. */
function offlineClient(): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return new KubeClient(kc);
}

describe('Manager options', () => {
  const base = { client: offlineClient(), logger: silentLogger };

  it('explains an invalid name', () => {
    expect(() => new Manager({ ...base, name: 'Runway Core' })).toThrow(
      'manager name "Runway Core" is not valid: use lower-case letters, digits and "-", e.g. "runway-core"',
    );
  });

  it('explains invalid leader election timing', () => {
    expect(
      () =>
        new Manager({
          ...base,
          name: 'x',
          leaderElection: {
            namespace: 'ns',
            leaseDurationMs: 5000,
            renewDeadlineMs: 10_000,
          },
        }),
    ).toThrow(
      /leaderElection.leaseDurationMs \(5000\) must be greater than renewDeadlineMs \(10000\)/,
    );
    expect(
      () =>
        new Manager({ ...base, name: 'x', leaderElection: { namespace: '' } }),
    ).toThrow(/leaderElection.namespace is required/);
  });

  it('explains missing webhook certificate settings', () => {
    expect(
      () =>
        new Manager({
          ...base,
          name: 'x',
          webhook: {
            certificates: { secretName: 's', secretNamespace: 'ns', hosts: {} },
          },
        }),
    ).toThrow(
      /webhook.certificates.hosts needs at least one DNS name or IP address/,
    );
  });

  it('refuses two controllers with the same name', () => {
    const mgr = new Manager({ ...base, name: 'x' });
    const rt = {
      group: '',
      version: 'v1',
      plural: 'configmaps',
      kind: 'ConfigMap',
      namespaced: true,
    };
    mgr
      .controller()
      .for(rt)
      .complete(() => undefined);
    expect(() =>
      mgr
        .controller()
        .for(rt)
        .complete(() => undefined),
    ).toThrow(
      'a controller named "configmap" already exists: give each a unique name with named()',
    );
    expect(mgr.informers.count()).toBe(1); // both share one informer
  });

  it('explains builder misuse', () => {
    const mgr = new Manager({ ...base, name: 'x' });
    expect(() => mgr.controller().complete(() => undefined)).toThrow(
      /call for\(<primary type>\) before complete\(\)/,
    );
    expect(() => mgr.controller().named('Bad_Name')).toThrow(
      /controller name "Bad_Name" is not valid/,
    );
  });
});

describe('runChecks', () => {
  it('lists every check and fails when one fails or throws', async () => {
    const result = await runChecks(
      new Map<string, () => boolean>([
        ['ping', () => true],
        ['cache', () => false],
        [
          'boom',
          () => {
            throw new Error('x');
          },
        ],
      ]),
    );
    expect(result.status).toBe(500);
    expect(result.body).toBe(
      '[+]ping ok\n[-]cache failed\n[-]boom failed\ncheck failed\n',
    );
    expect((await runChecks(new Map([['ping', () => true]]))).status).toBe(200);
  });
});
