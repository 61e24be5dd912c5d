// Its tests may (a private package can be a devDependency).
import { internal } from '@fixture/internal';

export const used = internal;
