export * from './function-runner';
export * from './function-pool';
