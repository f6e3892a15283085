import { DELIVERY_STATUSES } from '@hookrail/api-contract';
import { InvalidArgumentError, Option } from 'commander';

/** A positive whole number option (`--limit 20`). */
export function positiveInt(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of 1 or more');
  return n;
}

/** A time option: an ISO date-time, or a duration back from now (`30m`, `2h`, `7d`). */
export function sinceTime(raw: string): string {
  const ago = /^(\d+)([smhd])$/.exec(raw);
  if (ago) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(Date.now() - Number(ago[1]) * unit).toISOString();
  }
  const t = Date.parse(raw);
  if (Number.isNaN(t))
    throw new InvalidArgumentError('must be a date-time (2026-11-24T10:00:00Z) or a duration (30m, 2h, 7d)');
  return new Date(t).toISOString();
}

/** A repeatable option's values (`--endpoint a --endpoint b`). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** A repeatable option whose every value is one of `choices` (`--status Failure --status Retry`). */
export const collectOneOf =
  (choices: readonly string[]) =>
  (value: string, previous: string[] = []): string[] => {
    if (!choices.includes(value)) throw new InvalidArgumentError(`must be one of ${choices.join(', ')}`);
    return [...previous, value];
  };

/** `--status`, repeatable, one of the delivery statuses (deliveries list, tail). */
export const deliveryStatusOption = () =>
  new Option(
    '--status <status>',
    `only deliveries in this status (repeatable): ${DELIVERY_STATUSES.join(', ')}`,
  ).argParser(collectOneOf(DELIVERY_STATUSES));
