export * from './sender';
