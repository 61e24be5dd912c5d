// Reaching into another package's folder instead of importing it by name.
import { reconcile } from '../../controller/src/reconcile';
import { Schema } from '@fixture/api';
export { reconcile, Schema };
