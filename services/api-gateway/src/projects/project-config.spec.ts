import { ValidationError } from '@hookrail/domain';
import { fromConvoyConfig, parseGoDurationSeconds } from './project-config';

describe("fromConvoyConfig: Convoy's project settings read as Hookrail's", () => {
  it('maps max_payload_read_size and an enabled retention policy', () => {
    expect(
      fromConvoyConfig({
        max_payload_read_size: 2048,
        retention_policy_enabled: true,
        retention_policy: { policy: '720h' },
        replay_attacks_prevention_enabled: true,
        disable_endpoint: true,
      }),
    ).toEqual({ max_payload_bytes: 2048, retention_seconds: 720 * 3600, disable_endpoint: true });
  });

  it('our own names win over Convoy aliases; a disabled retention policy changes nothing', () => {
    expect(
      fromConvoyConfig({
        max_payload_bytes: 4096,
        max_payload_read_size: 2048,
        retention_policy_enabled: false,
        retention_policy: { policy: '1h' },
      }),
    ).toEqual({ max_payload_bytes: 4096 });
  });

  it('accepts meta_event.type http (dropped: the only transport) and refuses pub_sub', () => {
    expect(fromConvoyConfig({ meta_event: { type: 'http', is_enabled: true } })).toEqual({
      meta_event: { is_enabled: true },
    });
    expect(() => fromConvoyConfig({ meta_event: { type: 'pub_sub' } })).toThrow(
      'config.meta_event.type pub_sub is not supported',
    );
  });

  it('refuses a project rate limit and a retention policy shorter than an hour', () => {
    expect(() => fromConvoyConfig({ ratelimit: { count: 100, duration: 60 } })).toThrow(ValidationError);
    expect(fromConvoyConfig({ ratelimit: { count: 0, duration: 0 } })).toEqual({});
    expect(() => fromConvoyConfig({ retention_policy: { policy: '10m' } })).toThrow(
      'retention_policy.policy',
    );
  });

  it('parses Go durations', () => {
    expect(parseGoDurationSeconds('720h0m0s')).toBe(720 * 3600);
    expect(parseGoDurationSeconds('1h30m')).toBe(5400);
    expect(parseGoDurationSeconds('90s')).toBe(90);
    expect(parseGoDurationSeconds('soon')).toBeUndefined();
  });
});
