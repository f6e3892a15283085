import { DEFAULT_PROJECT_CONFIG } from '@hookrail/store';
import { retentionCutoff } from './apply-retention.usecase';

describe('retentionCutoff', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it("is the project's retention period before now", () => {
    const config = { ...DEFAULT_PROJECT_CONFIG, retention_seconds: 3600 };
    expect(retentionCutoff({ config }, now).toISOString()).toBe('2026-11-23T11:00:00.000Z');
  });
  it('defaults to 30 days for a project stored without one', () => {
    const config = { ...DEFAULT_PROJECT_CONFIG, retention_seconds: undefined as unknown as number };
    expect(retentionCutoff({ config }, now).toISOString()).toBe('2026-10-24T12:00:00.000Z');
  });
});
