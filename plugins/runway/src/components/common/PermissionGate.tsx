import { useApi } from '@backstage/core-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  permissionApiRef,
  usePermission,
} from '@backstage/plugin-permission-react';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import {
  type RunwayPermission,
  type RunwayResource,
  runwayPermissionDeniedMessage,
  runwayResourceRefOf,
} from '@runway-portal/plugin-runway-common';
import { type ReactElement, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ClusterOverview } from '../../api/types';
import { createTargets } from '../../lib/permissions';

export interface RunwayPermissionState {
  allowed: boolean;
  loading: boolean;
  /** Why the action is not available (missing permission, or the check failed); undefined while allowed or loading. */
  reason?: string;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * May the user take `permission` on the resources of this cluster and
 * namespace? Asks the permission backend with the resource ref
 * `cluster/namespace`, so a policy's conditions (IS_IN_CLUSTER,
 * IS_IN_NAMESPACE) are applied exactly as the runway backend applies them.
 * Without a resource (no cluster or namespace chosen yet) the answer is "not
 * allowed", without a reason.
 */
export function useRunwayPermission(
  permission: RunwayPermission,
  resource: RunwayResource | undefined,
): RunwayPermissionState {
  const complete =
    resource?.cluster && resource.namespace ? resource : undefined;
  const { allowed, loading, error } = usePermission({
    permission,
    resourceRef: complete ? runwayResourceRefOf(complete) : undefined,
  });
  if (allowed || loading || !complete) return { allowed, loading };
  const reason = error
    ? `Could not check permission ${permission.name}: ${error.message}`
    : capitalise(runwayPermissionDeniedMessage(permission, complete));
  return { allowed, loading, reason };
}

/**
 * May the user take `permission` somewhere, before choosing where (the
 * "Deploy a model" links)? Asks for every namespace of the clusters'
 * allow-lists (one batched request) and refuses only when every answer is
 * DENY. When the places cannot be listed (a cluster serves any namespace) or
 * the check fails, the action stays available: the wizard asks again for
 * the namespace chosen, and the backend decides.
 */
export function useRunwayPermissionAnywhere(
  permission: RunwayPermission,
  clusters: ClusterOverview[] | undefined,
): RunwayPermissionState {
  const permissionApi = useApi(permissionApiRef);
  const key = createTargets(clusters)?.map(runwayResourceRefOf).join(',');
  const [answer, setAnswer] = useState<{
    key: string;
    allowed: boolean;
    reason?: string;
  }>();
  useEffect(() => {
    if (key === undefined) return undefined;
    let current = true;
    const refs = key.split(',');
    Promise.all(
      refs.map(resourceRef =>
        permissionApi.authorize({ permission, resourceRef }),
      ),
    ).then(
      answers => {
        if (!current) return;
        const allowed = answers.some(a => a.result === AuthorizeResult.ALLOW);
        const reason = allowed
          ? undefined
          : `You do not have permission ${
              permission.name
            } in any namespace the portal serves (${refs.join(', ')})`;
        setAnswer({ key, allowed, reason });
      },
      () => current && setAnswer({ key, allowed: true }),
    );
    return () => {
      current = false;
    };
  }, [permissionApi, permission, key]);
  if (key === undefined) return { allowed: true, loading: false };
  if (answer?.key !== key) return { allowed: false, loading: true };
  return { allowed: answer.allowed, loading: false, reason: answer.reason };
}

/**
 * An action that may be unavailable: with a reason, wrapped in a tooltip
 * that shows it (a disabled button gets no pointer events, so the tooltip
 * sits on a wrapper, which it also labels with the reason).
 */
export function WithReason({
  reason,
  children,
}: {
  reason?: string;
  children: ReactElement;
}) {
  if (!reason) return children;
  return (
    <Tooltip title={reason}>
      <span>{children}</span>
    </Tooltip>
  );
}

/**
 * Renders an action (`children(allowed)`) that needs `permission` on a
 * cluster and namespace. While the answer is pending the action is
 * disabled; when the user lacks the permission it stays disabled, with a
 * tooltip naming the permission and where. The backend checks again on
 * every request: this only saves the user a 403.
 */
export function PermissionGate(props: {
  permission: RunwayPermission;
  resource: RunwayResource | undefined;
  children: (allowed: boolean) => ReactElement;
}) {
  const { allowed, reason } = useRunwayPermission(
    props.permission,
    props.resource,
  );
  return <WithReason reason={reason}>{props.children(allowed)}</WithReason>;
}

/** The link to a form (the wizard by default); disabled, with the reason, when the user may create nowhere. */
export function DeployButton({
  access,
  to,
  variant,
  label = 'Deploy a model',
}: {
  access: RunwayPermissionState;
  to: string;
  variant?: 'contained';
  label?: string;
}) {
  return (
    <WithReason reason={access.reason}>
      {access.allowed ? (
        <Button variant={variant} component={RouterLink} to={to}>
          {label}
        </Button>
      ) : (
        <Button variant={variant} disabled>
          {label}
        </Button>
      )}
    </WithReason>
  );
}
