export * from './change-stream-offset.schema';
export * from './change-stream-offset.repository';
