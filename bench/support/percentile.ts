/** The p-th percentile of ascending `sorted` (nearest rank below); NaN when empty. */
export const pct = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
