/**
 * Reads the clusters Runway talks to. Clusters are configured once, where
 * Backstage's Kubernetes plugin already reads them
 * (`kubernetes.clusterLocatorMethods`, type `config`), so an existing
 * Backstage install adds nothing new. For local development, contexts of a
 * kubeconfig file can be added under `runway.kubeconfig`. Runway-only,
 * per-cluster settings (the namespace allow-list) live under
 * `runway.clusters`.
 *
 * A broken cluster entry never stops the others: it becomes a problem that
 * names the config key and says how to fix it; the cluster, if it has a
 * name, is then reported as misconfigured in every answer.
 */
import type { Config } from '@backstage/config';
import { KubeConfig } from '@kubernetes/client-node';
import { DNS_LABEL } from '@runway-portal/plugin-runway-common';

/** How the portal authenticates to a cluster (always with its own identity, never the user's). @public */
export type ClusterAuth =
  | {
      type: 'serviceAccount';
      /** Absent: the token of the pod the backend runs in (in-cluster). */
      token?: string;
    }
  | { type: 'kubeconfig'; path?: string; context: string };

/** @public */
export interface ClusterSpec {
  name: string;
  title?: string;
  /** API server URL, from configuration only. */
  url: string;
  auth: ClusterAuth;
  /** Base64-encoded PEM of the CA, as in a kubeconfig's certificate-authority-data. */
  caData?: string;
  caFile?: string;
  skipTLSVerify: boolean;
  /** When set, the portal reads and writes only these namespaces of the cluster. */
  namespaces?: string[];
  /** Where the cluster was configured, for messages. */
  configPath: string;
}

/** @public */
export interface ClusterConfigProblem {
  /** The cluster's name when it could be read. */
  cluster?: string;
  /** The config key that is wrong, e.g. `kubernetes.clusterLocatorMethods[0].clusters[1].url`. */
  path: string;
  message: string;
}

/** @public */
export interface ClusterConfigResult {
  clusters: ClusterSpec[];
  problems: ClusterConfigProblem[];
}

/** Reads every cluster from configuration; never throws for a bad entry. @public */
export function readClusterSpecs(config: Config): ClusterConfigResult {
  const clusters: ClusterSpec[] = [];
  const problems: ClusterConfigProblem[] = [];
  const add = (spec: ClusterSpec) => {
    if (clusters.some(c => c.name === spec.name)) {
      problems.push({
        cluster: spec.name,
        path: `${spec.configPath}.name`,
        message: `cluster name "${spec.name}" is used twice; give each cluster a unique name (the second one is ignored)`,
      });
      return;
    }
    clusters.push(spec);
  };

  const methods = safely(
    problems,
    'kubernetes.clusterLocatorMethods',
    undefined,
    () => config.getOptionalConfigArray('kubernetes.clusterLocatorMethods'),
  );
  (methods ?? []).forEach((method, i) => {
    const methodPath = `kubernetes.clusterLocatorMethods[${i}]`;
    const type = safely(problems, `${methodPath}.type`, undefined, () =>
      method.getString('type'),
    );
    // Other locator types (catalog, gke, localKubectlProxy) belong to the Kubernetes plugin.
    if (type !== 'config') return;
    const entries = safely(problems, `${methodPath}.clusters`, undefined, () =>
      method.getOptionalConfigArray('clusters'),
    );
    (entries ?? []).forEach((entry, j) => {
      const spec = readConfigCluster(
        entry,
        `${methodPath}.clusters[${j}]`,
        problems,
      );
      if (spec) add(spec);
    });
  });

  const contexts = safely(problems, 'runway.kubeconfig', undefined, () =>
    config.getOptionalConfigArray('runway.kubeconfig'),
  );
  (contexts ?? []).forEach((entry, i) => {
    const spec = readKubeconfigCluster(
      entry,
      `runway.kubeconfig[${i}]`,
      problems,
    );
    if (spec) add(spec);
  });

  applyNamespaceAllowLists(config, clusters, problems);
  return { clusters, problems };
}

function readConfigCluster(
  c: Config,
  path: string,
  problems: ClusterConfigProblem[],
): ClusterSpec | undefined {
  const name = readName(c, path, problems);
  if (!name) return undefined;
  const fail = (key: string, message: string) => {
    problems.push({ cluster: name, path: `${path}.${key}`, message });
    return undefined;
  };
  const read = <T>(key: string, fn: () => T) =>
    safely(problems, `${path}.${key}`, name, fn);

  const url = read('url', () => c.getOptionalString('url'));
  if (!url)
    return fail(
      'url',
      `cluster "${name}" has no url: set it to the API server's address, e.g. https://k8s.example.com:6443`,
    );
  const urlProblem = checkServerUrl(url);
  if (urlProblem) return fail('url', `cluster "${name}": ${urlProblem}`);

  const authProvider =
    read('authMetadata', () =>
      authProviderFromMetadata(c.getOptional('authMetadata')),
    ) ??
    read('authProvider', () => c.getOptionalString('authProvider')) ??
    'serviceAccount';
  if (authProvider !== 'serviceAccount') {
    return fail(
      'authProvider',
      `cluster "${name}" uses authProvider "${authProvider}", which authenticates as the browser's user; Runway's backend needs its own identity: use authProvider "serviceAccount" with a serviceAccountToken, or add the cluster under runway.kubeconfig`,
    );
  }
  const token = read('serviceAccountToken', () =>
    c.getOptionalString('serviceAccountToken'),
  );
  const caData = read('caData', () => c.getOptionalString('caData'));
  const caFile = read('caFile', () => c.getOptionalString('caFile'));
  const skipTLSVerify =
    read('skipTLSVerify', () => c.getOptionalBoolean('skipTLSVerify')) ?? false;
  if (caData !== undefined && !isBase64(caData)) {
    return fail(
      'caData',
      `cluster "${name}": caData must be the base64-encoded PEM of the CA (as certificate-authority-data in a kubeconfig)`,
    );
  }
  return {
    name,
    title: read('title', () => c.getOptionalString('title')),
    url: url.replace(/\/+$/, ''),
    auth: { type: 'serviceAccount', token: token || undefined },
    caData,
    caFile,
    skipTLSVerify,
    configPath: path,
  };
}

function readKubeconfigCluster(
  c: Config,
  path: string,
  problems: ClusterConfigProblem[],
): ClusterSpec | undefined {
  const context = safely(problems, `${path}.context`, undefined, () =>
    c.getOptionalString('context'),
  );
  if (!context) {
    problems.push({
      path: `${path}.context`,
      message: `${path} has no context: set it to the name of a context in the kubeconfig file`,
    });
    return undefined;
  }
  const name =
    safely(problems, `${path}.name`, undefined, () =>
      c.getOptionalString('name'),
    ) ?? context;
  if (!DNS_LABEL.test(name)) {
    problems.push({
      path: `${path}.name`,
      message: `cluster name "${name}" is not usable in URLs: set ${path}.name to lower-case letters, digits and '-' (e.g. "dev")`,
    });
    return undefined;
  }
  const file = safely(problems, `${path}.path`, name, () =>
    c.getOptionalString('path'),
  );
  const kc = new KubeConfig();
  try {
    if (file) kc.loadFromFile(file);
    else kc.loadFromDefault();
  } catch (err) {
    problems.push({
      cluster: name,
      path: `${path}.path`,
      message: `cannot read kubeconfig ${file ?? '(default)'}: ${errorMessage(
        err,
      )}; set ${path}.path to a readable kubeconfig file`,
    });
    return undefined;
  }
  const ctx = kc.getContextObject(context);
  const cluster = ctx ? kc.getCluster(ctx.cluster) : null;
  if (!ctx || !cluster) {
    const known =
      kc
        .getContexts()
        .map(x => x.name)
        .join(', ') || 'none';
    problems.push({
      cluster: name,
      path: `${path}.context`,
      message: `kubeconfig ${
        file ?? '(default)'
      } has no usable context "${context}" (contexts: ${known})`,
    });
    return undefined;
  }
  return {
    name,
    title: safely(problems, `${path}.title`, name, () =>
      c.getOptionalString('title'),
    ),
    url: cluster.server.replace(/\/+$/, ''),
    auth: { type: 'kubeconfig', path: file, context },
    skipTLSVerify: cluster.skipTLSVerify,
    configPath: path,
  };
}

function readName(
  c: Config,
  path: string,
  problems: ClusterConfigProblem[],
): string | undefined {
  const name = safely(problems, `${path}.name`, undefined, () =>
    c.getOptionalString('name'),
  );
  if (!name) {
    problems.push({
      path: `${path}.name`,
      message: `${path} has no name: give the cluster a short unique name, e.g. "gpu-east"`,
    });
    return undefined;
  }
  if (!DNS_LABEL.test(name)) {
    problems.push({
      cluster: name,
      path: `${path}.name`,
      message: `cluster name "${name}" is not usable in URLs: use lower-case letters, digits and '-' (e.g. "gpu-east")`,
    });
    return undefined;
  }
  return name;
}

/** `runway.clusters: [{name, namespaces}]`: the optional per-cluster namespace allow-list. */
function applyNamespaceAllowLists(
  config: Config,
  clusters: ClusterSpec[],
  problems: ClusterConfigProblem[],
): void {
  const entries = safely(problems, 'runway.clusters', undefined, () =>
    config.getOptionalConfigArray('runway.clusters'),
  );
  (entries ?? []).forEach((entry, i) => {
    const path = `runway.clusters[${i}]`;
    const name = safely(problems, `${path}.name`, undefined, () =>
      entry.getOptionalString('name'),
    );
    const namespaces = safely(problems, `${path}.namespaces`, name, () =>
      entry.getOptionalStringArray('namespaces'),
    );
    const cluster = clusters.find(c => c.name === name);
    if (!cluster) {
      problems.push({
        cluster: name,
        path: `${path}.name`,
        message: `runway.clusters names cluster "${
          name ?? ''
        }", which is not configured: use the name of a cluster in kubernetes.clusterLocatorMethods or runway.kubeconfig`,
      });
      return;
    }
    const invalid = (namespaces ?? []).find(ns => !DNS_LABEL.test(ns));
    if (invalid !== undefined) {
      // Fail closed: a typo must not open every namespace.
      cluster.namespaces = [];
      problems.push({
        cluster: name,
        path: `${path}.namespaces`,
        message: `"${invalid}" is not a namespace name (lower-case letters, digits and '-'); until fixed, no namespace of cluster "${name}" is allowed`,
      });
      return;
    }
    if (namespaces) cluster.namespaces = [...new Set(namespaces)];
  });
}

/** Why a configured API server URL is not usable, or undefined when it is. @public */
export function checkServerUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url "${url}" is not a URL: write it as https://host:port`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `url "${url}" must start with https:// (or http:// for a local proxy)`;
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    return `url "${url}" must not carry credentials, a query or a fragment: put the token in serviceAccountToken`;
  }
  return undefined;
}

function authProviderFromMetadata(metadata: unknown): string | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const value = (metadata as Record<string, unknown>)[
    'kubernetes.io/auth-provider'
  ];
  return typeof value === 'string' ? value : undefined;
}

function isBase64(value: string): boolean {
  return /^[A-Za-z0-9+/=\s]+$/.test(value);
}

function safely<T>(
  problems: ClusterConfigProblem[],
  path: string,
  cluster: string | undefined,
  fn: () => T,
): T | undefined {
  try {
    return fn();
  } catch (err) {
    problems.push({ cluster, path, message: errorMessage(err) });
    return undefined;
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
