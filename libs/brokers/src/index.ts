export * from './settings';
export * from './subscriber';
export * from './start-subscriber';
export * from './check-broker';
export * from './credentials';
export { BrokerRefusedError } from './outbound-guard';
export * from './destinations';
