export { Scheduler, type SchedulerDeps, type SchedulerOptions } from './scheduler';
export type { RetryRequest } from './schedule-entry';
