/**
 * Installs the example policy (./decide.ts) in the permission backend, the
 * new backend system's way: a module on `policyExtensionPoint`.
 */
import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import type {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import type { UserInfoService } from '@backstage/backend-plugin-api';
import {
  decide,
  readRunwayPolicyConfig,
  type RunwayPolicyConfig,
} from './decide';

export class RunwayPermissionPolicy implements PermissionPolicy {
  constructor(
    private readonly config: RunwayPolicyConfig,
    private readonly userInfo: UserInfoService,
  ) {}

  async handle(request: PolicyQuery, user?: PolicyQueryUser) {
    // The user's groups come from the token (catalog membership at sign-in).
    const info = user
      ? await this.userInfo.getUserInfo(user.credentials)
      : undefined;
    return decide(request.permission, info, this.config);
  }
}

export const runwayPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'runway-policy',
  register(reg) {
    reg.registerInit({
      deps: {
        policy: policyExtensionPoint,
        config: coreServices.rootConfig,
        userInfo: coreServices.userInfo,
      },
      async init({ policy, config, userInfo }) {
        policy.setPolicy(
          new RunwayPermissionPolicy(readRunwayPolicyConfig(config), userInfo),
        );
      },
    });
  },
});
