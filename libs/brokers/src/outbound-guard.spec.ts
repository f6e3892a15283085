import { guardedKafkaSocketFactory } from './outbound-guard';

describe('broker outbound guard', () => {
  it('gives kafkajs a socket that fails with the refusal for a private broker address', async () => {
    const onConnect = jest.fn();
    const socket = guardedKafkaSocketFactory({ host: '10.0.0.5', port: 9092, ssl: null as never, onConnect });
    const err = await new Promise<Error>((resolve) => socket.once('error', resolve));
    expect(err).toMatchObject({ code: 'ESSRF', message: expect.stringContaining('10.0.0.5') });
    expect(onConnect).not.toHaveBeenCalled();
  });
});
