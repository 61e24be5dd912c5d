import { createRouteRef } from '@backstage/core-plugin-api';
import type { RunwayKind } from '@runway-portal/plugin-runway-common';

/**
 * The runway pages: the dashboard at its root (`?kind=` picks the tab), then
 * /deploy and /models/new (the forms), and `/{kind}/:cluster/:namespace/:name`
 * (+ `/edit`) for deployments, models and stacks.
 *
 * @public
 */
export const rootRouteRef = createRouteRef({ id: 'runway' });

const enc = encodeURIComponent;

export const paths = {
  deploy: 'deploy',
  newModel: 'models/new',
  of: (kind: RunwayKind, cluster: string, namespace: string, name: string) =>
    `${kind}/${enc(cluster)}/${enc(namespace)}/${enc(name)}`,
  detail: (cluster: string, namespace: string, name: string) =>
    paths.of('deployments', cluster, namespace, name),
  edit: (cluster: string, namespace: string, name: string) =>
    `${paths.detail(cluster, namespace, name)}/edit`,
};
