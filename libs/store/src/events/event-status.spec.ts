import { derivedStatus, eventStatusFrom } from './event-status';

describe('derived event status', () => {
  it('derives the event status from its deliveries', () => {
    expect(eventStatusFrom([])).toBe('Failure');
    expect(eventStatusFrom(['Success', 'Scheduled'])).toBe('Processing');
    expect(eventStatusFrom(['Success', 'Retry'])).toBe('Retry');
    expect(eventStatusFrom(['Success', 'Success'])).toBe('Success');
    expect(eventStatusFrom(['Success', 'Discarded'])).toBe('Failure');
  });

  it('keeps a status routing decided (no delivery to wait for)', () => {
    expect(derivedStatus({ status: 'Failure', delivery_count: 0 }, [])).toBe('Failure');
    expect(derivedStatus({ status: 'Success', delivery_count: 0 }, ['Failure'])).toBe('Success');
  });

  it('follows the deliveries of a routed event', () => {
    expect(derivedStatus({ status: 'Processing', delivery_count: 1 }, ['Success'])).toBe('Success');
    expect(derivedStatus({ status: 'Processing', delivery_count: 2 }, ['Success', 'Retry'])).toBe('Retry');
    expect(derivedStatus({ status: 'Processing', delivery_count: 2 }, ['Success', 'Failure'])).toBe(
      'Failure',
    );
  });

  it('is Processing while a delivery has no document yet (on its first send)', () => {
    expect(derivedStatus({ status: 'Processing', delivery_count: 1 }, [])).toBe('Processing');
    expect(derivedStatus({ status: 'Processing', delivery_count: 3 }, ['Success', 'Success'])).toBe(
      'Processing',
    );
  });
});
