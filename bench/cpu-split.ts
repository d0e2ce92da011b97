/**
 * Where a bench's main-thread time goes (bench helper, not a test): a V8 CPU profile of one timed
 * stretch (node:inspector, sampled every `intervalUs`), each sample put in the first category
 * whose pattern matches a frame's script URL or function name, walking from the sampled (leaf)
 * frame towards the root — so time in the tokenizer called from the chat model counts as token
 * counting. Samples the profiler marks "(idle)" are the thread waiting (for replies, timers or a
 * worker); "(garbage collector)" and "(program)" (V8 and native code with no JS frame) are their
 * own categories. `BENCH_CPU_PROFILE_DIR=DIR` also writes each profile there (`.cpuprofile`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

/** One category: a name and what marks its frames: `match`, URL substrings or exact function
 * names; `noUrlNames`, exact names of functions with no script URL (code made by `new Function`,
 * such as ifvms's compiled Z-code routines, named "anonymous"). */
export interface CpuCategory { name: string; match: readonly string[]; noUrlNames?: readonly string[] }

/** The parts of a V8 `.cpuprofile` read here (timeDeltas in µs). */
export interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number }; children?: number[] }
export interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Milliseconds per category (plus `idle`, `gc`, `other`) of one profiled stretch. */
export type CpuSplit = Record<string, number>;

/** A started profiler; `stop()` ends it and classifies its samples. */
export interface CpuProfiler { stop(): Promise<CpuSplit> }

/**
 * Start profiling this thread. @param categories checked in order for each frame
 * @throws Error (rejects) when the inspector cannot start a profile
 */
export async function startCpuProfile(categories: readonly CpuCategory[], intervalUs = 1000): Promise<CpuProfiler> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
      session.disconnect();
      if (process.env.BENCH_CPU_PROFILE_DIR) {
        const file = join(process.env.BENCH_CPU_PROFILE_DIR, `bench-${Date.now()}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        console.error(`CPU profile written to ${file} (open it in Chrome DevTools → Performance)`);
      }
      return classifyProfile(profile, categories);
    },
  };
}

/** Milliseconds of `profile` per category (see the module comment), plus `idle`, `gc` and `other`. */
export function classifyProfile(profile: Profile, categories: readonly CpuCategory[]): CpuSplit {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const sources = new SourceLookup();
  const categoryOf = (id: number): string => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const leaf = byId.get(id)!.callFrame.functionName;
    let found = leaf === '(idle)' ? 'idle' : leaf === '(garbage collector)' ? 'gc' : null;
    for (let at: number | undefined = id; found === null && at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const { functionName } = frame;
      const url = sources.of(frame);
      found = categories.find((c) => c.match.some((m) => url.includes(m) || functionName === m) || (url === '' && c.noUrlNames?.includes(functionName)))?.name ?? null;
    }
    const name = found ?? 'other';
    memo.set(id, name);
    return name;
  };
  const split: CpuSplit = {};
  profile.samples.forEach((id, i) => {
    const name = categoryOf(id);
    split[name] = (split[name] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return split;
}

/**
 * The source file a frame's code came from: for a bundle with a source map beside it (`<file>.map`,
 * as built-run.ts writes), the original module the function starts in (e.g.
 * `../../src/llm/openai-chat-model.ts`, so categories match the bundle's code as they match the
 * sources'); otherwise the frame's own URL.
 */
class SourceLookup {
  private readonly maps = new Map<string, SourceMapConsumer | null>();

  of(frame: ProfileNode['callFrame']): string {
    const { url, lineNumber, columnNumber } = frame;
    if (!url.startsWith('file://') || lineNumber === undefined || lineNumber < 0) return url;
    const map = this.mapFor(url);
    if (!map) return url;
    return map.originalPositionFor({ line: lineNumber + 1, column: columnNumber ?? 0 }).source ?? url;
  }

  private mapFor(url: string): SourceMapConsumer | null {
    if (!this.maps.has(url)) {
      const file = `${fileURLToPath(url)}.map`;
      this.maps.set(url, existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8')) as ConstructorParameters<typeof SourceMapConsumer>[0]) : null);
    }
    return this.maps.get(url)!;
  }
}
