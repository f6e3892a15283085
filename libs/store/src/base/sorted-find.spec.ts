import { MAX_SPLIT_VALUES, splitIn } from './sorted-find';

const ID_A = '01KAAAAAAA0000000000000001';
const ID_B = '01KAAAAAAA0000000000000009';

describe('splitIn', () => {
  it('splits a few values of a $in into one query each, without repeats', () => {
    expect(splitIn({ project_id: 'p', endpoint_id: { $in: ['a', 'b', 'a'] }, _id: { $lt: ID_B } })).toEqual([
      { project_id: 'p', endpoint_id: 'a', _id: { $lt: ID_B } },
      { project_id: 'p', endpoint_id: 'b', _id: { $lt: ID_B } },
    ]);
    expect(splitIn({ project_id: 'p', status: { $in: [] } })).toEqual([]);
  });

  it('reads many values, or a $in beside other conditions, as one query; nothing to split without a $in', () => {
    const many = Array.from({ length: MAX_SPLIT_VALUES + 1 }, (_, i) => `e${i}`);
    expect(splitIn({ endpoint_id: { $in: many } })).toBe('whole');
    expect(splitIn({ status: { $in: ['Retry'], $ne: 'Success' } })).toBe('whole');
    expect(splitIn({ project_id: 'p', _id: { $in: [ID_A] } })).toBeNull();
  });
});
