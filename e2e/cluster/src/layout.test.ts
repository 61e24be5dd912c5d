import { clusterLayout, componentArgs, COMPONENTS, serverUrl } from './layout';

const layout = clusterLayout('/tmp/c', {
  apiserver: 41000,
  etcdClient: 41001,
  etcdPeer: 41002,
});
const flag = (args: string[], name: string) =>
  args.find(arg => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

describe('component arguments', () => {
  it('points the API server at this cluster etcd, port and certificates', () => {
    const args = componentArgs('kube-apiserver', layout);
    expect(flag(args, 'secure-port')).toBe('41000');
    expect(flag(args, 'bind-address')).toBe('127.0.0.1');
    expect(flag(args, 'etcd-servers')).toBe('http://127.0.0.1:41001');
    expect(flag(args, 'client-ca-file')).toBe('/tmp/c/pki/ca.crt');
    expect(flag(args, 'service-account-signing-key-file')).toBe(
      '/tmp/c/pki/sa.key',
    );
    // Hardened clusters' rule for blockOwnerDeletion: the shipped RBAC must hold `update` on finalizers.
    expect(flag(args, 'enable-admission-plugins')).toBe(
      'OwnerReferencesPermissionEnforcement',
    );
  });

  it('gives etcd its own data folder and ports', () => {
    expect(componentArgs('etcd', layout)).toEqual([
      '--data-dir=/tmp/c/etcd',
      '--listen-client-url=http://127.0.0.1:41001',
      '--listen-peer-url=http://127.0.0.1:41002',
    ]);
  });

  it('connects every client component through the admin kubeconfig without leader election', () => {
    for (const component of [
      'kube-controller-manager',
      'kube-scheduler',
    ] as const) {
      const args = componentArgs(component, layout);
      expect(flag(args, 'kubeconfig')).toBe('/tmp/c/kubeconfig');
      expect(flag(args, 'leader-elect')).toBe('false');
      expect(flag(args, 'secure-port')).toBe('0');
    }
    expect(flag(componentArgs('kwok', layout), 'kubeconfig')).toBe(
      '/tmp/c/kubeconfig',
    );
  });

  it('lets kwok manage only the nodes annotated as fake, with the default stages', () => {
    const args = componentArgs('kwok', layout);
    expect(flag(args, 'manage-nodes-with-annotation-selector')).toBe(
      'kwok.x-k8s.io/node=fake',
    );
    expect(flag(args, 'manage-all-nodes')).toBe('false');
    expect(flag(args, 'write-default-stages')).toBe('/tmp/c/kwok-stages.yaml');
  });

  it('signs service-account tokens with the key the API server verifies', () => {
    expect(
      flag(
        componentArgs('kube-controller-manager', layout),
        'service-account-private-key-file',
      ),
    ).toBe(
      flag(
        componentArgs('kube-apiserver', layout),
        'service-account-signing-key-file',
      ),
    );
  });

  it('covers every component and builds the server URL from the port', () => {
    for (const component of COMPONENTS)
      expect(componentArgs(component, layout).length).toBeGreaterThan(0);
    expect(serverUrl(layout.ports)).toBe('https://127.0.0.1:41000');
  });
});
