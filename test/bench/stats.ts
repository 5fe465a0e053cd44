// The bench's figures from its samples, shared by the harness (run.ts) and the load generator
// (load.ts), so that every percentile in the table is taken the same way.

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The p-th percentile of figures sorted in ascending order (NaN when there are none). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Milliseconds to a tenth, as the table shows them. */
export const tenths = (ms: number) => Math.round(ms * 10) / 10;
