export interface Config {
  runway?: {
    /** The example permission policy (src/permissions): who may write Runway resources where. Everyone signed in reads. */
    permissions?: {
      /** Groups whose members may do everything, e.g. `group:default/platform` or `platform`. */
      adminGroups?: string[];
      /** Namespaces and the groups whose members create, update and delete Runway resources there. */
      namespaceOwners?: Array<{
        /** A namespace name. */
        namespace: string;
        /** Only in this cluster (its configured name); every cluster when absent. */
        cluster?: string;
        /** Owning groups (or users), e.g. `group:default/team-a` or `team-a`. */
        owners: string[];
      }>;
    };
  };
}
