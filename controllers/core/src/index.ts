/**
 * Entry point of the core controller process (bundled into `dist/controller.cjs`,
 * which the image and the local system run; `yarn start` from source). The logic lives in the modules it imports.
 */
import { main } from './main';

void main();
