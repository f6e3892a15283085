import { guardedKafkaSocketFactory, refusedLiteral } from './outbound-guard';

describe('broker outbound guard', () => {
  it('refuses private, loopback and link-local IP literals unless allowed; names are left to the lookup', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '[::1]', '::ffff:192.168.0.1'])
      expect(refusedLiteral(ip, false)?.message).toMatch(/not allowed/);
    expect(refusedLiteral('127.0.0.1', true)).toBeUndefined();
    expect(refusedLiteral('8.8.8.8', false)).toBeUndefined();
    expect(refusedLiteral('rabbit.internal', false)).toBeUndefined();
  });

  it('gives kafkajs a socket that fails with the refusal for a private broker address', async () => {
    const onConnect = jest.fn();
    const socket = guardedKafkaSocketFactory({ host: '10.0.0.5', port: 9092, ssl: null as never, onConnect });
    const err = await new Promise<Error>((resolve) => socket.once('error', resolve));
    expect(err).toMatchObject({ code: 'ESSRF', message: expect.stringContaining('10.0.0.5') });
    expect(onConnect).not.toHaveBeenCalled();
  });
});
