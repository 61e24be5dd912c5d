import { Schema } from '@fixture/api';
import { reconcile } from '@fixture/controller';
export { Schema, reconcile };
