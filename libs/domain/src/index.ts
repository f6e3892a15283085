export * from './errors';
export * from './ids';
export * from './time';
export * from './envelope';
export * from './secret-box';
export * from './coalescer';
export * from './map-paths';
export * from './failure-throttle';
