export * from './schemes';
