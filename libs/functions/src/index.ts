export * from './function-runner';
