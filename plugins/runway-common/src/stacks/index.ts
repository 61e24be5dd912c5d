export * from './v1alpha1';
export * from './v1alpha2';
export * from './defaults';
export * from './normalize';
export * from './validate';
export * from './references';
export * from './conversion';
export { stackCrd, STACK_CONVERSION_SERVICE } from './crd';
export * from './form';
