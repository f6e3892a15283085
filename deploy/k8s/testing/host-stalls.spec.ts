import { pressureTotalUs, stallShares } from './host-stalls';

const CPU = `some avg10=1.15 avg60=37.52 avg300=60.65 total=16320064559
full avg10=0.00 avg60=0.00 avg300=0.00 total=0
`;

describe('host stalls', () => {
  it('reads the some and full totals of a /proc/pressure file', () => {
    expect(pressureTotalUs(CPU, 'some')).toBe(16_320_064_559);
    expect(pressureTotalUs(CPU, 'full')).toBe(0);
  });

  it('refuses text without the line asked for', () => {
    expect(() => pressureTotalUs('some avg10=0.00 avg60=0.00 avg300=0.00 total=5\n', 'full')).toThrow(
      'no "full … total=" line',
    );
  });

  it('gives each total’s growth as a share of the wall time between the readings', () => {
    const before = { cpuSome: 1_000_000, ioSome: 0, ioFull: 0, memorySome: 7 };
    const after = { cpuSome: 7_000_000, ioSome: 2_500_000, ioFull: 1_000_000, memorySome: 7 };
    expect(stallShares(before, after, 10_000_000)).toEqual({
      cpuSome: 0.6,
      ioSome: 0.25,
      ioFull: 0.1,
      memorySome: 0,
    });
    expect(stallShares(before, after, 0)).toEqual({ cpuSome: 0, ioSome: 0, ioFull: 0, memorySome: 0 });
  });
});
