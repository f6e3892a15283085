export * from './source.schema';
export * from './source.repository';
