export * from './schedule.schema';
export * from './schedule.repository';
