import { DependencyWatch } from './dependency-watch';

describe('dependency watch', () => {
  it('reports an outage once when it starts and once when it ends, with its length', () => {
    const w = new DependencyWatch();
    expect(w.observe({ mongodb: true, kafka: true }, 0)).toEqual([]);
    expect(w.observe({ mongodb: true, kafka: false }, 1000)).toEqual([{ kind: 'down', dependency: 'kafka' }]);
    expect(w.observe({ mongodb: true, kafka: false }, 2000)).toEqual([]);
    expect(w.observe({ mongodb: false, kafka: true }, 6000)).toEqual([
      { kind: 'down', dependency: 'mongodb' },
      { kind: 'recovered', dependency: 'kafka', downForMs: 5000 },
    ]);
    expect(w.observe({ mongodb: true, kafka: true }, 7000)).toEqual([
      { kind: 'recovered', dependency: 'mongodb', downForMs: 1000 },
    ]);
    expect(w.observe({ mongodb: true, kafka: true }, 8000)).toEqual([]);
  });
});
