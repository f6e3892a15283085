export * from './config';
export { ConfigError } from './env';
