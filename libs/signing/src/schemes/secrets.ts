/** An endpoint secret with its value already opened (libs/domain SecretBox). */
export interface SigningSecret {
  value: string;
  created_at: Date;
  expires_at: Date | null;
  deleted_at?: Date | null;
}

/**
 * Secrets that may sign now, oldest first: not deleted and not expired. The newest is last: it is
 * the one simple signatures use.
 */
export function activeSecrets(secrets: SigningSecret[], now: Date): SigningSecret[] {
  return secrets
    .filter((s) => !s.deleted_at && (s.expires_at === null || s.expires_at.getTime() > now.getTime()))
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}
