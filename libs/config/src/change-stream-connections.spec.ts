import { ConfigError, loadConfig } from './index';

const declared = (json: string, extra: Record<string, string> = {}) =>
  loadConfig('source-consumer', { HOOKRAIL_CHANGE_STREAM_CONNECTIONS: json, ...extra }).changeStreams
    .connections;

describe('named change stream connections (HOOKRAIL_CHANGE_STREAM_CONNECTIONS)', () => {
  it('are none by default', () => {
    expect(loadConfig('source-consumer', {}).changeStreams.connections.size).toBe(0);
  });

  it('take each string from the variable named after the connection', () => {
    const connections = declared(
      '[{"name":"orders-db","projects":["*"]},{"name":"crm","projects":["p1","p2"]}]',
      {
        HOOKRAIL_CHANGE_STREAM_CONNECTION_ORDERS_DB: 'postgres://u:p@db:5432/orders',
        HOOKRAIL_CHANGE_STREAM_CONNECTION_CRM: 'mongodb://crm:27017/?replicaSet=rs0',
      },
    );
    expect(Object.fromEntries(connections)).toEqual({
      'orders-db': { url: 'postgres://u:p@db:5432/orders', projects: ['*'] },
      crm: { url: 'mongodb://crm:27017/?replicaSet=rs0', projects: ['p1', 'p2'] },
    });
  });

  it.each([
    ['not json', 'must be JSON'],
    ['{"name":"a"}', 'must be a JSON array'],
    ['[{"name":"Orders","projects":["*"]}]', '"Orders" is not a name'],
    ['[{"name":"orders"}]', '"orders" needs "projects"'],
    ['[{"name":"orders","projects":[]}]', '"orders" needs "projects"'],
    ['[{"name":"orders","projects":["*"]}]', '"orders" has no HOOKRAIL_CHANGE_STREAM_CONNECTION_ORDERS'],
  ])('refuse %s at start, naming the problem', (json, message) => {
    expect(() => declared(json)).toThrow(ConfigError);
    expect(() => declared(json)).toThrow(message);
  });
});
