import { parse } from 'yaml';
import {
  controllerServiceAccount,
  serviceAccountOf,
  serviceAccountUser,
  tokenKubeconfig,
} from './serviceAccounts';

describe('controller identities from the bundles the CLI installs', () => {
  it('finds the one ServiceAccount of a bundle, in airunway-system', () => {
    const account = controllerServiceAccount('core');
    expect(account).toEqual({
      namespace: 'airunway-system',
      name: 'airunway-core',
    });
    expect(serviceAccountUser(account)).toBe(
      'system:serviceaccount:airunway-system:airunway-core',
    );
  });

  it('names a component the catalog does not know, and where to fix it', () => {
    expect(() => controllerServiceAccount('nosuch')).toThrow(
      'component "nosuch" is not in the runway CLI\'s catalog (packages/cli/src/bundles/catalog.ts): name one of its entries (core, models, stacks, kaito, dynamo, kuberay, llmd)',
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
