export * from './schema';
export * from './defaults';
export * from './naming';
export * from './validate';
export { modelCrd } from './crd';
