export * from './schemes';
export * from './verifiers';
