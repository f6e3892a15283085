import { ValidationError } from '@hookrail/domain';
import { createdRangeQuery, idListQuery, idQuery, pageQuery } from '@hookrail/api-contract';
import { filterFromQuery, listFilterFromQuery, normaliseListQuery } from './list-query';

const declared = {
  ...pageQuery,
  ownerId: idQuery('owner'),
  endpointId: idListQuery('endpoints'),
  ...createdRangeQuery,
};

describe('normaliseListQuery: Convoy names, aliases, unset values', () => {
  it('reads snake_case aliases under the camelCase name', () => {
    expect(
      normaliseListQuery({ owner_id: 'o1', per_page: '5', start_date: '2026-01-02T03:04:05Z' }, declared),
    ).toEqual({
      ownerId: 'o1',
      perPage: '5',
      startDate: '2026-01-02T03:04:05Z',
    });
  });

  it('treats empty values, perPage=0 and Go zero times as not set (what the SDK sends unset)', () => {
    expect(
      normaliseListQuery(
        {
          ownerId: '',
          perPage: '0',
          direction: '',
          next_page_cursor: '',
          startDate: '0001-01-01T00:00:00',
          endDate: '0001-01-01T00:00:00',
        },
        declared,
      ),
    ).toEqual({});
  });

  it('reads a zoneless time (Go layout 2006-01-02T15:04:05) as UTC', () => {
    expect(normaliseListQuery({ endDate: '2026-05-06T07:08:09' }, declared)).toEqual({
      endDate: '2026-05-06T07:08:09Z',
    });
  });

  it('collects repeated values of list filters, also across alias and name', () => {
    expect(normaliseListQuery({ endpointId: ['a', 'b'], endpoint_id: 'c' }, declared)).toEqual({
      endpointId: ['a', 'b', 'c'],
    });
    expect(normaliseListQuery({ endpointId: 'a' }, declared)).toEqual({ endpointId: ['a'] });
  });

  it('refuses a single-valued filter given twice instead of picking one', () => {
    expect(() => normaliseListQuery({ ownerId: ['a', 'b'] }, declared)).toThrow(ValidationError);
    expect(() => normaliseListQuery({ ownerId: 'a', owner_id: 'b' }, declared)).toThrow(
      'ownerId is given more than once',
    );
  });

  it('passes unknown names through unchanged for the schema to refuse', () => {
    expect(normaliseListQuery({ colour: 'red', groupId: 'g' }, declared)).toEqual({
      colour: 'red',
      groupId: 'g',
    });
  });
});

describe('filterFromQuery: a batch filter from the query (Convoy) and the body (ours)', () => {
  type Filter = { source_id?: string; start_date?: string };
  const names = { sourceId: 'source_id', startDate: 'start_date' } as const;

  it('adds query filters to the body filter', () => {
    expect(filterFromQuery<Filter>({}, { sourceId: 's1' }, names)).toEqual({
      source_id: 's1',
    });
    expect(
      filterFromQuery<Filter>({ source_id: 's1' }, { startDate: '2026-01-01T00:00:00Z' }, names),
    ).toEqual({
      source_id: 's1',
      start_date: '2026-01-01T00:00:00Z',
    });
  });

  it('accepts the same value in both, refuses two different ones', () => {
    expect(filterFromQuery<Filter>({ source_id: 's1' }, { sourceId: 's1' }, names)).toEqual({
      source_id: 's1',
    });
    expect(() => filterFromQuery<Filter>({ source_id: 's1' }, { sourceId: 's2' }, names)).toThrow(
      "sourceId disagrees with the body's source_id",
    );
  });

  it('reads one repeated value as the body field, several as the list field, and refuses a body value not among them', () => {
    type F = { source_id?: string; source_ids?: string[] };
    const read = (body: F, values?: string[]) =>
      listFilterFromQuery<F>(body, values, 'sourceId', 'source_id', 'source_ids');
    expect(read({}, undefined)).toEqual({});
    expect(read({}, ['a'])).toEqual({ source_id: 'a' });
    expect(read({}, ['a', 'b'])).toEqual({ source_ids: ['a', 'b'] });
    expect(read({ source_id: 'b' }, ['a', 'b'])).toEqual({ source_id: 'b', source_ids: ['a', 'b'] });
    expect(() => read({ source_id: 'c' }, ['a', 'b'])).toThrow(
      "sourceId disagrees with the body's source_id",
    );
    expect(() => read({ source_id: 'c' }, ['a'])).toThrow("sourceId disagrees with the body's source_id");
  });
});
