export * from './resend.usecase';
export * from './batch-retry.usecase';
export * from './replay.usecase';
export * from './release-held.usecase';
export * from './purge-deleted-projects.usecase';
export * from './housekeeping';
export * from './apply-retention.usecase';
export * from './delivery-stats';
