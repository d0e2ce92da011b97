/**
 * CLI start time: `npx metattl --help` (bin/metattl.js on the build in build/cli/) against a bare
 * `node -e 0`, alternating the two, 15 runs each; prints the medians (ms) and their ratio
 * (goal: ≤ 5×). Builds the CLI first so the run measures the built start, not a rebuild.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { buildCli } from '../scripts/build-cli.mjs';

/** Runs of each; BENCH_SIZE=tiny (bench/bench-size.ts) runs each once. */
const RUNS = process.env.BENCH_SIZE === 'tiny' ? 1 : 15;
await buildCli();
const bin = resolve(import.meta.dirname, '../bin/metattl.js');
const time = (args) => {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bare = [];
const help = [];
time(['-e', '0']);
time([bin, '--help']);
for (let i = 0; i < RUNS; i++) {
  bare.push(time(['-e', '0']));
  help.push(time([bin, '--help']));
}
console.log(`CLI start: metattl --help ${median(help).toFixed(1)} ms, node -e 0 ${median(bare).toFixed(1)} ms (medians of ${RUNS})`);
console.log(`CLI start ratio metattl --help / node -e 0: ${(median(help) / median(bare)).toFixed(2)}× (goal ≤ 5×)`);
