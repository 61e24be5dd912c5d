import { useRouteRef } from '@backstage/core-plugin-api';
import { rootRouteRef } from '../../routes';

const enc = encodeURIComponent;

/** The stack pages under the plugin's root: `stacks/new`, `stacks/:cluster/:namespace/:name[/edit]`. */
export const stackPaths = {
  create: 'stacks/new',
  detail: (cluster: string, namespace: string, name: string) =>
    `stacks/${enc(cluster)}/${enc(namespace)}/${enc(name)}`,
  edit: (cluster: string, namespace: string, name: string) =>
    `${stackPaths.detail(cluster, namespace, name)}/edit`,
};

/** Absolute links to the stack pages, wherever the app mounted the plugin. */
export function useStackLinks() {
  const root = useRouteRef(rootRouteRef)().replace(/\/$/, '');
  return {
    root: root || '/',
    create: `${root}/${stackPaths.create}`,
    detail: (cluster: string, namespace: string, name: string) =>
      `${root}/${stackPaths.detail(cluster, namespace, name)}`,
    edit: (cluster: string, namespace: string, name: string) =>
      `${root}/${stackPaths.edit(cluster, namespace, name)}`,
  };
}
