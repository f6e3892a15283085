export * from './event.schema';
export * from './event.repository';
