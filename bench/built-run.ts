/**
 * Runs a bench script as the product ships its code (bench helper, not a test). `tsx` transpiles
 * every module with esbuild's `keepNames` (a `__name(fn, "…")` call, i.e. a property definition,
 * each time a named closure is made) and routes module loading through its loader hooks; the CLI
 * runs `build/cli/`, an esbuild bundle without either (scripts/build-cli.mjs), and the page a Vite
 * build. Timings taken through tsx therefore charge the product for the dev loader: in the loop
 * bench about 1.3 ms of CPU per LLM call (5.0 vs 3.9 ms at C = 16).
 *
 * `runBuilt(entry)` bundles `entry` the CLI's way (esm, node26, npm packages external) into
 * `build/bench/<name>/<name>.js`, beside the engine's worker entry `engine-worker.js` (so a
 * worker_thread engine starts as the built CLI starts it: worker-factory.ts), each with a linked
 * source map (cpu-split.ts maps profile frames back to their sources through it); runs it with
 * `node` (stdio inherited, `METATTL_BENCH_BUILT=1`) and returns its exit status.
 * `import.meta.dirname` / `import.meta.filename` keep each source module's own values. The mock provider is
 * bundled beside them too (`mockLlmArgs`), so the stand-in for a remote provider answers at its
 * set latency without tsx's cost in its own process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { basename, dirname, join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { build, type Plugin } from 'esbuild';

const repoRoot = resolve(import.meta.dirname, '..');

/** Each of our modules (not npm packages) keeps its own `import.meta.dirname` / `filename` in the bundle. */
const sourcePaths: Plugin = {
  name: 'source-paths',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mjs|js)$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const text = await readFile(path, 'utf8');
      if (!text.includes('import.meta.dirname') && !text.includes('import.meta.filename')) return undefined;
      return {
        contents: text.replaceAll('import.meta.dirname', JSON.stringify(dirname(path))).replaceAll('import.meta.filename', JSON.stringify(path)),
        loader: path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

/** True inside the bundle that `runBuilt` started. */
export function runningBuilt(): boolean {
  return process.env.METATTL_BENCH_BUILT === '1';
}

/**
 * Bundle `entry` (an absolute .ts path) and run it. @returns the child's exit status (1 when it
 * died by a signal)
 * @throws Error when esbuild cannot bundle it
 */
export async function runBuilt(entry: string): Promise<number> {
  const name = basename(entry).replace(/\.ts$/, '');
  const outdir = join(repoRoot, 'build/bench', name);
  await build({
    absWorkingDir: repoRoot,
    entryPoints: { [name]: entry, 'engine-worker': join(repoRoot, 'src/engine/node/engine-worker.ts'), 'mock-llm': join(repoRoot, 'test/mock-llm/cli.ts') },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node26',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [sourcePaths],
  });
  const run = spawnSync(process.execPath, [join(outdir, `${name}.js`)], { stdio: 'inherit', env: { ...process.env, METATTL_BENCH_BUILT: '1' } });
  return run.status ?? 1;
}

/**
 * The node arguments that start the mock provider's CLI (test/mock-llm/cli.ts) with `args`: its
 * bundle beside the running one inside `runBuilt`, else its sources through tsx.
 */
export function mockLlmArgs(args: readonly string[]): string[] {
  if (runningBuilt()) return [join(resolve(process.argv[1]!, '..'), 'mock-llm.js'), ...args];
  return ['--import', 'tsx', join(repoRoot, 'test/mock-llm/cli.ts'), ...args];
}

/**
 * Start the mock provider in its own process (mockLlmArgs), answering every call after
 * `latencyMs`. @returns its base URL (the line it prints) and a stopper
 */
export async function startMockLlmProcess(latencyMs: number): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, mockLlmArgs(['--faults', JSON.stringify([{ kind: 'slow', delayMs: latencyMs }])]), { stdio: ['ignore', 'pipe', 'inherit'] });
  // A bench that throws before stop() must not leave the mock running (it would hold the bench's
  // stdout pipe open, so `npm run bench | tail` would never end).
  const stop = () => {
    process.off('exit', stop);
    child.kill();
  };
  process.on('exit', stop);
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    child.once('exit', (code) => fail(new Error(`the mock provider exited (code ${code}) before it printed its URL`)));
  });
  return { baseUrl: line.trim(), stop };
}
