import { join } from 'node:path';

/** The processes of one cluster, in start order. */
export const COMPONENTS = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kwok',
] as const;
export type Component = (typeof COMPONENTS)[number];

/** The sub-command of the runway-kube binary that runs each component. */
export const SUBCOMMANDS: Record<Component, string> = {
  etcd: 'etcd',
  'kube-apiserver': 'apiserver',
  'kube-controller-manager': 'controller-manager',
  'kube-scheduler': 'scheduler',
  kwok: 'kwok',
};

export interface ClusterPorts {
  apiserver: number;
  etcdClient: number;
  etcdPeer: number;
}

/** Where one cluster keeps its files; everything lives under `dir`. */
export interface ClusterLayout {
  dir: string;
  certsDir: string;
  etcdDataDir: string;
  logsDir: string;
  kubeconfigPath: string;
  kwokStagesPath: string;
  ports: ClusterPorts;
}

export const SERVICE_CIDR = '10.0.0.0/24';
export const SERVICE_IP = '10.0.0.1';
export const POD_CIDR = '10.1.0.0/16';
/** Nodes with this annotation are simulated by this cluster's kwok. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

export function clusterLayout(dir: string, ports: ClusterPorts): ClusterLayout {
  return {
    dir,
    certsDir: join(dir, 'pki'),
    etcdDataDir: join(dir, 'etcd'),
    logsDir: join(dir, 'logs'),
    kubeconfigPath: join(dir, 'kubeconfig'),
    kwokStagesPath: join(dir, 'kwok-stages.yaml'),
    ports,
  };
}

export function logPath(layout: ClusterLayout, component: Component): string {
  return join(layout.logsDir, `${component}.log`);
}

export function serverUrl(ports: ClusterPorts): string {
  return `https://127.0.0.1:${ports.apiserver}`;
}

/** Arguments after the runway-kube sub-command, per component. */
export function componentArgs(
  component: Component,
  layout: ClusterLayout,
): string[] {
  const pki = (file: string) => join(layout.certsDir, file);
  const { ports } = layout;
  switch (component) {
    case 'etcd':
      return [
        `--data-dir=${layout.etcdDataDir}`,
        `--listen-client-url=http://127.0.0.1:${ports.etcdClient}`,
        `--listen-peer-url=http://127.0.0.1:${ports.etcdPeer}`,
      ];
    case 'kube-apiserver':
      return [
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        `--secure-port=${ports.apiserver}`,
        `--etcd-servers=http://127.0.0.1:${ports.etcdClient}`,
        `--tls-cert-file=${pki('apiserver.crt')}`,
        `--tls-private-key-file=${pki('apiserver.key')}`,
        `--client-ca-file=${pki('ca.crt')}`,
        `--service-account-issuer=https://kubernetes.default.svc.cluster.local`,
        `--service-account-key-file=${pki('sa.pub')}`,
        `--service-account-signing-key-file=${pki('sa.key')}`,
        `--service-cluster-ip-range=${SERVICE_CIDR}`,
        '--authorization-mode=RBAC',
        // As hardened distributions (OpenShift) run it: setting blockOwnerDeletion
        // needs `update` on the owner's finalizers, so the shipped RBAC is tested for it.
        '--enable-admission-plugins=OwnerReferencesPermissionEnforcement',
        '--allow-privileged=true',
        // No pod can reach the API server through the kubernetes Service
        // (pods are simulated), and loopback endpoints are invalid anyway.
        '--endpoint-reconciler-type=none',
        '--profiling=false',
      ];
    case 'kube-controller-manager':
      return [
        `--kubeconfig=${layout.kubeconfigPath}`,
        `--service-account-private-key-file=${pki('sa.key')}`,
        `--root-ca-file=${pki('ca.crt')}`,
        `--cluster-signing-cert-file=${pki('ca.crt')}`,
        `--cluster-signing-key-file=${pki('ca.key')}`,
        '--use-service-account-credentials=false',
        '--controllers=*',
        '--leader-elect=false',
        '--secure-port=0',
        '--profiling=false',
      ];
    case 'kube-scheduler':
      return [
        `--kubeconfig=${layout.kubeconfigPath}`,
        '--leader-elect=false',
        '--secure-port=0',
        '--profiling=false',
      ];
    case 'kwok':
      return [
        `--kubeconfig=${layout.kubeconfigPath}`,
        '--manage-all-nodes=false',
        `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
        '--node-lease-duration-seconds=40',
        `--cidr=${POD_CIDR}`,
        `--write-default-stages=${layout.kwokStagesPath}`,
      ];
    default:
      throw new Error(`unknown component ${component satisfies never}`);
  }
}
