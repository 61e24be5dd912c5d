import { thing } from '@fixture/unlayered';
export { thing };
