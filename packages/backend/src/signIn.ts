/**
 * Guest sign-in is for the local system only: outside development the
 * backend refuses to start unless a real sign-in provider is configured, so
 * a deployed portal never lets anyone in as the guest (who, with the
 * example policy, could still read every cluster).
 */
import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import type { Config } from '@backstage/config';

/** The sign-in providers this backend installs besides guest (see index.ts). */
export const SIGN_IN_PROVIDERS = ['github'] as const;

/**
 * Undefined when sign-in is configured well for `nodeEnv`; otherwise the
 * error, naming `auth.providers` and saying how to fix it.
 */
export function signInProblem(
  providers: Config | undefined,
  nodeEnv: string | undefined,
): string | undefined {
  if (nodeEnv === 'development') return undefined;
  const configured = providers?.keys() ?? [];
  if (
    providers
      ?.getOptionalConfig('guest')
      ?.getOptionalBoolean('dangerouslyAllowOutsideDevelopment')
  ) {
    return (
      'auth.providers.guest.dangerouslyAllowOutsideDevelopment is set: anyone who reaches the portal would be signed in. ' +
      'Remove auth.providers.guest from the production config and configure a real sign-in provider.'
    );
  }
  const real = configured.filter(id =>
    (SIGN_IN_PROVIDERS as readonly string[]).includes(id),
  );
  if (real.length === 0) {
    const found = configured.length ? `only ${configured.join(', ')}` : 'none';
    return (
      `auth.providers configures no sign-in provider this backend installs (${SIGN_IN_PROVIDERS.join(
        ', ',
      )}); found ${found}. ` +
      'Guest sign-in is for local development only (NODE_ENV=development). Configure one, for example ' +
      'auth.providers.github.production with clientId, clientSecret and a signIn resolver, and auth.environment: production, in app-config.production.yaml ' +
      '(https://backstage.io/docs/auth/github/provider); the app’s sign-in page then offers it.'
    );
  }
  return undefined;
}

/** Fails the backend's start with signInProblem's message. */
export const signInCheckModule = createBackendModule({
  pluginId: 'auth',
  moduleId: 'sign-in-check',
  register(reg) {
    reg.registerInit({
      deps: { config: coreServices.rootConfig },
      async init({ config }) {
        const problem = signInProblem(
          config.getOptionalConfig('auth.providers'),
          process.env.NODE_ENV,
        );
        if (problem) throw new Error(problem);
      },
    });
  },
});
