import { SignInPage } from '@backstage/core-components';
import {
  configApiRef,
  createFrontendModule,
  githubAuthApiRef,
  useApi,
} from '@backstage/frontend-plugin-api';
import {
  SignInPageBlueprint,
  type SignInPageProps,
} from '@backstage/plugin-app-react';
import { signInProviders } from './providers';

const GITHUB = {
  id: 'github-auth-provider',
  title: 'GitHub',
  message: 'Sign in using GitHub',
  apiRef: githubAuthApiRef,
};

/** The sign-in page: GitHub, and the guest where the config enables it (the local system). */
function RunwaySignInPage(props: SignInPageProps) {
  const config = useApi(configApiRef);
  const providers = signInProviders(config).map(id =>
    id === 'github' ? GITHUB : ('guest' as const),
  );
  return <SignInPage {...props} providers={providers} />;
}

export const signInModule = createFrontendModule({
  pluginId: 'app',
  extensions: [
    SignInPageBlueprint.make({
      params: { loader: async () => RunwaySignInPage },
    }),
  ],
});
