export * from './audit-outbox.schema';
export * from './audit-outbox.repository';
