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
} from './client';
export type { HubErrorCode, HubFile, HubOptions } from './client';
