import { CliError, EXIT } from '../exit-codes';
import type { ApplyFile } from './apply-file';
import { changedFields, planApply, sameValue, type Existing, type ProjectState } from './apply-plan';

const state = (over: Partial<ProjectState> = {}): ProjectState => ({
  event_types: [],
  sources: [],
  endpoints: [],
  subscriptions: [],
  ...over,
});
const existing = (uid: string, view: Record<string, unknown>, ephemeral = false): Existing => ({
  uid,
  name: view.name as string,
  view,
  ephemeral,
});

const summary = (file: ApplyFile, s: ProjectState, prune = false) =>
  planApply(file, s, { prune }).map((c) => [c.action, c.section, c.name, ...c.fields]);

describe('apply plan', () => {
  it('creates what the project lacks, updates only the fields that differ, and leaves the rest', () => {
    const project = state({
      endpoints: [
        existing('ep1', {
          name: 'billing',
          url: 'https://old.example.com',
          http_timeout: 10,
          status: 'active',
        }),
        existing('ep2', { name: 'crm', url: 'https://crm.example.com', http_timeout: 30 }),
      ],
    });
    const file: ApplyFile = {
      endpoints: [
        { name: 'billing', url: 'https://new.example.com', http_timeout: 10 },
        { name: 'crm', url: 'https://crm.example.com' },
        { name: 'shipping', url: 'https://ship.example.com' },
      ],
    };
    expect(summary(file, project)).toEqual([
      ['update', 'endpoints', 'billing', 'url'],
      ['unchanged', 'endpoints', 'crm'],
      ['create', 'endpoints', 'shipping'],
    ]);
    const [update] = planApply(file, project, { prune: false });
    expect(update).toMatchObject({ uid: 'ep1', body: { url: 'https://new.example.com' } });
  });

  it('compares objects by the keys the file gives, lists exactly, a retry duration in seconds', () => {
    expect(sameValue({ event_types: ['a'] }, { event_types: ['a'], filter: { body: {} } })).toBe(true);
    expect(sameValue({ event_types: ['a'] }, { event_types: ['a', 'b'] })).toBe(false);
    expect(sameValue({}, null)).toBe(true);
    const view = {
      name: 's',
      endpoint: 'billing',
      retry_config: { type: 'linear', duration: 300, retry_count: 3 },
    };
    expect(
      changedFields(
        'subscriptions',
        { name: 's', endpoint: 'billing', retry_config: { duration: '5m' } },
        view,
      ),
    ).toEqual([]);
    expect(
      changedFields('subscriptions', { name: 's', endpoint: 'crm', retry_config: { duration: 60 } }, view),
    ).toEqual(['endpoint', 'retry_config']);
  });

  it('orders event types, sources, endpoints, subscriptions; with --prune then deletes, subscriptions first, never a cli one', () => {
    const project = state({
      event_types: [existing('et1', { name: 'old.type' })],
      endpoints: [existing('ep1', { name: 'old' }), existing('ep2', { name: 'cli-laptop' }, true)],
      subscriptions: [existing('su1', { name: 'old-sub', endpoint: 'old' })],
    });
    const file: ApplyFile = {
      subscriptions: [{ name: 'sub', endpoint: 'billing' }],
      endpoints: [{ name: 'billing', url: 'https://b.example.com' }],
      event_types: [{ name: 'invoice.paid' }],
    };
    expect(summary(file, project)).toEqual([
      ['create', 'event_types', 'invoice.paid'],
      ['create', 'endpoints', 'billing'],
      ['create', 'subscriptions', 'sub'],
    ]);
    expect(summary(file, project, true).slice(3)).toEqual([
      ['delete', 'subscriptions', 'old-sub'],
      ['delete', 'endpoints', 'old'],
      ['delete', 'event_types', 'old.type'],
    ]);
    // a section the file does not have is never pruned
    expect(summary({ event_types: [] }, project, true)).toEqual([['delete', 'event_types', 'old.type']]);
  });

  it('refuses (exit 2) a subscription naming an endpoint or source neither the file nor the project has, and a name the project uses twice', () => {
    const project = state({
      endpoints: [existing('ep1', { name: 'kept' })],
      sources: [existing('so1', { name: 'twice' }), existing('so2', { name: 'twice' })],
    });
    const file: ApplyFile = {
      sources: [{ name: 'twice', type: 'http' }],
      subscriptions: [
        { name: 'a', endpoint: 'kept' },
        { name: 'b', endpoint: 'nowhere', source: 'none' },
      ],
    };
    let err: unknown;
    try {
      planApply(file, project, { prune: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).code).toBe(EXIT.usage);
    expect((err as CliError).message.split('\n')).toEqual([
      'the file does not fit the project:',
      '  sources[0].name: the project has 2 sources named "twice" (so1, so2); apply matches by name: rename or delete all but one',
      '  subscriptions[1].endpoint: no endpoint named "nowhere" in the file or the project',
      '  subscriptions[1].source: no source named "none" in the file or the project',
    ]);
    // with --prune and an endpoints section, a project endpoint the file omits is about to go
    expect(() =>
      planApply({ endpoints: [], subscriptions: [{ name: 'a', endpoint: 'kept' }] }, project, {
        prune: true,
      }),
    ).toThrow('subscriptions[0].endpoint: no endpoint named "kept" in the file (--prune deletes the others)');
  });
});
