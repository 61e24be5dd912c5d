import { startCluster } from '@fixture/tooling';
export { startCluster };
