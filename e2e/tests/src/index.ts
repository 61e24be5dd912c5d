/**
 * Browser end-to-end tests of the local Runway Portal.
 *
 * @packageDocumentation
 */
export { CHROMIUM, CHROMIUM_FLAGS, openBrowser } from './browser';
export type { BrowserSession } from './browser';
