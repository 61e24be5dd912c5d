export interface Config {
  auth?: {
    providers?: {
      /**
       * The guest provider (the local system only). Visible to the frontend
       * as present or absent, without its contents: the sign-in page offers
       * the guest only when it is configured.
       * @visibility frontend
       */
      guest?: object;
      /**
       * The GitHub provider. Visible to the frontend as present or absent
       * (its client id and secret stay in the backend): the sign-in page
       * offers GitHub when it is configured.
       * @visibility frontend
       */
      github?: object;
    };
  };
}
