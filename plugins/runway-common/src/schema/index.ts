export * from './issues';
export * from './quantity';
export * from './kinds';
export * from './meta';
export * from './structural';
