/**
 * The runway backend's test policy (admin, viewer, team-a) for runway
 * permissions; every other permission (the scaffolder's own: running
 * templates, executing actions) is allowed, so the tests are about runway's.
 */
import type {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  type Permission,
  type PolicyDecision,
} from '@backstage/plugin-permission-common';
import { RUNWAY_RESOURCE_TYPE } from '@runway-portal/plugin-runway-common';
// eslint-disable-next-line @backstage/no-forbidden-package-imports, @backstage/no-mixed-plugin-imports
import { decide } from '@runway-portal/plugin-runway-backend/src/__testUtils__/permissions';

function decision(
  credentials: BackstageCredentials,
  permission: Permission,
): PolicyDecision {
  const isRunway =
    permission.type === 'resource' &&
    permission.resourceType === RUNWAY_RESOURCE_TYPE;
  if (!isRunway) return { result: AuthorizeResult.ALLOW };
  return decide(
    (credentials.principal as { userEntityRef?: string }).userEntityRef ??
      'service',
    permission,
  );
}

export function runwayTestPolicy(): PermissionsService {
  return {
    async authorize(requests, options) {
      return requests.map(r => {
        // A definitive answer was asked for: a condition the caller cannot apply is a no.
        const result = decision(options.credentials, r.permission).result;
        return {
          result:
            result === AuthorizeResult.ALLOW
              ? AuthorizeResult.ALLOW
              : AuthorizeResult.DENY,
        };
      });
    },
    async authorizeConditional(requests, options) {
      return requests.map(r =>
        decision(options.credentials, r.permission),
      ) as any;
    },
  };
}
