/**
 * The model operator as a library: the pure parts (state machine, object
 * builders, injection, the downloader's log lines) and the controller's
 * registration. The process is `./main`; the downloader is `src/downloader/main.ts`.
 */
export * from './decide';
export * from './resources';
export * from './progress';
export * from './inject';
