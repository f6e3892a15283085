import { isDependencyOutage, newProjectId } from '@hookrail/domain';
import { gatedProxy } from '@hookrail/testkit';
import { Store } from './store';

jest.setTimeout(60_000);

/**
 * Ten times the test's socket timeout: an operation that waited the silence out would succeed.
 * (The driver retries a read once the server is checked again, which waits out this silence too.)
 */
const SILENT_MS = 5000;

// A connection the server stops answering on (a half-open socket after a crash or a partition)
// fails its operation within the socket timeout, as an outage its caller retries, instead of
// leaving it waiting for ever (connection.ts, SOCKET_TIMEOUT_MS).
describe('store: an operation on a connection that stops answering', () => {
  it('fails as an outage, and the next one goes through once the server answers again', async () => {
    const proxy = await gatedProxy({ host: '127.0.0.1', port: 27017 }, true);
    const url = `mongodb://127.0.0.1:${proxy.port}/hookrail-test?retryWrites=false&directConnection=true`;
    const store = await Store.connect(url, 'silent-connection-test', { socketTimeoutMs: 500 });
    const read = () => store.deliveries.findManyForSend([{ projectId: newProjectId(), id: 'absent' }]);
    try {
      await expect(read()).resolves.toEqual([null]);
      proxy.slow(SILENT_MS);
      const failure: unknown = await read().then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(isDependencyOutage(failure)).toBe(true);
      proxy.slow(0);
      await expect(read()).resolves.toEqual([null]);
    } finally {
      await store.close();
      await proxy.close();
    }
  });
});
