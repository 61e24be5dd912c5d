/** The catalog convention: an entity's Kubernetes resources carry this label with the entity's id. @public */
export const KUBERNETES_ID = 'backstage.io/kubernetes-id';
