export * from './cli-listener.schema';
export * from './cli-listener.repository';
