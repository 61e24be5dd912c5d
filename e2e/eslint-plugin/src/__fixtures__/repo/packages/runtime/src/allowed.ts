// Own and lower layers, relative files inside the package, node and external packages.
import fs from 'node:fs';
import { parse } from 'yaml';
import { Schema } from '@fixture/api';
import type { Other } from '@fixture/api/sub';
import { helper } from './helper';
export { Schema, fs, parse, helper };
export type { Other };
