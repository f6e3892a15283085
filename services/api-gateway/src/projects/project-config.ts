import { ValidationError, parseDurationSeconds, randomToken } from '@hookrail/domain';
import { DEFAULT_PROJECT_CONFIG, type ProjectConfig } from '@hookrail/store';
import type { ProjectConfigInput } from '@hookrail/api-contract';

type ConfigInput = { [K in keyof ProjectConfig]?: Partial<ProjectConfig[K]> | ProjectConfig[K] };

/**
 * Merges a partial config over the stored one (or the defaults), one level deep; `portal_branding`
 * is taken whole (a member left out is removed, so a form can empty one).
 */
export function mergeProjectConfig(base: ProjectConfig | undefined, input: ConfigInput = {}): ProjectConfig {
  const current = base ?? DEFAULT_PROJECT_CONFIG;
  const merged: Record<string, unknown> = { ...DEFAULT_PROJECT_CONFIG, ...current };
  for (const [key, value] of Object.entries(input)) {
    const prev = merged[key];
    merged[key] =
      key !== 'portal_branding' &&
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      prev &&
      typeof prev === 'object'
        ? { ...(prev as object), ...value }
        : value;
  }
  const config = merged as unknown as ProjectConfig;
  // Meta events are signed; an enabled configuration without a secret gets one (shown in the config).
  if (config.meta_event.is_enabled && !config.meta_event.secret)
    config.meta_event = { ...config.meta_event, secret: randomToken(32) };
  return config;
}

function refuse(field: string, message: string): never {
  throw new ValidationError(`invalid request body: ${field} ${message}`, [{ field, message }]);
}

/**
 * Convoy's names for project settings, read as Hookrail's: `max_payload_read_size` is
 * `max_payload_bytes`; an enabled `retention_policy` ("720h") is `retention_seconds`;
 * `replay_attacks_prevention_enabled` changes nothing (advanced signatures always carry their
 * timestamp); meta events go out over http only, and a project-wide `ratelimit` does not exist
 * (rate limits are per endpoint) — both refused rather than ignored.
 */
export function fromConvoyConfig(input: ProjectConfigInput | undefined): ConfigInput | undefined {
  if (!input) return input;
  const {
    max_payload_read_size,
    retention_policy_enabled,
    retention_policy,
    replay_attacks_prevention_enabled: _replay,
    ratelimit,
    ...ours
  } = input;
  const out: Record<string, unknown> = { ...ours };
  if (ratelimit !== undefined && (ratelimit.count || ratelimit.duration))
    refuse(
      'config.ratelimit',
      'is not supported: Hookrail rate-limits per endpoint (endpoint rate_limit, rate_limit_duration)',
    );
  if (max_payload_read_size !== undefined && out.max_payload_bytes === undefined)
    out.max_payload_bytes = max_payload_read_size;
  if (
    retention_policy_enabled !== false &&
    retention_policy !== undefined &&
    out.retention_seconds === undefined
  ) {
    const seconds = parseGoDurationSeconds(retention_policy.policy);
    if (seconds === undefined || seconds < 3600)
      refuse('config.retention_policy.policy', 'must be a duration of at least an hour, e.g. "720h"');
    out.retention_seconds = seconds;
  }
  if (input.meta_event) {
    const { type, ...metaEvent } = input.meta_event;
    if (type === 'pub_sub')
      refuse('config.meta_event.type', 'pub_sub is not supported: meta events are sent over http');
    out.meta_event = metaEvent;
  }
  return out as ConfigInput;
}

/** Go's time.Duration text ("720h", "1h30m", "90s"), or our own forms ("30s", a number). */
export function parseGoDurationSeconds(text: string): number | undefined {
  const parts = /^(?:\d+(?:\.\d+)?(?:h|m|s))+$/.test(text) ? text.match(/\d+(?:\.\d+)?[hms]/g) : null;
  if (!parts) return parseDurationSeconds(text);
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1 };
  return parts.reduce((sum, p) => sum + Number(p.slice(0, -1)) * unit[p.slice(-1)], 0);
}
