export * from './delivery-id';
export * from './match-subscriptions';
export * from './meta-event-destination';
export * from './unrouted';
export * from './catch-all';
export * from './still-routed';
export * from './router';
