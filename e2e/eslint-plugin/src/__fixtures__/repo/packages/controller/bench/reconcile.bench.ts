import { startCluster } from '@fixture/tooling';
import { reconcile } from '@fixture/controller';
export { startCluster, reconcile };
