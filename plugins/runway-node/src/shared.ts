/**
 * Names the backend and the scaffolder module must agree on. The permissions,
 * the kinds and the signal channels, which the frontend needs too, are in
 * runway-common.
 */

/** The catalog entity that owns a resource, set by the portal's forms and templates, e.g. `component:default/chatbot`. */
export const ENTITY_REF_ANNOTATION = 'runway.backstage.io/entity-ref';
