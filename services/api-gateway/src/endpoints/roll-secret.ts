import type { EndpointSecret } from '@hookrail/store';

/**
 * expire_secret: every secret still valid expires `expirationSeconds`
 * from now (0 = now) and the new one is appended as the newest, without expiry. Pure: the caller
 * seals the value and supplies id and clock.
 */
export function rollSecret(
  secrets: EndpointSecret[],
  next: { uid: string; sealedValue: string; expirationSeconds: number; now: Date },
): EndpointSecret[] {
  const expiresAt = new Date(next.now.getTime() + next.expirationSeconds * 1000);
  const rolled = secrets.map((s) =>
    s.deleted_at || (s.expires_at && s.expires_at <= expiresAt)
      ? s
      : { ...s, expires_at: expiresAt, updated_at: next.now },
  );
  rolled.push({
    uid: next.uid,
    value: next.sealedValue,
    created_at: next.now,
    updated_at: next.now,
    deleted_at: null,
    expires_at: null,
  });
  return rolled;
}
