export * from './permissions';
export * from './rules';
