export * from './delivery-id';
export * from './match-subscriptions';
export * from './unrouted';
export * from './catch-all';
export * from './router';
