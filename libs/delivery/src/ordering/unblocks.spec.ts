import { headEnd } from './unblocks';

describe('headEnd', () => {
  const ordering = (unblock_on: ('failure' | 'discarded')[]) => ({
    ordering: { mode: 'key' as const, key: { body_path: 'id' }, unblock_on },
  });

  it('success always unblocks; retry and a gate hold keep the head pending', () => {
    expect(headEnd('Success', ordering([]))).toBe('unblocks');
    expect(headEnd('Retry', ordering(['failure']))).toBe('pending');
    expect(headEnd('Scheduled', ordering(['failure']))).toBe('pending');
  });

  it('a failure or a discard unblocks only when unblock_on names it', () => {
    expect(headEnd('Failure', ordering(['failure']))).toBe('unblocks');
    expect(headEnd('Failure', ordering(['discarded']))).toBe('blocks');
    expect(headEnd('Discarded', ordering(['discarded']))).toBe('unblocks');
    expect(headEnd('Discarded', ordering([]))).toBe('blocks');
  });

  it('a deleted subscription unblocks whatever ended', () => {
    expect(headEnd('Failure', null)).toBe('unblocks');
  });
});
