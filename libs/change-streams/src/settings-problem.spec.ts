import { settingsProblem } from './settings-problem';

const pg = { type: 'postgres', database: 'shop', publication: 'p', slot: 's' };
const PG_URL = 'postgres://u:p@h/shop';

describe('settingsProblem', () => {
  it('accepts sound settings of each type', () => {
    expect(settingsProblem(pg, PG_URL)).toBeUndefined();
    expect(settingsProblem(pg, 'postgresql://h/shop')).toBeUndefined();
    expect(
      settingsProblem({ type: 'mongodb', database: 'shop', collections: ['a'] }, 'mongodb://h/'),
    ).toBeUndefined();
  });

  it('names a field of the other type, an operation it lacks, a connection string of the other type', () => {
    expect(settingsProblem({ ...pg, full_document: 'off' }, PG_URL)).toEqual({
      field: 'db_change_stream.full_document',
      message: 'is only for type mongodb, not postgres',
    });
    expect(settingsProblem({ type: 'mongodb', database: 'd', slot: 's' }, 'mongodb://h/')).toEqual({
      field: 'db_change_stream.slot',
      message: 'is only for type postgres, not mongodb',
    });
    expect(
      settingsProblem({ type: 'mongodb', database: 'd', operations: ['truncate'] }, 'mongodb://h/'),
    ).toEqual({
      field: 'db_change_stream.operations.0',
      message: '"truncate" is not an operation of mongodb (insert, update, replace, delete)',
    });
    expect(settingsProblem(pg, 'mongodb://h/')).toEqual({
      field: 'db_change_stream.connection_string',
      message: 'type postgres needs a postgres:// or postgresql:// connection string',
    });
  });

  it('requires the publication and the slot of a postgres source', () => {
    expect(settingsProblem({ ...pg, publication: undefined }, PG_URL)).toEqual({
      field: 'db_change_stream.publication',
      message: 'is required for type postgres',
    });
  });
});
