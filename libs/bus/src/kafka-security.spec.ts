import { kafkaSecurity } from './kafka-client';

describe('kafkaSecurity', () => {
  it('is plaintext without TLS or SASL', () => {
    expect(kafkaSecurity({})).toEqual({});
  });

  it('turns on TLS with the system CAs, or adds the given CA file', () => {
    expect(kafkaSecurity({ tls: {} })).toEqual({ ssl: true });
    const read = jest.fn(() => '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    expect(kafkaSecurity({ tls: { caFile: '/etc/kafka-ca/ca.crt' } }, read)).toEqual({
      ssl: { ca: ['-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n'] },
    });
    expect(read).toHaveBeenCalledWith('/etc/kafka-ca/ca.crt');
  });

  it('passes SASL credentials with the mechanism kafkajs expects', () => {
    expect(
      kafkaSecurity({ tls: {}, sasl: { mechanism: 'scram-sha-256', username: 'u', password: 'p' } }),
    ).toEqual({ ssl: true, sasl: { mechanism: 'scram-sha-256', username: 'u', password: 'p' } });
  });
});
