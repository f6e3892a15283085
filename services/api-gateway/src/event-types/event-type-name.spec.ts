import { ValidationError, type FieldError } from '@hookrail/domain';
import { checkEventTypeName } from './event-type-name';

/** The field errors a check throws (fails the test when it does not throw a ValidationError). */
function errorsOf(fn: () => unknown): FieldError[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.details?.errors ?? [];
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('checkEventTypeName', () => {
  it('accepts concrete dotted names', () => {
    for (const name of ['invoice.paid', 'customer.subscription.created', 'user_signup', 'a-b.c_d.E9'])
      expect(() => checkEventTypeName(name, 'name')).not.toThrow();
  });

  it('refuses patterns, saying where they belong', () => {
    for (const name of ['invoice.*', '*'])
      expect(errorsOf(() => checkEventTypeName(name, 'name'))).toEqual([
        {
          field: 'name',
          message: expect.stringContaining("go in a subscription's filter_config.event_types"),
        },
      ]);
  });

  it('refuses names that are not dot-separated parts', () => {
    for (const name of ['invoice paid', '.invoice', 'invoice.', 'a..b', 'orders/created', 'x'.repeat(201)])
      expect(errorsOf(() => checkEventTypeName(name, 'name'))[0].message).toContain(
        'is not an event type name',
      );
  });
});
