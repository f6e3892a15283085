export * from './delivery-stats.schema';
export * from './delivery-stats.repository';
