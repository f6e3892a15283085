export * from './config';
export * from './schemes';
export * from './verifiers';
