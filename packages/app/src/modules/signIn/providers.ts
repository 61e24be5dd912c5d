/**
 * Which sign-in providers the sign-in page offers, from the backend's
 * `auth.providers` (their presence only: config.d.ts makes `auth.providers.guest`
 * and `auth.providers.github` visible to the frontend without their contents).
 */
import type { Config } from '@backstage/config';

export type SignInProviderId = 'github' | 'guest';

/**
 * GitHub when configured, guest when configured (the local system:
 * app-config.production.yaml removes it). GitHub alone when neither is: a
 * deployed portal's backend refuses to start without a real provider, and the
 * page must not offer the guest where the backend has none.
 */
export function signInProviders(config: Config): SignInProviderId[] {
  const configured = (id: SignInProviderId) =>
    config.has(`auth.providers.${id}`);
  const providers = (['github', 'guest'] as const).filter(configured);
  return providers.length > 0 ? providers : ['github'];
}
