export * from './event-type.schema';
export * from './event-type.repository';
