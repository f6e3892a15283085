export * from './messages';
export * from './topics';
export * from './codec';
export * from './publisher';
export * from './consumer';
export * from './bus';
export {
  FETCH_MAX_WAIT_MS,
  kafkaSecurity,
  PARTITIONS_CONSUMED_AT_ONCE,
  type BusOptions,
} from './kafka-client';
export * from './publish-guard';
export * from './key-ownership';
