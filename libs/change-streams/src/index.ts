export * from './settings';
export * from './change-event';
export * from './connect';
export * from './check';
export * from './stream';
export * from './run';
export * from './named-connection';
export * from './behind';
