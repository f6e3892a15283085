import { ChangeStreamSettingsError } from './connect';
import { sourceConnectionString } from './named-connection';

const named = new Map([
  ['shared', { url: 'mongodb://shared:27017/?replicaSet=rs0', projects: ['*'] }],
  ['orders', { url: 'postgres://u:p@orders:5432/shop', projects: ['p1'] }],
]);
const open = (sealed: string) => `opened(${sealed})`;

describe('sourceConnectionString', () => {
  it("opens the source's own sealed string when it names no connection", () => {
    expect(sourceConnectionString({ connection_string: 'sealed' }, 'p1', named, open)).toBe('opened(sealed)');
  });

  it('gives a named connection to the projects listed with it, or to any with "*"', () => {
    expect(sourceConnectionString({ connection: 'orders' }, 'p1', named, open)).toBe(
      'postgres://u:p@orders:5432/shop',
    );
    expect(sourceConnectionString({ connection: 'shared' }, 'p9', named, open)).toBe(
      'mongodb://shared:27017/?replicaSet=rs0',
    );
  });

  it('refuses an unknown name and a project the connection is not listed for, naming the field', () => {
    for (const [name, message] of [
      ['missing', 'no connection "missing" is configured'],
      ['orders', 'connection "orders" is not available to this project'],
    ]) {
      const attempt = () => sourceConnectionString({ connection: name }, 'p2', named, open);
      expect(attempt).toThrow(new ChangeStreamSettingsError('db_change_stream.connection', message));
      expect(attempt).toThrow(message);
    }
  });
});
