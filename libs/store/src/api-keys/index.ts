export * from './api-key.schema';
export * from './api-key.repository';
