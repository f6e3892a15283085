import { ValidationError, parseDurationSeconds, type FieldError } from '@hookrail/domain';
import { flatten, validateFilter, type Filter } from '@hookrail/filters';
import type { ProjectDoc, SubscriptionDoc } from '@hookrail/store';
import type { RetryConfigInput } from '@hookrail/api-contract';

function invalid(field: string, message: string): never {
  throw new ValidationError(`${field} ${message}`, [{ field, message }]);
}

/**
 * The update shape (duration "30s" or interval_seconds) to the stored one (seconds). Members left
 * out keep the current value, else the project's retry strategy.
 */
export function retryConfigOf(
  input: RetryConfigInput | null,
  current: SubscriptionDoc['retry_config'],
  project: ProjectDoc,
): SubscriptionDoc['retry_config'] {
  if (input === null) return null;
  let seconds: number | undefined;
  if (input.duration !== undefined) {
    const parsed = parseDurationSeconds(input.duration);
    if (parsed === undefined || parsed < 1 || !Number.isInteger(parsed))
      invalid('retry_config.duration', 'must be a whole number of seconds, e.g. "30", "30s", "5m", "1h"');
    seconds = parsed;
  }
  if (input.interval_seconds !== undefined) {
    if (seconds !== undefined && seconds !== input.interval_seconds)
      invalid('retry_config.interval_seconds', `disagrees with retry_config.duration (${seconds} seconds)`);
    seconds = input.interval_seconds;
  }
  const fallback = current ?? project.config.strategy;
  return {
    type: input.type ?? fallback.type,
    duration: seconds ?? fallback.duration,
    retry_count: input.retry_count ?? fallback.retry_count,
    ...(fallback.max_retry_seconds !== undefined && { max_retry_seconds: fallback.max_retry_seconds }),
  };
}

export function checkAlertThreshold(alert: { threshold: string } | null | undefined): void {
  if (alert && parseDurationSeconds(alert.threshold) === undefined)
    invalid('alert_config.threshold', 'must be a duration such as "1h" or "30m"');
}

/** Validates the MongoDB-style filters and stores them flattened to dot paths, as JSON text. */
export function storedFilter(filter: { body?: Filter; headers?: Filter } | undefined): {
  body_json: string;
  headers_json: string;
} {
  const errors: FieldError[] = [
    ...validateFilter(filter?.body ?? {}, 'filter_config.filter.body'),
    ...validateFilter(filter?.headers ?? {}, 'filter_config.filter.headers'),
  ];
  if (errors.length > 0)
    throw new ValidationError(`invalid filter: ${errors[0].field} ${errors[0].message}`, errors);
  return {
    body_json: JSON.stringify(flatten(filter?.body ?? {})),
    headers_json: JSON.stringify(flatten(filter?.headers ?? {})),
  };
}
