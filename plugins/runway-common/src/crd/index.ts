export * from './definition';
export * from './renderCrd';
export * from './renderTypes';
export * from './files';
export { ALL_CRDS } from './all';
