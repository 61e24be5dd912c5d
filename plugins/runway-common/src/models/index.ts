export * from './schema';
export * from './defaults';
export * from './naming';
export * from './validate';
export { modelCrd } from './crd';
export * from './display';
export * from './form';
export * from './gpuFit';
export * from './cachedModel';
