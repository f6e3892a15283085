export { Scheduler, type SchedulerDeps, type SchedulerOptions } from './scheduler';
export { scheduleEntry, type RetryRequest, type TraceContext } from './schedule-entry';
