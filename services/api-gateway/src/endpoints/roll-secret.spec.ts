import type { EndpointSecret } from '@hookrail/store';
import { rollSecret } from './roll-secret';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const secret = (uid: string, expires_at: Date | null = null): EndpointSecret => ({
  uid,
  value: `v-${uid}`,
  created_at: t0,
  updated_at: t0,
  deleted_at: null,
  expires_at,
});

describe('rollSecret', () => {
  const now = new Date('2026-02-01T00:00:00.000Z');

  it('expires the current secret after the given seconds and appends the new one as newest', () => {
    const out = rollSecret([secret('a')], { uid: 'b', sealedValue: 'new', expirationSeconds: 3600, now });
    expect(out).toHaveLength(2);
    expect(out[0].expires_at?.toISOString()).toBe('2026-02-01T01:00:00.000Z');
    expect(out[1]).toMatchObject({ uid: 'b', value: 'new', expires_at: null });
  });

  it('expires the current secret at once with expiration 0', () => {
    const out = rollSecret([secret('a')], { uid: 'b', sealedValue: 'new', expirationSeconds: 0, now });
    expect(out[0].expires_at).toEqual(now);
  });

  it('never extends a secret that already expires sooner', () => {
    const soon = new Date('2026-02-01T00:10:00.000Z');
    const out = rollSecret([secret('a', soon), secret('b')], {
      uid: 'c',
      sealedValue: 'x',
      expirationSeconds: 3600,
      now,
    });
    expect(out[0].expires_at).toEqual(soon);
    expect(out[1].expires_at?.toISOString()).toBe('2026-02-01T01:00:00.000Z');
  });
});
