export * from './issues';
export * from './quantity';
export * from './kinds';
export * from './meta';
export * from './structural';
export * from './kube';
export * from './celRules';
export * from './defaults';
