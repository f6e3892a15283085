export * from './subscription.schema';
export * from './subscription.repository';
