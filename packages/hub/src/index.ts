/**
 * A small Hugging Face Hub client shared by the model downloader, the
 * providers and the backend.
 *
 * @packageDocumentation
 */
export {
  DEFAULT_HUB_ENDPOINT,
  HubError,
  authHeaders,
  fileUrl,
  hubEndpoint,
  hubErrorOf,
  listModelFiles,
  searchModels,
} from './client';
export type {
  HubErrorCode,
  HubFile,
  HubModelSummary,
  HubOptions,
} from './client';
