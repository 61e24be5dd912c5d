import { useRouteRef } from '@backstage/core-plugin-api';
import { paths, rootRouteRef } from '../../routes';

/** Absolute links to the runway pages, wherever the app mounted them. */
export function useRunwayLinks() {
  let base = '/runway';
  try {
    base = useRouteRef(rootRouteRef)();
  } catch {
    // The page is not installed (e.g. only the entity content is): keep the default mount point.
  }
  const root = base.replace(/\/$/, '');
  return {
    root: root || '/',
    deploy: `${root}/${paths.deploy}`,
    detail: (cluster: string, namespace: string, name: string) => `${root}/${paths.detail(cluster, namespace, name)}`,
    edit: (cluster: string, namespace: string, name: string) => `${root}/${paths.edit(cluster, namespace, name)}`,
  };
}
