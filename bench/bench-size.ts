/**
 * The size a bench script runs at: `BENCH_SIZE=tiny` (test/bench.test.ts, e2e/page-bench.spec.ts)
 * runs every stage once on the smallest inputs, so a refused config or a renamed API fails CI; the
 * figures it prints then mean nothing. Unset or `full`: the sizes `npm run bench` reports.
 */

/** True when BENCH_SIZE=tiny. Any other value than unset, `full` or `tiny` is refused. */
export function benchTiny(): boolean {
  const size = process.env.BENCH_SIZE ?? 'full';
  if (size !== 'full' && size !== 'tiny') throw new Error(`BENCH_SIZE must be "full" or "tiny", not "${size}"`);
  return size === 'tiny';
}

/** `full` at full size, `tiny` at BENCH_SIZE=tiny. */
export function sized<T>(full: T, tiny: T): T {
  return benchTiny() ? tiny : full;
}
