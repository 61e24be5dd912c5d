export * from './cel';
