import { useRouteRef } from '@backstage/core-plugin-api';
import type { RunwayKind } from '@runway-portal/plugin-runway-common';
import { paths, rootRouteRef } from '../../routes';

/** Absolute links to the runway pages, wherever the app mounted them. */
export function useRunwayLinks() {
  const root = useRouteRef(rootRouteRef)().replace(/\/$/, '');
  return {
    root: root || '/',
    /** The dashboard's tab of one kind. */
    dashboard: (kind: RunwayKind) => `${root || ''}/?kind=${kind}`,
    deploy: `${root}/${paths.deploy}`,
    newModel: `${root}/${paths.newModel}`,
    detail: (cluster: string, namespace: string, name: string) =>
      `${root}/${paths.detail(cluster, namespace, name)}`,
    edit: (cluster: string, namespace: string, name: string) =>
      `${root}/${paths.edit(cluster, namespace, name)}`,
    /** The detail page of any kind. */
    of: (kind: RunwayKind, cluster: string, namespace: string, name: string) =>
      `${root}/${paths.of(kind, cluster, namespace, name)}`,
  };
}
