import fs from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '@runway-portal/controller-runtime';
import { CliError } from '../errors';

export interface ClusterFlags {
  kubeconfig?: string;
  context?: string;
}

/** The kubeconfig the flags name ($KUBECONFIG or ~/.kube/config otherwise), at --context. */
export function loadKubeConfig(flags: ClusterFlags): KubeConfig {
  const kc = new KubeConfig();
  if (flags.kubeconfig) {
    if (!fs.existsSync(flags.kubeconfig))
      throw new CliError(
        'bad input',
        `kubeconfig ${flags.kubeconfig} does not exist: fix --kubeconfig`,
      );
    try {
      kc.loadFromFile(flags.kubeconfig);
    } catch (err) {
      throw new CliError(
        'bad input',
        `kubeconfig ${flags.kubeconfig} cannot be read: ${
          (err as Error).message
        }`,
      );
    }
  } else {
    kc.loadFromDefault();
  }
  const source = flags.kubeconfig ?? process.env.KUBECONFIG ?? '~/.kube/config';
  if (flags.context) {
    if (!kc.getContextObject(flags.context)) {
      const known = kc.getContexts().map(c => c.name);
      throw new CliError(
        'bad input',
        `kubeconfig ${source} has no context "${flags.context}" (it has: ${
          known.join(', ') || 'none'
        }): fix --context`,
      );
    }
    kc.setCurrentContext(flags.context);
  }
  if (!kc.getCurrentCluster()) {
    throw new CliError(
      'no cluster',
      `kubeconfig ${source} names no current cluster: pass --context or --kubeconfig`,
    );
  }
  return kc;
}

export function clientFor(flags: ClusterFlags): KubeClient {
  return new KubeClient(loadKubeConfig(flags), {
    userAgent: 'runway-cli',
    requestTimeoutMs: 30_000,
  });
}
