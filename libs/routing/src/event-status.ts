export type DeliveryStatusValue = 'Scheduled' | 'Processing' | 'Success' | 'Retry' | 'Failure' | 'Discarded';
export type EventStatusValue = 'Pending' | 'Processing' | 'Success' | 'Failure' | 'Retry';

/**
 * An event's status from its deliveries: in flight while any is scheduled or being sent; Retry
 * while any waits for a retry; Success when all succeeded; otherwise Failure (a failed or
 * discarded delivery). No deliveries: Failure (nothing matched).
 */
export function eventStatusFrom(statuses: readonly DeliveryStatusValue[]): EventStatusValue {
  if (statuses.length === 0) return 'Failure';
  if (statuses.some((s) => s === 'Scheduled' || s === 'Processing')) return 'Processing';
  if (statuses.includes('Retry')) return 'Retry';
  if (statuses.every((s) => s === 'Success')) return 'Success';
  return 'Failure';
}
