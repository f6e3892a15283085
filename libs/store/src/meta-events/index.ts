export * from './meta-event.schema';
export * from './meta-event.repository';
