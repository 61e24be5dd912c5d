// The tooling layer is the top: it may import every layer.
import { page } from '@fixture/portal';
import { fakeRuntime } from '@fixture/runtime/testing';
export { page, fakeRuntime };
