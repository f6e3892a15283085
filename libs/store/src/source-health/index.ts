export * from './source-health.schema';
export * from './source-health.repository';
