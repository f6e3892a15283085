import { DomainError, UnavailableError } from '@hookrail/domain';
import { PublishGuard } from './publish-guard';

const never = () => new Promise<void>(() => undefined);
const ok = () => Promise.resolve();

describe('PublishGuard', () => {
  it('resolves once the publish is acknowledged', async () => {
    const guard = new PublishGuard({ timeoutMs: 50 });
    await expect(guard.run(ok)).resolves.toBeUndefined();
    expect(guard.available).toBe(true);
  });

  it('fails a publish not acknowledged in time, then fails the next ones at once until a probe succeeds', async () => {
    let t = 0;
    const changes: boolean[] = [];
    const guard = new PublishGuard({
      timeoutMs: 30,
      probeIntervalMs: 1000,
      now: () => t,
      onChange: (a) => changes.push(a),
    });
    await expect(guard.run(never)).rejects.toThrow('kafka did not acknowledge within 30 ms');
    expect(guard.available).toBe(false);

    let called = 0;
    const counted = () => {
      called++;
      return Promise.resolve();
    };
    // "At once": it fails before any timer could fire, without trying to send.
    const waited = new Promise((r) => setTimeout(() => r('waited for a timer'), 0));
    const outcome = await Promise.race([
      guard.run(counted).then(
        () => 'resolved',
        (e: unknown) => e,
      ),
      waited,
    ]);
    expect(outcome).toBeInstanceOf(UnavailableError);
    expect(called).toBe(0);

    t = 1000; // the probe interval passed: one publish goes through and succeeds
    await guard.run(counted);
    expect(called).toBe(1);
    expect(guard.available).toBe(true);
    expect(changes).toEqual([false, true]);
  });

  it('lets one probe through at a time and fails the others at once', async () => {
    let t = 0;
    const guard = new PublishGuard({ timeoutMs: 30, probeIntervalMs: 10, now: () => t });
    await expect(guard.run(() => Promise.reject(new Error('ECONNREFUSED')))).rejects.toThrow(
      UnavailableError,
    );
    t = 10;
    let release!: () => void;
    const probe = guard.run(() => new Promise<void>((r) => (release = r)));
    await expect(guard.run(ok)).rejects.toThrow('kafka is unavailable (ECONNREFUSED)');
    release();
    await probe;
    await expect(guard.run(ok)).resolves.toBeUndefined();
  });

  it('passes a non-retriable error through without marking Kafka unavailable', async () => {
    const guard = new PublishGuard({ timeoutMs: 30 });
    const tooLarge = new DomainError('payload_too_large', 'too large');
    await expect(guard.run(() => Promise.reject(tooLarge))).rejects.toBe(tooLarge);
    expect(guard.available).toBe(true);
  });
});
