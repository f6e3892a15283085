export * from './errors';
export * from './ids';
export * from './time';
export * from './envelope';
export * from './secret-box';
export * from './dead-letter';
export * from './meta-event-destination';
export * from './relay-credential';
