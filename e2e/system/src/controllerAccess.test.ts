import { CATALOG } from '@runway-portal/cli';
import { parse } from 'yaml';
import {
  controllerServiceAccount,
  serviceAccountOf,
  serviceAccountUser,
  tokenKubeconfig,
} from './controllerAccess';
import { CONTROLLERS } from './plan';

describe('controller access from the bundles the CLI installs', () => {
  it.each(CONTROLLERS.map(c => [c.name, c.component]))(
    '%s runs as the one ServiceAccount of its bundle (%s), in airunway-system',
    (_name, component) => {
      expect(component).toBeDefined();
      const account = controllerServiceAccount(component!);
      expect(account.namespace).toBe('airunway-system');
      expect(serviceAccountUser(account)).toBe(
        `system:serviceaccount:airunway-system:${account.name}`,
      );
    },
  );

  it('runs a controller for every bundle runway install --all installs, and for nothing else', () => {
    expect(CONTROLLERS.map(c => c.component).sort()).toEqual(
      CATALOG.map(e => e.name).sort(),
    );
  });

  it('names a component the catalog does not know, and where to fix it', () => {
    expect(() => controllerServiceAccount('nosuch')).toThrow(
      'component "nosuch" is not in the runway CLI\'s catalog (packages/cli/src/bundles/catalog.ts): name one of its entries in CONTROLLERS (src/plan.ts)',
    );
  });

  it('refuses objects without exactly one ServiceAccount, naming where they come from', () => {
    expect(() => serviceAccountOf([], 'the bundle x')).toThrow(
      'the bundle x must define exactly one ServiceAccount with a name and a namespace (found 0)',
    );
  });

  it('writes a token kubeconfig for the ServiceAccount', () => {
    const config = parse(
      tokenKubeconfig({
        cluster: 'dev',
        server: 'https://127.0.0.1:6443',
        caData: 'Q0E=',
        user: 'airunway-core',
        token: 't0k',
      }),
    );
    expect(config).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'dev',
          cluster: {
            server: 'https://127.0.0.1:6443',
            'certificate-authority-data': 'Q0E=',
          },
        },
      ],
      users: [{ name: 'airunway-core', user: { token: 't0k' } }],
      contexts: [
        { name: 'dev', context: { cluster: 'dev', user: 'airunway-core' } },
      ],
      'current-context': 'dev',
    });
  });
});
