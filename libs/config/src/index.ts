export * from './config';
export { ConfigError } from './env';
export { connectionVariable, type ChangeStreamConnection } from './change-stream-connections';
