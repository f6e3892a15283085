// kafkajs 2.2.4 re-arms a 0 ms timer forever once a connection has had a request, even with
// nothing pending: every idle connection spun the event loop (about a tenth of a core per
// service, and jitter on every request). patches/kafkajs+2.2.4.patch stops it; this guards it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue');

const queue = () =>
  new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'localhost:9092',
    logger: { debug: () => undefined, warn: () => undefined, error: () => undefined, info: () => undefined },
  });

describe('kafkajs request queue (patched)', () => {
  // Fake timers: the unpatched loop would otherwise keep the test process alive.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('schedules no check when nothing is pending and nothing is throttled', () => {
    const q = queue();
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still schedules a check for a pending request', () => {
    const q = queue();
    q.pending.push({});
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
  });

  it('still schedules a check at the end of a throttle', () => {
    const q = queue();
    q.maybeThrottle(50);
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
  });
});
