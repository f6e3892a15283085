export * from './latency-buckets';
export * from './stats-buffer';
export * from './stats-series';
export * from './delivery-stats.usecase';
