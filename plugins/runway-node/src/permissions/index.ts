export * from './rules';
export * from './authorize';
