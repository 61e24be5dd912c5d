export interface Config {
  /** Runway Portal. Clusters themselves are read from kubernetes.clusterLocatorMethods (type config). */
  runway?: {
    /**
     * Bound of anything that touches a cluster (and of the wait for a cluster's first list).
     * Default 5 seconds. E.g. `{ seconds: 5 }` or `5s`.
     */
    requestTimeout?:
      | { milliseconds?: number; seconds?: number; minutes?: number }
      | string;
    /** The doctor's checks (`runway doctor`), run per cluster in the background. */
    doctor?: {
      /** Time between runs; default 60 seconds; 0 runs them only on demand. */
      interval?:
        | { milliseconds?: number; seconds?: number; minutes?: number }
        | string;
      /** Bound of one run of one cluster; default 30 seconds. */
      timeout?:
        | { milliseconds?: number; seconds?: number; minutes?: number }
        | string;
      /** Namespace of Runway's controllers in every cluster; default airunway-system. */
      namespace?: string;
    };
    /** Runway-only settings per cluster, by the cluster's name. */
    clusters?: Array<{
      /** The name of a cluster in kubernetes.clusterLocatorMethods or runway.kubeconfig. */
      name: string;
      /** When set, the portal reads and writes only these namespaces of the cluster. */
      namespaces?: string[];
    }>;
    /** Local development: clusters from kubeconfig contexts (the portal uses the context's credentials). */
    kubeconfig?: Array<{
      /** Name of the context in the kubeconfig file. */
      context: string;
      /** Cluster name in the portal; default the context name. */
      name?: string;
      title?: string;
      /** The kubeconfig file; default $KUBECONFIG or ~/.kube/config. */
      path?: string;
    }>;
  };
}
