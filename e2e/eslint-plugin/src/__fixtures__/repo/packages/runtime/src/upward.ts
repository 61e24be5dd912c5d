// Both import a higher layer: the controllers and the portal.
import { reconcile } from '@fixture/controller';
export { page } from '@fixture/portal';
export const lazy = () => import('@fixture/controller');
export { reconcile };
