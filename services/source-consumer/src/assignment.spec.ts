import { ownedSources } from './assignment';

describe('ownedSources', () => {
  it('keeps the sources whose project maps to an assigned partition', () => {
    const sources = [
      { _id: 's1', project_id: 'p0' },
      { _id: 's2', project_id: 'p1' },
      { _id: 's3', project_id: 'p2' },
      { _id: 's4', project_id: 'p1' },
    ];
    const partitionOf = (p: string) => Number(p.slice(1));
    expect(ownedSources(sources, partitionOf, new Set([1])).map((s) => s._id)).toEqual(['s2', 's4']);
    expect(ownedSources(sources, partitionOf, new Set())).toEqual([]);
  });
});
