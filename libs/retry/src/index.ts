export * from './policy';
export * from './backoff';
export * from './scheduler';
