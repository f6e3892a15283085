export * from './event.schema';
export * from './event.repository';
export * from './idempotency-claim.schema';
