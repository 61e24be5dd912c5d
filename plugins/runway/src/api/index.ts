export * from './types';
export * from './RunwayApi';
