import { join } from 'node:path';
import { parse } from 'yaml';
import {
  accessManifests,
  patchableWebhookConfigurations,
  readManifest,
  serviceAccountOf,
  serviceAccountUser,
  tokenKubeconfig,
} from './controllerAccess';
import { CONTROLLERS } from './plan';
import { REPO_ROOT } from './system';

describe('controller access from the shipped manifests', () => {
  it.each(CONTROLLERS.map(c => [c.name, c.deployDir]))(
    '%s has an install folder whose RBAC names one ServiceAccount in airunway-system',
    (_name, deployDir) => {
      expect(deployDir).toBeDefined();
      const dir = join(REPO_ROOT, deployDir!);
      const docs = accessManifests(dir).flatMap(readManifest);
      const account = serviceAccountOf(docs, join(dir, 'rbac.yaml'));
      expect(account.namespace).toBe('airunway-system');
      expect(serviceAccountUser(account)).toBe(
        `system:serviceaccount:airunway-system:${account.name}`,
      );
    },
  );

  it('finds the webhook configurations each controller may only patch', () => {
    const names = (dir: string) =>
      patchableWebhookConfigurations(
        readManifest(join(REPO_ROOT, 'controllers/deploy', dir, 'rbac.yaml')),
      ).map(c => `${c.kind}/${c.metadata?.name}`);
    expect(names('core')).toEqual([
      'ValidatingWebhookConfiguration/airunway-core-validating',
      'MutatingWebhookConfiguration/airunway-core-mutating',
    ]);
    expect(names('models')).toEqual([
      'MutatingWebhookConfiguration/airunway-models-injector',
    ]);
    expect(names('stacks')).toEqual([
      'ValidatingWebhookConfiguration/airunway-stacks-validating',
    ]);
    expect(names('provider-kaito')).toEqual([]);
  });

  it('ships the llm-d and core admission policies with their RBAC', () => {
    const files = (dir: string) =>
      accessManifests(join(REPO_ROOT, 'controllers/deploy', dir)).map(f =>
        f.slice(f.lastIndexOf('/') + 1),
      );
    expect(files('core')).toEqual(['rbac.yaml', 'admission-policy.yaml']);
    expect(files('provider-llmd')).toEqual([
      'rbac.yaml',
      'admission-policy.yaml',
    ]);
    expect(files('provider-dynamo')).toEqual(['rbac.yaml']);
  });

  it('refuses an RBAC manifest without exactly one ServiceAccount, naming the file', () => {
    expect(() => serviceAccountOf([], 'x/rbac.yaml')).toThrow(
      'x/rbac.yaml must define exactly one ServiceAccount with a name and a namespace (found 0)',
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
