export * from './messages';
export * from './topics';
export * from './codec';
export * from './publisher';
export * from './consumer';
export * from './bus';
export { kafkaSecurity, type BusOptions } from './kafka-client';
export * from './publish-guard';
export * from './key-ownership';
