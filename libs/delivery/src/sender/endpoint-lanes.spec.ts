import { EndpointLanes, type LaneFull, type LaneSlot } from './endpoint-lanes';

function lanes(over: Partial<ConstructorParameters<typeof EndpointLanes>[0]> = {}) {
  const clock = { now: 1_000_000 };
  const l = new EndpointLanes({
    perEndpoint: 3,
    slowPerEndpoint: 2,
    slowLane: 3,
    slowMs: 1000,
    now: () => clock.now,
    random: () => 0,
    ...over,
  });
  return { l, clock };
}
const slot = (x: LaneSlot | LaneFull): LaneSlot => {
  if (!('release' in x)) throw new Error(`expected a slot, got parked: ${x.detail}`);
  return x;
};
/** Endpoints that answered fast once: in the fast lane. */
const proven = (l: EndpointLanes, ...ids: string[]) => ids.forEach((id) => slot(l.take(id)).ended());
const parked = (x: LaneSlot | LaneFull): LaneFull => {
  if ('release' in x) throw new Error('expected parked, got a slot');
  return x;
};

describe('EndpointLanes', () => {
  it('caps one endpoint without touching another, and a released slot is free again', () => {
    const { l } = lanes();
    proven(l, 'a', 'b');
    const taken = [1, 2, 3].map(() => slot(l.take('a')));
    expect(parked(l.take('a'))).toMatchObject({ lane: 'fast', delayMs: 1000 });
    expect(slot(l.take('b')).lane).toBe('fast');
    taken[0].release();
    taken[0].release(); // idempotent: releasing twice frees one slot only
    slot(l.take('a'));
    parked(l.take('a'));
  });

  it('puts an endpoint whose oldest attempt runs past slowMs in the slow lane, with its smaller cap', () => {
    const { l, clock } = lanes();
    proven(l, 'fast');
    slot(l.take('hang'));
    clock.now += 1500;
    expect(slot(l.take('hang')).lane).toBe('slow');
    // 2 running ≥ slowPerEndpoint 2: parked for about as long as its oldest attempt has run
    expect(parked(l.take('hang'))).toMatchObject({ lane: 'slow', delayMs: 1500 });
    expect(slot(l.take('fast')).lane).toBe('fast');
  });

  it('bounds all slow endpoints together by slowLane, while fast endpoints keep their caps', () => {
    const { l, clock } = lanes({ slowPerEndpoint: 5 });
    proven(l, 'h1', 'h2', 'h3', 'ok');
    for (const e of ['h1', 'h2', 'h3']) slot(l.take(e));
    clock.now += 2000;
    slot(l.take('h1'));
    slot(l.take('h2'));
    slot(l.take('h3'));
    expect(parked(l.take('h1')).detail).toMatch(/slow lane full/);
    expect(l.counts()).toEqual({ running: 6, probe: 0, new: 0, slow: 3, detached: 0 });
    for (let i = 0; i < 3; i++) expect(slot(l.take('ok')).lane).toBe('fast');
  });

  it('remembers a slow answer until a fast one, and parks a slow endpoint at most 30 s (+ jitter)', () => {
    const { l, clock } = lanes({ random: () => 0.999 });
    const s = slot(l.take('e'));
    clock.now += 45_000;
    s.ended(); // took 45 s (a time-out)
    expect(slot(l.take('e')).lane).toBe('slow');
    slot(l.take('e'));
    const p = parked(l.take('e'));
    expect(p.delayMs).toBeGreaterThanOrEqual(30_000);
    expect(p.delayMs).toBeLessThan(37_500);
  });

  it('lets an endpoint back into the fast lane after a fast answer, into the new lane once its slowness is old', () => {
    const { l, clock } = lanes({ rememberMs: 60_000 });
    const s1 = slot(l.take('e'));
    clock.now += 5000;
    s1.ended();
    const s2 = slot(l.take('e'));
    expect(s2.lane).toBe('slow');
    clock.now += 10;
    s2.ended(); // answered in 10 ms
    expect(slot(l.take('e')).lane).toBe('fast');

    const s3 = slot(l.take('f'));
    clock.now += 5000;
    s3.ended();
    clock.now += 61_000;
    expect(slot(l.take('f')).lane).toBe('new');
  });

  it('when a thousand new endpoints hang at once, holds at most 2 x slowLane + probeLane attempts to them; a proven endpoint keeps its slots', () => {
    const { l, clock } = lanes({ perEndpoint: 50, slowPerEndpoint: 20, slowLane: 300, probeLane: 600 });
    proven(l, 'ok');
    const endpoints = Array.from({ length: 1000 }, (_, i) => `e${i}`);
    const round = () => endpoints.forEach((e) => l.take(e));
    round(); // new endpoints: nobody knows yet that they hang; 600 take a probe, 300 the new lane
    expect(l.counts()).toEqual({ running: 900, probe: 600, new: 300, slow: 0, detached: 0 });
    clock.now += 2000;
    for (let i = 0; i < 30; i++) round();
    // Seen slow, they take the slow lane's 300 too; their first attempts keep the probe and new
    // lanes' until they time out, so an endpoint never seen answering waits for those (parked).
    expect(l.counts()).toEqual({ running: 1200, probe: 600, new: 300, slow: 300, detached: 0 });
    expect(parked(l.take('fresh')).lane).toBe('new');
    for (let i = 0; i < 50; i++) expect(slot(l.take('ok')).lane).toBe('fast');
  });

  it("a new endpoint's first attempt passes a new lane full of other new endpoints' (a probe, one at a time)", async () => {
    const { l } = lanes({ probeLane: 2, maxDetached: 10 });
    const wall = ['h1', 'h2', 'h3'].map((e) => slot(l.take(e)));
    expect(wall.map((s) => s.lane)).toEqual(['probe', 'probe', 'new']);
    [1, 2].forEach(() => slot(l.take('h3'))); // the new lane's 3 are held
    wall[0].release(); // a probe ended without an answer (no attempt made): h1 is still new
    const first = slot(l.take('ok'));
    expect(first.lane).toBe('probe');
    const burst = l.acquire('ok'); // its probe running, the rest of a burst waits for the new lane
    expect(burst).toBeInstanceOf(Promise);
    expect(parked(l.take('h4')).detail).toMatch(/new lane full/); // both probes are taken
    first.ended(); // answered fast: the endpoint is fast, its waiter gets a fast slot
    expect(slot(await burst).lane).toBe('fast');
  });

  it('a probe running past slowMs puts its endpoint in the slow lane, and a slow answer keeps it there', () => {
    const { l, clock } = lanes({ probeLane: 5, slowPerEndpoint: 3 });
    const probe = slot(l.take('h'));
    expect(probe.lane).toBe('probe');
    expect(slot(l.take('h')).lane).toBe('new'); // one probe per endpoint
    clock.now += 1500;
    expect(slot(l.take('h')).lane).toBe('slow');
    probe.ended();
    expect(l.counts()).toMatchObject({ probe: 0, new: 1, slow: 1 });
    expect(slot(l.take('h')).lane).toBe('slow');
    expect(parked(l.take('h')).lane).toBe('slow'); // 3 running: its cap in the slow lane
  });

  it('a fast endpoint at its cap: deliveries wait for its slots, first come first served, up to maxDetached', async () => {
    const { l } = lanes({ maxDetached: 3 });
    proven(l, 'a');
    const taken = [1, 2, 3].map(() => slot(l.take('a')));
    const waiting = [1, 2, 3].map(() => l.acquire('a'));
    expect(parked(await l.acquire('a')).lane).toBe('fast'); // a 4th is parked at once
    const order: number[] = [];
    waiting.forEach((w, i) => void Promise.resolve(w).then(() => order.push(i)));
    taken[1].ended(); // answered fast: its slot goes to the first waiter
    taken[0].release();
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([0, 1]);
    expect(l.counts()).toMatchObject({ running: 3, detached: 1 });
  });

  it('a burst to a new endpoint waits for its slots, and takes fast ones once it answered fast', async () => {
    const { l } = lanes({ maxDetached: 5 });
    const taken = [1, 2, 3].map(() => slot(l.take('fresh')));
    const waiting = [1, 2, 3, 4, 5].map(() => l.acquire('fresh'));
    expect(waiting.every((w) => w instanceof Promise)).toBe(true);
    expect(parked(await l.acquire('fresh')).lane).toBe('new'); // a 6th is parked at once
    taken[0].ended(); // answered fast: the endpoint is fast now, its slot goes to the first waiter
    expect(slot(await waiting[0]).lane).toBe('fast');
    taken.slice(1).forEach((t) => t.ended());
    expect((await Promise.all(waiting.slice(1, 3))).map((w) => slot(w).lane)).toEqual(['fast', 'fast']);
  });

  it('a delivery that can leave its window waits for its slot as long as it takes, even to a slow endpoint', async () => {
    const { l, clock } = lanes({ maxDetached: 2 });
    proven(l, 'a');
    const running = [1, 2, 3].map(() => slot(l.take('a')));
    clock.now += 5000; // a's attempts have run 5 s: it is slow
    let left = 0;
    const leave = () => left++;
    const w1 = l.acquire('a', leave);
    const w2 = l.acquire('a', leave);
    expect(l.counts().detached).toBe(2);
    expect(parked(await l.acquire('a', leave)).lane).toBe('slow'); // over maxDetached: parked
    expect(left).toBe(2);
    running[0].ended(); // slow answer; a now has 2 running = slowPerEndpoint: no slot yet
    running[1].ended();
    expect(slot(await w1).lane).toBe('slow');
    running[2].ended();
    expect(slot(await w2).lane).toBe('slow');
    expect(l.counts().detached).toBe(0);
  });

  it("a slow-lane slot released serves another endpoint's waiters blocked on the lane's shared cap", async () => {
    const { l, clock } = lanes({ maxDetached: 10, slowLane: 2 });
    const first = ['a', 'b'].map((id) => slot(l.take(id)));
    clock.now += 2000;
    first.forEach((x) => x.ended()); // both answered in 2 s: slow
    const a = [1, 2].map(() => slot(l.take('a'))); // the slow lane's 2 shared places
    expect(l.counts().slow).toBe(2);
    const waiter = l.acquire('b', () => undefined);
    expect(waiter).toBeInstanceOf(Promise);
    a[0].release(); // a slow-lane place is free: b's waiter gets it
    expect(slot(await waiter).lane).toBe('slow');
    a[1].release();
  });
});
