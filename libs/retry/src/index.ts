export * from './policy';
export * from './backoff';
