// A published portal package importing a private package.
import { internal } from '@fixture/internal';
export { internal };
