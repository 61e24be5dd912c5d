// A package's own testing entry point is test tooling itself.
export { startCluster } from '@fixture/tooling';
