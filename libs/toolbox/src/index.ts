export * from './coalescer';
export * from './bounded-lru';
export * from './failure-throttle';
export * from './backoff';
export * from './map-paths';
export * from './http-headers';
export * from './field-diff';
export * from './sum-buffer';
