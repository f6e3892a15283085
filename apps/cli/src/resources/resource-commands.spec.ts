import { managementOperations as api } from '@hookrail/api-contract';
import { CliError, EXIT } from '../exit-codes';
import { eventTypeList } from '../commands/listen';
import { bodyOf, defineResource, setPath } from './resource-commands';

const spec = defineResource({
  command: 'subscriptions',
  noun: 'subscription',
  idParam: 'subscriptionID',
  ops: {
    list: api.listSubscriptions,
    get: api.getSubscription,
    create: api.createSubscription,
    update: api.updateSubscription,
    remove: api.deleteSubscription,
  },
  columns: [['id', (s) => s.uid]],
  fields: [
    { flags: '--name <name>', field: 'name', description: 'name' },
    {
      flags: '--event-types <types>',
      field: 'filter_config.event_types',
      description: 'types',
      parse: eventTypeList,
    },
  ],
});

describe('resource command bodies', () => {
  it('sets a nested field without losing its siblings', () => {
    const body: Record<string, unknown> = { filter_config: { filter: { body: { a: 1 } } } };
    setPath(body, 'filter_config.event_types', ['x']);
    expect(body).toEqual({ filter_config: { filter: { body: { a: 1 } }, event_types: ['x'] } });
  });

  it('takes --data, then sets the typed options over it', async () => {
    await expect(
      bodyOf(spec, {
        data: '{"name":"from-data","endpoint_id":"e1","filter_config":{"event_types":["a"]}}',
        name: 'from-option',
        eventTypes: ['b.*'],
      }),
    ).resolves.toEqual({ name: 'from-option', endpoint_id: 'e1', filter_config: { event_types: ['b.*'] } });
    await expect(bodyOf(spec, { name: 'only' })).resolves.toEqual({ name: 'only' });
  });

  it('refuses, as a usage error, nothing to send, JSON that is no object, and both --data and --file', async () => {
    const usage = expect.objectContaining({ code: EXIT.usage }) as CliError;
    await expect(bodyOf(spec, {})).rejects.toEqual(usage);
    await expect(bodyOf(spec, {})).rejects.toThrow(
      'the subscription: give --data <json>, --file <path> or --name, --event-types',
    );
    await expect(bodyOf(spec, { data: '[1]' })).rejects.toThrow('must hold a JSON object');
    await expect(bodyOf(spec, { data: '{', name: 'x' })).rejects.toThrow('--data is not JSON');
    await expect(bodyOf(spec, { data: '{}', file: 'x.json' })).rejects.toThrow('choose one');
  });
});
