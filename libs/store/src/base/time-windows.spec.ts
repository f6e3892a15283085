import { idBoundAt } from '@hookrail/domain';
import { idBoundsOf, idCondition, timeWindows, type IdBounds } from './time-windows';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const DAY = 86_400_000;
const idAt = (time: number, n = 0) => idBoundAt(time, 'first').slice(0, 10) + String(n).padStart(16, '0');

/** What an `_id` condition matches, as the server would. */
function matches(id: string, c: Record<string, string> | undefined): boolean {
  if (!c) return true;
  return (
    (c.$gte === undefined || id >= c.$gte) &&
    (c.$gt === undefined || id > c.$gt) &&
    (c.$lte === undefined || id <= c.$lte) &&
    (c.$lt === undefined || id < c.$lt)
  );
}

/** Ids from 3 years ago to a minute ahead of the clock, denser near now, some sharing a millisecond. */
const ids = Array.from({ length: 400 }, (_, i) =>
  idAt(NOW + 60_000 - Math.floor(3 * 365 * DAY * (i / 400) ** 3), i % 3),
).sort();

function readByWindows(bounds: IdBounds, desc: boolean): { rows: string[]; windows: number } {
  const rows: string[] = [];
  let windows = 0;
  for (const w of timeWindows(bounds, desc, NOW)) {
    windows += 1;
    const inWindow = ids.filter((id) => matches(id, idCondition(w)));
    rows.push(...(desc ? inWindow.reverse() : inWindow));
  }
  return { rows, windows };
}

describe('timeWindows', () => {
  const conditions: (Record<string, string> | undefined)[] = [
    undefined,
    { $lt: ids[250] },
    { $lte: ids[250] },
    { $gt: ids[30] },
    { $gte: ids[30], $lte: ids[300] },
    { $gt: ids[100], $lt: ids[101] },
    { $gte: idAt(NOW - 2 * DAY), $lte: idAt(NOW - DAY) },
    { $lt: ids[0] },
  ];

  it.each(conditions.flatMap((c) => [true, false].map((desc) => [c, desc] as const)))(
    'covers the range %j exactly once, in scan order (desc %s)',
    (condition, desc) => {
      const bounds = idBoundsOf(condition)!;
      const expected = ids.filter((id) => matches(id, condition));
      if (desc) expected.reverse();
      expect(readByWindows(bounds, desc).rows).toEqual(expected);
    },
  );

  it('starts small at the near end and widens, so a page near the start reads few documents', () => {
    const first = timeWindows({}, true, NOW).next().value as IdBounds;
    expect(first).toEqual({
      lower: { id: idAt(NOW - 1000).slice(0, 10) + '0'.repeat(16), inclusive: true },
      upper: undefined,
    });
    // The whole of time in about 20 windows, not one per second.
    expect(readByWindows({}, true).windows).toBeLessThan(25);
  });

  it('reads an ascending scan with no lower end as one window (it has nowhere to start)', () => {
    expect([...timeWindows({ upper: { id: ids[5], inclusive: true } }, false, NOW)]).toEqual([
      { upper: { id: ids[5], inclusive: true } },
    ]);
  });
});

describe('idBoundsOf', () => {
  it('reads a range of ids, keeping the tighter of two bounds on one end', () => {
    expect(idBoundsOf({ $gte: ids[1], $gt: ids[2], $lt: ids[9] })).toEqual({
      lower: { id: ids[2], inclusive: false },
      upper: { id: ids[9], inclusive: false },
    });
    expect(idBoundsOf(undefined)).toEqual({});
  });

  it('leaves alone what is not a range of ULIDs', () => {
    expect(idBoundsOf(ids[3])).toBeNull();
    expect(idBoundsOf({ $in: [ids[3]] })).toBeNull();
    expect(idBoundsOf({ $lt: 'not-a-ulid!' })).toBeNull();
  });
});
