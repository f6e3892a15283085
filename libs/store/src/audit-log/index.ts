export * from './audit-log.schema';
export * from './audit-log.repository';
