/**
 * Entry point of the core controller process (`node packages/... dist/index.cjs.js`
 * in the image, `yarn start` locally). The logic lives in the modules it imports.
 */
import { main } from './main';

void main();
