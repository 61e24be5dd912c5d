import { useRouteRef } from '@backstage/core-plugin-api';
import { paths, rootRouteRef } from '../../routes';

/** Absolute links to the runway pages, wherever the app mounted them. */
export function useRunwayLinks() {
  const root = useRouteRef(rootRouteRef)().replace(/\/$/, '');
  return {
    root: root || '/',
    deploy: `${root}/${paths.deploy}`,
    detail: (cluster: string, namespace: string, name: string) =>
      `${root}/${paths.detail(cluster, namespace, name)}`,
    edit: (cluster: string, namespace: string, name: string) =>
      `${root}/${paths.edit(cluster, namespace, name)}`,
  };
}
