import { newProjectId } from '@hookrail/domain';
import { IDS_PER_QUERY, readInRuns, scopedIdsFilter } from './scoped-ids';

describe('readInRuns', () => {
  it('reads in runs of at most the size, one after another, the results in order', async () => {
    const runs: number[][] = [];
    let open = 0;
    const read = async (run: number[]) => {
      expect(++open).toBe(1); // never two at once
      runs.push(run);
      await new Promise((r) => setTimeout(r, 5));
      open--;
      return run.map((n) => `#${n}`);
    };
    expect(await readInRuns([1, 2, 3, 4, 5], read, 2)).toEqual(['#1', '#2', '#3', '#4', '#5']);
    expect(runs).toEqual([[1, 2], [3, 4], [5]]);
    expect(await readInRuns([], read, 2)).toEqual([]);
  });

  it('takes IDS_PER_QUERY by default', async () => {
    const sizes: number[] = [];
    await readInRuns(
      Array.from({ length: 2 * IDS_PER_QUERY + 1 }, (_, i) => i),
      async (run) => (sizes.push(run.length), run),
    );
    expect(sizes).toEqual([IDS_PER_QUERY, IDS_PER_QUERY, 1]);
  });
});

describe('scopedIdsFilter', () => {
  it('matches each id within its own project: one project plainly, several as alternatives', () => {
    const [p1, p2] = [newProjectId(), newProjectId()];
    expect(
      scopedIdsFilter([
        { projectId: p1, id: 'a' },
        { projectId: p1, id: 'b' },
      ]),
    ).toEqual({
      project_id: p1,
      _id: { $in: ['a', 'b'] },
    });
    expect(
      scopedIdsFilter(
        [
          { projectId: p1, id: 'a' },
          { projectId: p2, id: 'b' },
        ],
        { keys: '*' },
        'delivery_id',
      ),
    ).toEqual({
      $or: [
        { project_id: p1, keys: '*', delivery_id: { $in: ['a'] } },
        { project_id: p2, keys: '*', delivery_id: { $in: ['b'] } },
      ],
    });
  });

  it('refuses an entry without a project', () => {
    expect(() => scopedIdsFilter([{ projectId: '' as never, id: 'a' }])).toThrow('project id is required');
  });
});
