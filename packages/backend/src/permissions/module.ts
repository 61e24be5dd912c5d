/**
 * Installs the example policy (./decide.ts) in the permission backend, the
 * new backend system's way: a module on `policyExtensionPoint`. Namespace
 * owners come from the catalog (./catalogOwners.ts) and from
 * `runway.permissions.namespaceOwners`.
 */
import {
  coreServices,
  createBackendModule,
  type AuthService,
  type LoggerService,
  type UserInfoService,
} from '@backstage/backend-plugin-api';
import { CATALOG_FILTER_EXISTS } from '@backstage/catalog-client';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  catalogServiceRef,
  type CatalogService,
} from '@backstage/plugin-catalog-node';
import type {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  NAMESPACE_ANNOTATION,
  OWNERSHIP_FIELDS,
  namespaceOwnersFromEntities,
} from './catalogOwners';
import {
  decide,
  readRunwayPolicyConfig,
  type NamespaceOwners,
  type RunwayPolicyConfig,
} from './decide';

/** How long the catalog's namespace owners are reused. */
export const CATALOG_OWNERS_TTL_MS = 30_000;
/**
 * A refused write reads the catalog again when its copy is older than this,
 * so a namespace registered a moment ago (or a catalog still loading at
 * start) does not refuse its owners for a whole TTL.
 */
export const REFUSAL_REFRESH_MS = 5_000;

/** The catalog's namespace owners, read with the backend's own credentials and cached. */
export class CatalogNamespaceOwners {
  private cached?: { at: number; owners: Promise<NamespaceOwners[]> };

  constructor(
    private readonly catalog: CatalogService,
    private readonly auth: AuthService,
    private readonly now: () => number = Date.now,
  ) {}

  /** The owners, read again when the cached copy is `maxAgeMs` old. */
  get(maxAgeMs = CATALOG_OWNERS_TTL_MS): Promise<NamespaceOwners[]> {
    if (!this.cached || this.now() - this.cached.at >= maxAgeMs) {
      const entry = { at: this.now(), owners: this.load() };
      this.cached = entry;
      // A failed read is not kept: the next question asks the catalog again.
      entry.owners.catch(() => {
        if (this.cached === entry) this.cached = undefined;
      });
    }
    return this.cached.owners;
  }

  private async load(): Promise<NamespaceOwners[]> {
    const { items } = await this.catalog.getEntities(
      {
        filter: {
          [`metadata.annotations.${NAMESPACE_ANNOTATION}`]:
            CATALOG_FILTER_EXISTS,
        },
        fields: OWNERSHIP_FIELDS,
      },
      { credentials: await this.auth.getOwnServiceCredentials() },
    );
    return namespaceOwnersFromEntities(items);
  }
}

export class RunwayPermissionPolicy implements PermissionPolicy {
  constructor(
    private readonly config: RunwayPolicyConfig,
    private readonly catalogOwners: CatalogNamespaceOwners,
    private readonly userInfo: UserInfoService,
    private readonly logger: LoggerService,
  ) {}

  async handle(request: PolicyQuery, user?: PolicyQueryUser) {
    // The user's groups come from the token (catalog membership at sign-in).
    const info = user
      ? await this.userInfo.getUserInfo(user.credentials)
      : undefined;
    // Reads, admins and other plugins' permissions need no owners: the catalog is read for writes only.
    const byConfig = decide(request.permission, info, this.config);
    if (byConfig.result === AuthorizeResult.ALLOW || !info) return byConfig;
    const withCatalog = async (maxAgeMs?: number) =>
      decide(request.permission, info, {
        adminGroups: this.config.adminGroups,
        namespaceOwners: [
          ...this.config.namespaceOwners,
          ...(await this.readCatalog(maxAgeMs)),
        ],
      });
    const decision = await withCatalog();
    if (decision.result !== AuthorizeResult.DENY) return decision;
    return withCatalog(REFUSAL_REFRESH_MS);
  }

  /** Without the catalog, only the configured owners write (never more than the catalog would allow). */
  private async readCatalog(maxAgeMs?: number): Promise<NamespaceOwners[]> {
    try {
      return await this.catalogOwners.get(maxAgeMs);
    } catch (error) {
      this.logger.warn(
        `runway permissions: could not read namespace owners from the catalog, deciding with runway.permissions.namespaceOwners only: ${error}`,
      );
      return [];
    }
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
        auth: coreServices.auth,
        logger: coreServices.logger,
        catalog: catalogServiceRef,
      },
      async init({ policy, config, userInfo, auth, logger, catalog }) {
        policy.setPolicy(
          new RunwayPermissionPolicy(
            readRunwayPolicyConfig(config),
            new CatalogNamespaceOwners(catalog, auth),
            userInfo,
            logger,
          ),
        );
      },
    });
  },
});
