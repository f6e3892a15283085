import {
  createGuardedLookup,
  guardedLookup,
  isBlockedAddress,
  refusedLiteral,
  SsrfRefusedError,
  type Resolve,
} from './ssrf-guard';

describe('SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '::7f00:1',
    '224.0.0.1',
  ])('refuses %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows public address %s',
    (ip) => {
      expect(isBlockedAddress(ip)).toBe(false);
    },
  );

  it('refuses IP-literal URLs in private ranges, including bracketed IPv6, unless allowed', () => {
    expect(refusedLiteral(new URL('http://169.254.169.254/latest/meta-data').hostname, false)).toBeInstanceOf(
      SsrfRefusedError,
    );
    expect(refusedLiteral(new URL('http://[::1]:8080/').hostname, false)).toBeInstanceOf(SsrfRefusedError);
    expect(refusedLiteral(new URL('http://127.0.0.1/').hostname, true)).toBeUndefined();
    expect(refusedLiteral(new URL('https://example.com/').hostname, false)).toBeUndefined();
  });

  it('refuses bare IP-literal hosts (broker addresses) the same way; names are left to the lookup', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '[::1]', '::ffff:192.168.0.1'])
      expect(refusedLiteral(ip, false)?.message).toMatch(/not allowed/);
    expect(refusedLiteral('127.0.0.1', true)).toBeUndefined();
    expect(refusedLiteral('8.8.8.8', false)).toBeUndefined();
    expect(refusedLiteral('rabbit.internal', false)).toBeUndefined();
  });

  it('refuses a host name that resolves to loopback at lookup time', async () => {
    const err = await new Promise<unknown>((resolve) => guardedLookup('localhost', {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(SsrfRefusedError);
    expect((err as SsrfRefusedError).code).toBe('ESSRF');
  });

  it('refuses IPv6 literal forms of private IPv4 addresses (mapped and compatible)', () => {
    for (const url of ['http://[::ffff:127.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[::127.0.0.1]/']) {
      expect(refusedLiteral(new URL(url).hostname, false)).toBeInstanceOf(SsrfRefusedError);
    }
  });

  it('judges every connection on the addresses resolved for it (DNS rebinding)', async () => {
    // The name is public when first resolved, then rebinds to the metadata address.
    const answers = [['93.184.216.34'], ['169.254.169.254'], ['93.184.216.34', '10.0.0.7']];
    let calls = 0;
    const resolve: Resolve = (_host, _opts, cb) =>
      cb(
        null,
        answers[calls++].map((address) => ({ address, family: 4 })),
      );
    const lookup = createGuardedLookup(resolve);
    const once = () =>
      new Promise<{ err: unknown; address: unknown }>((r) =>
        lookup('rebind.example', {}, (err, address) => r({ err, address })),
      );
    expect(await once()).toEqual({ err: null, address: '93.184.216.34' });
    const rebound = await once();
    expect(rebound.err).toBeInstanceOf(SsrfRefusedError);
    expect((rebound.err as Error).message).toContain('169.254.169.254');
    // One public and one private record: refused, whichever the socket would pick.
    expect((await once()).err).toBeInstanceOf(SsrfRefusedError);
  });
});
