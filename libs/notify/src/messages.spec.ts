import { composeNotice } from './messages';

const endpoint = { _id: 'ep1', project_id: 'p1', name: 'orders', url: 'https://example.com/hook' };

describe('composeNotice', () => {
  it('names the endpoint, the reason and how to recover when it was disabled', () => {
    const n = composeNotice(endpoint, { kind: 'disabled', reason: 'the endpoint answered 410 Gone' });
    expect(n.subject).toBe('[Hookrail] Endpoint orders was disabled');
    expect(n.text).toContain('ep1');
    expect(n.text).toContain('the endpoint answered 410 Gone');
    expect(n.text).toContain('Activate the endpoint');
  });

  it('states the failure count and window for an alert', () => {
    const n = composeNotice(endpoint, {
      kind: 'alert',
      failures: 5,
      threshold: '1h',
      subscriptionName: 'all',
    });
    expect(n.text).toContain('5 deliveries');
    expect(n.text).toContain('within 1h');
    expect(n.text).toContain('subscription "all"');
  });

  it('says where a broker endpoint publishes, without its credentials', () => {
    const n = composeNotice(
      {
        ...endpoint,
        url: '',
        type: 'kafka',
        destination: {
          brokers: ['k1:9092', 'k2:9092'],
          topic_name: 'orders',
          auth: { password: '<sealed>' },
        },
      },
      { kind: 'disabled', reason: 'circuit breaker open' },
    );
    expect(n.text).toContain('(ep1, Kafka k1:9092, k2:9092 · topic orders)');
    expect(n.text).not.toContain('sealed');
  });
});
