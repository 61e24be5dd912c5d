import { createRouteRef } from '@backstage/core-plugin-api';

/** The runway pages: dashboard at its root, then /deploy and /deployments/:cluster/:namespace/:name. */
export const rootRouteRef = createRouteRef({ id: 'runway' });

export const paths = {
  deploy: 'deploy',
  detail: (cluster: string, namespace: string, name: string) =>
    `deployments/${encodeURIComponent(cluster)}/${encodeURIComponent(
      namespace,
    )}/${encodeURIComponent(name)}`,
  edit: (cluster: string, namespace: string, name: string) =>
    `${paths.detail(cluster, namespace, name)}/edit`,
};
