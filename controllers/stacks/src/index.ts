/**
 * The stack operator as a library: pure functions only (importing this starts
 * nothing). The process is the `./main` entry.
 */
export * from './config/distributions';
export * from './config/generate';
export * from './objects';
export * from './decide';
export * from './webhooks';
