/** The runway REST API's contract: its shapes (TypeBox) and the OpenAPI document derived from them. */
export * from './contract';
export {
  runwayOpenApiDocument,
  toComponentSchema,
  type RunwayRouterDoc,
} from './openapi';
