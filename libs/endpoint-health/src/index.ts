export * from './sliding-log';
export * from './rate-limiter';
export * from './attempt-window';
export * from './circuit-breaker';
export * from './alert-threshold';
export * from './monitor';
