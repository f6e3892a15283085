export * from './delivery.schema';
export * from './delivery.repository';
