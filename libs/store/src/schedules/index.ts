export * from './schedule.schema';
