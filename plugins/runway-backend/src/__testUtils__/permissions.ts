/**
 * A permission policy for tests, as a PermissionsService: decisions depend
 * on the calling user, and may be conditional (cluster, namespace), the way
 * a real policy answers through the permission backend.
 */
import {
  type BackstageCredentials,
  coreServices,
  createServiceFactory,
  type PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  type Permission,
  type PolicyDecision,
} from '@backstage/plugin-permission-common';
import {
  createRunwayConditionalDecision,
  runwayConditions,
} from '@runway-portal/plugin-runway-node';

export const ADMIN = 'user:default/admin';
export const VIEWER = 'user:default/viewer';
export const TEAM_A = 'user:default/team-a';

function userOf(credentials: BackstageCredentials): string {
  const principal = credentials.principal as {
    type: string;
    userEntityRef?: string;
  };
  return principal.type === 'user' ? principal.userEntityRef! : principal.type;
}

/** admin: everything; viewer: reads only; team-a: everything in namespace team-a only. */
export function decide(user: string, permission: Permission): PolicyDecision {
  const action = permission.attributes.action ?? 'read';
  if (user === ADMIN) return { result: AuthorizeResult.ALLOW };
  if (user === VIEWER)
    return {
      result: action === 'read' ? AuthorizeResult.ALLOW : AuthorizeResult.DENY,
    };
  if (user === TEAM_A) {
    if (permission.type !== 'resource')
      return { result: AuthorizeResult.ALLOW };
    return createRunwayConditionalDecision(
      permission as any,
      runwayConditions.isInNamespace({ namespaces: ['team-a'] }),
    );
  }
  return { result: AuthorizeResult.DENY };
}

class PolicyPermissions implements PermissionsService {
  async authorize(
    requests: Array<{ permission: Permission }>,
    options: { credentials: BackstageCredentials },
  ) {
    return requests.map(r => {
      const d = decide(userOf(options.credentials), r.permission);
      // A definitive answer was asked for: a condition the caller cannot apply is a no.
      return {
        result:
          d.result === AuthorizeResult.ALLOW
            ? AuthorizeResult.ALLOW
            : AuthorizeResult.DENY,
      } as const;
    });
  }

  async authorizeConditional(
    requests: Array<{ permission: Permission }>,
    options: { credentials: BackstageCredentials },
  ) {
    return requests.map(r =>
      decide(userOf(options.credentials), r.permission),
    ) as any;
  }
}

export const policyPermissionsFactory = createServiceFactory({
  service: coreServices.permissions,
  deps: {},
  factory: () => new PolicyPermissions(),
});
