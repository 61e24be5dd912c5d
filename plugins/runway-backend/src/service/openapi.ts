/**
 * The runway REST API's OpenAPI document. It is runway-common's, derived
 * from the contract's schemas (`@runway-portal/plugin-runway-common`,
 * `src/api`), so the browser client, the ClusterClient and this router share
 * one description; the router validates requests against it and serves it
 * at `/api/runway/openapi.json`.
 */
export {
  runwayOpenApiDocument as spec,
  type RunwayRouterDoc,
} from '@runway-portal/plugin-runway-common';
