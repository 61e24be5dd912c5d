import fs from 'node:fs';
import type { FileSource } from './kustomize';

/** The disk, for the renderer. */
export const nodeFileSource: FileSource = {
  readFile: file => fs.readFileSync(file, 'utf8'),
  isDirectory: file => fs.statSync(file).isDirectory(),
  exists: file => fs.existsSync(file),
};
