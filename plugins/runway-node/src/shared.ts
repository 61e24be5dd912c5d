/**
 * Names the backend and the scaffolder module must agree on. The permissions,
 * the kinds and the signal channels, which the frontend needs too, are in
 * runway-common.
 */

/** The catalog entity that owns a resource, set by the portal's forms and templates, e.g. `component:default/chatbot`. @public */
export const ENTITY_REF_ANNOTATION = 'runway.backstage.io/entity-ref';

/** A change the portal audits. @public */
export type RunwayAuditAction = 'create' | 'update' | 'delete';

/**
 * The auditor's event id for a change to a deployment, model or stack: one
 * scheme whichever plugin records it (the REST API or the scaffolder's
 * `runway:apply`), so one query finds every change, e.g. `runway-resource-create`.
 *
 * @public
 */
export function runwayAuditEventId<A extends RunwayAuditAction>(
  action: A,
): `runway-resource-${A}` {
  return `runway-resource-${action}`;
}
