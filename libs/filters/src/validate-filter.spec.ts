import { validateFilter } from './validate-filter';

describe('validateFilter', () => {
  it('accepts filters using every supported operator', () => {
    const filter = {
      data: { amount: { $gt: 1, $lte: 10 }, tags: { $in: ['a'] }, x: { $exist: false } },
      'data.name': { $regex: '^a', $neq: 'b' },
      $or: [{ a: 1 }, { b: { $nin: [2] } }],
      $and: [{ c: { $eq: 3 } }],
    };
    expect(validateFilter(filter, 'filter_config.filter.body')).toEqual([]);
  });

  it('names the field of an unknown operator', () => {
    expect(validateFilter({ data: { amount: { $gtx: 1 } } }, 'filter_config.filter.body')).toEqual([
      {
        field: 'filter_config.filter.body.data.amount.$gtx',
        message: expect.stringContaining('unknown operator $gtx'),
      },
    ]);
  });

  it('rejects operator arguments of the wrong type and bad regular expressions', () => {
    const errors = validateFilter({
      a: { $in: 1 },
      b: { $exist: 'yes' },
      c: { $gt: {} },
      d: { $regex: '(' },
      $or: [],
    });
    expect(errors.map((e) => e.field)).toEqual([
      'filter.a.$in',
      'filter.b.$exist',
      'filter.c.$gt',
      'filter.d.$regex',
      'filter.$or',
    ]);
  });

  it('rejects operators mixed with field names and field operators at the top level', () => {
    expect(validateFilter({ a: { $gt: 1, b: 2 } })[0]).toEqual({
      field: 'filter.a',
      message: 'cannot mix operators and field names in one object',
    });
    expect(validateFilter({ $gt: 1 })[0].message).toBe('must be applied to a field');
  });

  it('checks inside $or branches with their index', () => {
    expect(validateFilter({ $or: [{ a: 1 }, { b: { $bad: 1 } }] })[0].field).toBe('filter.$or.1.b.$bad');
  });

  it('rejects a filter that is not an object', () => {
    expect(validateFilter([1], 'f')).toEqual([{ field: 'f', message: 'must be an object' }]);
  });
});
