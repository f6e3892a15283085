import { flatten } from './flatten';

describe('flatten', () => {
  it('turns nested objects into dot paths', () => {
    expect(flatten({ data: { customer: { id: 'c1' }, amount: 3 }, type: 'x' })).toEqual({
      'data.customer.id': 'c1',
      'data.amount': 3,
      type: 'x',
    });
  });

  it('keeps operator objects, arrays and empty objects as leaves', () => {
    expect(flatten({ data: { amount: { $gt: 1, $lt: 9 }, tags: ['a'], meta: {} } })).toEqual({
      'data.amount': { $gt: 1, $lt: 9 },
      'data.tags': ['a'],
      'data.meta': {},
    });
  });

  it('flattens each $or branch under the prefix it was written at', () => {
    expect(flatten({ data: { $or: [{ a: { b: 1 } }, { c: 2 }] } })).toEqual({
      $or: [{ 'data.a.b': 1 }, { 'data.c': 2 }],
    });
  });

  it('combines two $or written at different prefixes with $and', () => {
    const out = flatten({ x: { $or: [{ a: 1 }] }, y: { $or: [{ b: 2 }] } });
    expect(out).toEqual({ $or: [{ 'x.a': 1 }], $and: [{ $or: [{ 'y.b': 2 }] }] });
  });

  it('leaves an already flat filter unchanged', () => {
    const flat = { 'a.b': 1, c: { $in: [1, 2] } };
    expect(flatten(flat)).toEqual(flat);
  });
});
