// Production code may not import test tooling: a tooling package or any package's testing entry.
import { startCluster } from '@fixture/tooling';
const { fakeRuntime } = require('@fixture/runtime/testing');
export { startCluster, fakeRuntime };
