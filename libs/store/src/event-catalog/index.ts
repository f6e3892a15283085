export * from './event-catalog.schema';
export * from './event-catalog.repository';
