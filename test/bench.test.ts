/**
 * Keeps `npm run bench` from rotting: every script its `bench` line runs (package.json) runs here
 * at BENCH_SIZE=tiny (bench/bench-size.ts) as its own process and must exit 0 and print each of
 * its figures' lines; no timing is asserted. bench/page-bench.ts needs the production build and
 * Chromium, so e2e/page-bench.spec.ts runs it instead; bench/local-model-bench.ts serves its own
 * Chromium page (no build needed) and runs here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { benchTiny, sized } from '../bench/bench-size.ts';
import { REPO_ROOT } from './support/shared.ts';

const benchLine = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.bench!;
/** The bench scripts of the `bench` line, in order (e.g. `bench/engine-bench.ts`). */
const scripts = benchLine.split('&&').map((c) => /^\s*(?:tsx|node)\s+(bench\/\S+)\s*$/.exec(c)?.[1]).filter((s): s is string => s !== undefined);
/** Lines each script must print (one regex per figure); a script not listed must still exit 0. */
const EXPECTED: Record<string, RegExp[]> = {
  'bench/engine-bench.ts': [
    /ratio ours \/ dfrotz \(per step\) +\| +-?\d+\.\d x/, /engine\.reset\(\), median of 1 +\| +\d+\.\d{3} ms/,
    /^\| zork1\.z5 \(8 standing-still commands cycled\) \| \d+\.\d{3} \| -?\d+\.\d{3} \| -?\d+\.\d× \| -?\d+\.\d{3} \| -?\d+\.\d{2}× \|$/m, /^\| minizork\.z3 \(8 standing-still commands cycled\) \| \d+\.\d{3} \|/m,
    /^\| story \| ifvms VM \| Glk \| scoring \/ end detection \| ours: capture \+ step \| GC \| other \| total \(profiled\) \| ours ms\/step \(unprofiled\) \|\n\|[-|]+\|\n\| zork1\.z5( \| \d+\.\d{4}){7} \| \d+\.\d{3} \|\n\| minizork\.z3 \|/m,
    /^\| zork1\.z5( \| -?\d+\.\d{3}){7} \|\n\| minizork\.z3( \| -?\d+\.\d{3}){7} \|$/m,
  ],
  'bench/evolution-bench.ts': [/^\| 4 \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| \d\.\d{3} \|$/m, /Starting one worker_thread engine .*median \d+ ms of 1\./],
  'bench/loop-bench.ts': [
    /^\| 4 \| 50 \| 4 \| 28 \| 350 \| \d+ \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d{2} \| \d+\.\d{2} \|$/m,
    /^\| 4 \| 50 \| 350 \| \d+\.\d \| -?\d+\.\d \| \d+\.\d \| -?\d+\.\d \|$/m,
    /^\| C \| latency ms \| tokenizer \| engine messages \| engine \| HTTP client \| chat model \| session loop \| bench \| GC \| other \| busy \(share of wall\) \| idle \|\n\|[-|]+\|\n\| 4 \| 50 (\| \d+ ){9}\| \d+ \(\d+ %\) \| \d+ \|$/m,
    /^loop overhead C=4 latency=50ms: \d+\.\d{3} \(goal ≤ 1\.10; 4 sessions, 28 calls; mock-only baseline \d+\.\d{3}, ours ÷ baseline \d+\.\d{3}\)$/m,
  ],
  'bench/cli-bench.mjs': [/CLI start ratio metattl --help \/ node -e 0: \d+\.\d{2}× \(goal ≤ 5×\)/],
  'bench/token-bench.ts': [
    /^\| actor input tokens per step \(mean\) \| \d+ \| \d+ \| ours ≤ reference \|$/m, /^\| meta-agent input tokens per session \(1 calls\) \| \d+ \| \d+ \|/m,
    /^stable prefix share \d\.\d{3} \(goal ≥ 0\.8\); ours \/ reference actor tokens per session \d\.\d{3} \(goal ≤ 1\)$/m,
    /^\| meta-agent input tokens per call \(mean\) \| \d+ \| \d+ \| ours ≤ reference \|$/m,
    /^tokens per 2×8 session, input \+ output: static \d+K \(paper ~196K\), meta-agent \d+K \(paper Meta-TTL ~364K\)$/m,
  ],
};
EXPECTED['bench/rate-limit-bench.ts'] = [
  /^rate limit \(429 \+ Retry-After only\): \d+\.\d{2} of N completed per second \(goal ≥ 0\.8\), \d+\.\d{2} retries per call, \d+ failed$/m,
  /^rate limit \(with x-ratelimit-\* headers\): \d+\.\d{2} of N completed per second \(goal ≥ 0\.8\), \d+\.\d{2} retries per call, \d+ failed$/m,
  /^rate limit \(two runs sharing the key, 429 only\): \d+\.\d{2} of N /m,
];
EXPECTED['bench/room-forwarder-bench.ts'] = [
  /^\| JSON \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d{2}× \|\n\| stream \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d{3} \| \d+\.\d{2}× \|$/m,
  /^forwarder CPU per call: JSON \d+\.\d{3} ms \(\d+\.\d{2}× the bare client's \d+\.\d{3} ms\); stream \d+\.\d{3} ms \(\d+\.\d{2}× the bare client's \d+\.\d{3} ms\) \(goal ≤ 1 ms\)$/m,
];
// Its evaluation, then its evolution: each prints the three figures.
EXPECTED['bench/fault-eval-bench.ts'] = [
  /^Evaluation under 20% mixed provider faults[^]*^invocations: \d+ \(goal ≤ 3\)\n^requests ÷ clean: \d+\.\d{2} \(goal ≤ 1\.6\)\n^wall ÷ clean: \d+\.\d{2} \(goal ≤ 3\)\n^equal to clean: yes$/m,
  /^Evolution under 20% mixed provider faults[^]*^invocations: \d+ \(goal ≤ 3\)\n^requests ÷ clean: \d+\.\d{2} \(goal ≤ 1\.6\)\n^wall ÷ clean: \d+\.\d{2} \(goal ≤ 3\)\n^equal to clean: yes$/m,
];
// Node (node-llama-cpp) then Chromium (wllama), each a header and a one-thread row.
EXPECTED['bench/local-model-bench.ts'] = [
  /^Local model \(Node, node-llama-cpp 3\.21\.1\): SmolLM2-135M-Instruct Q4_1\n^threads .*\n^ +1 +\d+ +\d+ +\d+\.\d +\d+ +\d+$/m,
  /^Local model \(Chromium, the page's provider: wllama 3\.13\.0; cross-origin isolated: yes\): SmolLM2-135M-Instruct Q4_1\n^threads .*\n^ +1 +\d+ +\d+ +\d+\.\d +\d+ +(none > 50 ms|\d+ ms \(\d+ tasks > 50 ms\)) \(goal: none > 50 ms\)$/m,
];
EXPECTED['bench/room-load-bench.ts'] = [
  /^\| join-to-visible p50 \/ p95 \(POST \/api\/join → in the teacher's document\) \| \d+\.\d \/ \d+\.\d ms \|$/m,
  /^room load \(10 clients\): join-to-visible p50 \d+\.\d ms, p95 \d+\.\d ms; \d+\.\d submissions\/s \(every client's board\); server memory per participant -?\d+\.\d KB RSS, -?\d+\.\d KB heap$/m,
];
/** Scripts that need longer than 120 s at tiny size (the local model runs in Node and in Chromium). */
const TIMEOUT_MS: Record<string, number> = { 'bench/local-model-bench.ts': 420_000 };
const BROWSER = ['bench/page-bench.ts'];

describe('npm run bench', () => {
  it('runs every bench script in bench/ (helpers aside)', () => {
    const files = readdirSync(join(REPO_ROOT, 'bench')).filter((f) => /-bench\.(ts|mjs)$/.test(f)).map((f) => `bench/${f}`);
    expect([...scripts].sort()).toEqual(files.sort());
    expect(scripts.slice(0, 5)).toEqual(['bench/engine-bench.ts', 'bench/evolution-bench.ts', 'bench/loop-bench.ts', 'bench/cli-bench.mjs', 'bench/token-bench.ts']);
  });

  for (const script of scripts.filter((s) => !BROWSER.includes(s))) {
    it(`${script} runs to the end at BENCH_SIZE=tiny`, () => {
      const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
      const run = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, BENCH_SIZE: 'tiny' }, timeout: TIMEOUT_MS[script] ?? 120_000 });
      expect(run.stderr).not.toMatch(/Error|refused|cannot/);
      expect(run.status).toBe(0);
      for (const line of EXPECTED[script] ?? []) expect(run.stdout).toMatch(line);
    }, (TIMEOUT_MS[script] ?? 120_000) + 30_000);
  }
});

describe('BENCH_SIZE', () => {
  const before = process.env.BENCH_SIZE;
  afterEach(() => {
    if (before === undefined) delete process.env.BENCH_SIZE;
    else process.env.BENCH_SIZE = before;
  });
  it('is full when unset or "full", tiny when "tiny", and refuses anything else', () => {
    delete process.env.BENCH_SIZE;
    expect([benchTiny(), sized(500, 30)]).toEqual([false, 500]);
    process.env.BENCH_SIZE = 'full';
    expect(sized(7, 1)).toBe(7);
    process.env.BENCH_SIZE = 'tiny';
    expect([benchTiny(), sized(500, 30)]).toEqual([true, 30]);
    process.env.BENCH_SIZE = 'small';
    expect(() => benchTiny()).toThrow('BENCH_SIZE must be "full" or "tiny", not "small"');
  });
});
