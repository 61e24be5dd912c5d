// Tests may import test tooling, but not a higher layer.
import { startCluster } from '@fixture/tooling';
import { fakeRuntime } from '@fixture/runtime/testing';
import { page } from '@fixture/portal';
jest.mock('@fixture/portal');
export { startCluster, fakeRuntime, page };
