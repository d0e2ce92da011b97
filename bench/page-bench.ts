/**
 * First load and main thread, in Debian's Chromium against the production build (dist/; `npm run
 * bench` builds it first) and the mock LLM (test/mock-llm), in one run:
 * - initial JS: every script the page fetches on the Play view before any user action, gzip
 *   level 9 (kB = 1000 bytes), and whether the tokenizer (cl100k_base) is fetched by opening Learn,
 *   Evolve and Evaluate;
 * - the longest main-thread task (PerformanceObserver 'longtask': Chromium's tasks > 50 ms, wall
 *   time) during a scripted session, for page load, opening the views and the Learn session, and
 *   by phase: page load; every view opened for the first time; Settings → custom provider at the
 *   mock; Learn opened again, The Lever Room chosen, its form typed key by key to 4×40, then 10×50
 *   with an 8k window (the cost estimate recomputed at each key); Evolve, Evaluate and Learn opened
 *   again; a 3×20 session run to completion (PAGE_BENCH_EPISODES, PAGE_BENCH_STEPS); a reload into
 *   Replay with the shipped Lever Room run.
 * Each long task is attributed with the Long Animation Frames API ('long-animation-frame'): the
 * longest script in the frame that holds it (invoker, built file and its original source position
 * via dist/'s source maps), or rendering when no script ran long. A Chromium trace gives each
 * task's CPU (thread) time beside its duration: on a machine shared with other jobs, a task's
 * duration includes the time its thread waited for a core; the printed load average says how busy
 * the machine was.
 * Usage: tsx bench/page-bench.ts; PAGE_BENCH_PORT sets the port dist/ is served on (default 4318);
 * BENCH_SIZE=tiny plays a 1×2 session (bench/bench-size.ts). */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { sized } from './bench-size.ts';

const PORT = Number(process.env.PAGE_BENCH_PORT ?? 4318);
/** The first load's budget: initial JS on the Play view, kB gzip (docs/performance.md). */
const INITIAL_JS_GOAL_KB = 160;
/** Diagnosis, not for the numbers (both slow the page down): PAGE_BENCH_PROFILE=1 samples the main
 * thread (CDP Profiler) and prints what the longest busy stretch of each phase spent its time in;
 * PAGE_BENCH_TRACE=1 records a fuller Chromium trace and prints the tasks with the most CPU time (> 20 ms) by trace event. */
const PROFILE = process.env.PAGE_BENCH_PROFILE === '1';
const TRACE = process.env.PAGE_BENCH_TRACE === '1';
let profiler: CDPSession | undefined;
let tokenizerBeforeRun = false;
const phases: Record<string, Phase> = {};
/** The longest stretch of consecutive non-idle samples in a CPU profile, and its top self-time functions. */
function busiest(profile: { nodes: Array<{ id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>; samples?: number[]; timeDeltas?: number[] }): string {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id] as const)));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let best = { from: 0, to: 0, ms: 0 };
  let from = 0;
  let ms = 0;
  for (let i = 0; i < samples.length; i++) {
    const idle = nodes.get(samples[i] ?? 0)?.callFrame.functionName === '(idle)';
    if (idle) { from = i + 1; ms = 0; continue; }
    ms += (deltas[i + 1] ?? 0) / 1000;
    if (ms > best.ms) best = { from, to: i, ms };
  }
  const self = new Map<string, number>();
  const files = new Map<string, number>();
  const fileOf = (where: string): string => (where.includes(' = ') ? (where.split(' = ')[1] ?? '').replace(/:\d+.*$/, '') : where);
  const whereOf = (frame: { functionName: string; url: string; lineNumber: number; columnNumber: number }): string => (frame.url ? origin({ url: frame.url, fn: frame.functionName, line: frame.lineNumber, column: frame.columnNumber }) : frame.functionName);
  for (let i = best.from; i <= best.to; i++) {
    const frame = nodes.get(samples[i] ?? 0)?.callFrame;
    if (!frame) continue;
    const dt = (deltas[i + 1] ?? 0) / 1000;
    const where = whereOf(frame);
    self.set(where, (self.get(where) ?? 0) + dt);
    // Inclusive time by our own source files (src/…) on the sample's stack.
    const onStack = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parents.get(id)) {
      const f = nodes.get(id)?.callFrame;
      const file = f ? fileOf(whereOf(f)) : '';
      if (file.startsWith('src/')) onStack.add(file);
    }
    for (const file of onStack) files.set(file, (files.get(file) ?? 0) + dt);
  }
  const top = (m: Map<string, number>, n: number): string => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `      ${v.toFixed(1)} ms  ${k}`).join('\n');
  return `    busiest stretch ${best.ms.toFixed(0)} ms; by function:\n${top(self, 12)}\n    inclusive, by our source file:\n${top(files, 12)}`;
}

/** Fills each phase's CPU times from the trace: its tasks are the renderer main thread's RunTasks between its mark and the one before. */
function cpuByPhase(trace: { traceEvents: TraceEvent[] }): void {
  const marks = trace.traceEvents.filter((e) => e.name === 'bench:phase').sort((a, b) => a.ts - b.ts);
  const threads = new Set(marks.map((m) => `${m.pid}:${m.tid}`));
  const tasks = trace.traceEvents.filter((e) => e.name === 'RunTask' && e.dur !== undefined && threads.has(`${e.pid}:${e.tid}`));
  Object.values(phases).forEach((p, i) => {
    const from = marks[i - 1]?.ts ?? 0;
    const to = marks[i]?.ts ?? Infinity;
    const mine = tasks.filter((t) => t.ts >= from && t.ts < to);
    const longest = mine.reduce<TraceEvent | null>((a, t) => (a === null || (t.dur ?? 0) > (a.dur ?? 0) ? t : a), null);
    p.longestCpu = (longest?.tdur ?? 0) / 1000;
    p.mostCpu = Math.max(0, ...mine.map((t) => (t.tdur ?? 0) / 1000));
  });
}

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string; data?: { url?: string; functionName?: string; lineNumber?: number; columnNumber?: number } } }
/** The eight tasks with the most CPU time (> 20 ms) on the renderer's main thread in a Chromium trace, each with its time by trace event (self time). */
function longTasksInTrace(trace: { traceEvents: TraceEvent[] }): string {
  const events = trace.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const mine = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks = mine.filter((e) => e.name === 'RunTask' && (e.tdur ?? 0) > 20_000).sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0)).slice(0, 8);
  return tasks.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    // Self time: an event's duration less its direct children's.
    const self = new Map<string, number>();
    const stack: TraceEvent[] = [];
    const add = (e: TraceEvent, us: number): void => {
      const data = e.args?.data;
      const what = `${e.name}${data?.url ? ` ${origin({ url: data.url, fn: data.functionName ?? '', line: (data.lineNumber ?? 0) - 1, column: (data.columnNumber ?? 1) - 1 })}` : ''}`;
      self.set(what, (self.get(what) ?? 0) + us);
    };
    for (const e of inside) {
      while (stack.length > 0 && (stack.at(-1)?.ts ?? 0) + (stack.at(-1)?.dur ?? 0) <= e.ts) stack.pop();
      const parent = stack.at(-1);
      if (parent) add(parent, -(e.dur ?? 0));
      add(e, e.dur ?? 0);
      stack.push(e);
    }
    const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => `      ${(v / 1000).toFixed(1)} ms  ${k}`).join('\n');
    return `    trace: task of ${((task.dur ?? 0) / 1000).toFixed(0)} ms (${((task.tdur ?? 0) / 1000).toFixed(0)} ms on the CPU), self time by event:\n${rows}`;
  }).join('\n');
}

const maps = new Map<string, { text: string; map: SourceMapConsumer } | null>();
/** PAGE_BENCH_BASE: an already served dist/ (e2e/page-bench.spec.ts passes Playwright's); none is started then. */
const BASE = process.env.PAGE_BENCH_BASE ?? `http://127.0.0.1:${PORT}/sub/path/`;

const loadBefore = loadavg()[0]! / cpus().length;
const server = process.env.PAGE_BENCH_BASE ? null : spawn(process.execPath, ['--import', 'tsx', 'e2e/serve-dist.ts', String(PORT)], { cwd: `${import.meta.dirname}/..`, stdio: 'ignore' });
// The actor explores with the levers (as README's example), so the session learns and its transcript grows.
const mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'] });
const EPISODES = Number(process.env.PAGE_BENCH_EPISODES ?? sized(3, 1));
const STEPS = Number(process.env.PAGE_BENCH_STEPS ?? sized(20, 2));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (let i = 0; i < 100; i++) {
    if (await fetch(BASE).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const page = await browser.newPage();
  const scripts = new Map<string, number>();
  page.on('response', (response) => {
    const url = response.url();
    if (!url.endsWith('.js') || url.includes('engine-worker')) return;
    void response.body().then((body) => scripts.set(url, gzipSync(body, { level: 9 }).length), () => undefined);
  });
  await page.addInitScript(() => {
    // Long tasks and the long animation frames that hold them (their scripts say what ran).
    const w = window as unknown as { __bench: { tasks: unknown[]; frames: unknown[] } };
    w.__bench = { tasks: [], frames: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__bench.tasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const frame = entry as PerformanceEntry & { renderStart: number; styleAndLayoutStart: number; scripts: Array<PerformanceEntry & { invoker: string; invokerType: string; sourceURL: string; sourceFunctionName: string; sourceCharPosition: number; forcedStyleAndLayoutDuration: number }> };
        w.__bench.frames.push({
          start: frame.startTime, duration: frame.duration, renderStart: frame.renderStart, styleAndLayoutStart: frame.styleAndLayoutStart,
          scripts: frame.scripts.map((x) => ({ start: x.startTime, duration: x.duration, invoker: x.invoker, invokerType: x.invokerType, url: x.sourceURL, fn: x.sourceFunctionName, pos: x.sourceCharPosition, layout: x.forcedStyleAndLayoutDuration })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  });
  if (PROFILE || TRACE) {
    // A same-origin page first, so what is started here keeps running in the renderer that loads the app.
    await page.goto(BASE.replace('/sub/path/', '/'));
  }
  if (PROFILE) {
    profiler = await page.context().newCDPSession(page);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 250 });
    await profiler.send('Profiler.start');
  }
  // Always a light trace: each task's CPU time (thread time) beside its duration, by phase (marks).
  await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline', 'blink.user_timing', ...(TRACE ? ['devtools.timeline', 'v8', 'v8.execute', 'blink', 'loading'] : [])] });
  await page.goto(BASE);
  await page.getByTestId('player').waitFor();
  await page.waitForLoadState('networkidle');
  const initial = [...scripts.values()].reduce((a, b) => a + b, 0);
  const initialFiles = scripts.size;
  scripts.clear();

  await session(page);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  cpuByPhase(trace);
  if (TRACE) console.log(longTasksInTrace(trace));
  const tokenizer = [...scripts.keys()].some((url) => url.includes('cl100k'));
  const all = Object.entries(phases);
  const [worstName, worst] = all.reduce((a, b) => (b[1].longest > a[1].longest ? b : a));
  const [cpuName, cpu] = all.reduce((a, b) => (b[1].mostCpu > a[1].mostCpu ? b : a));
  const tasks = all.reduce((n, [, p]) => n + p.tasks, 0);
  console.log(`Initial JS (Play view, before any action): ${(initial / 1000).toFixed(1)} kB gzip in ${initialFiles} files (goal ≤ ${INITIAL_JS_GOAL_KB} kB)`);
  console.log(`Tokenizer fetched by opening Learn, Evolve and Evaluate: ${tokenizerBeforeRun ? 'yes' : 'no'}; by the end of the session: ${tokenizer ? 'yes' : 'no'}`);
  console.log(`Longest main-thread task during the scripted session: ${worst.longest.toFixed(0)} ms${worst.longest > 0 ? ` (${worstName}: ${worst.what}; its CPU time ${worst.longestCpu.toFixed(0)} ms)` : ''}; ${tasks} tasks > 50 ms (goal: none > 50 ms)`);
  console.log(`Most CPU time in one main-thread task: ${cpu.mostCpu.toFixed(0)} ms (${cpuName}); machine load (1-min load average per core) ${loadBefore.toFixed(1)} before, ${(loadavg()[0]! / cpus().length).toFixed(1)} after`);
  const groups: Array<[string, (name: string) => boolean]> = [
    ['page load', (name) => name === 'page load'], ['opening the views', (name) => name.includes('opened')],
    ['the Learn session (settings, form, run, Replay)', (name) => name !== 'page load' && !name.includes('opened')],
  ];
  for (const [group, member] of groups) {
    const [name, p] = all.filter(([n]) => member(n)).reduce((a, b) => (b[1].longest > a[1].longest ? b : a));
    const most = Math.max(...all.filter(([n]) => member(n)).map(([, q]) => q.mostCpu));
    console.log(`Longest task in ${group}: ${p.longest > 0 ? `${p.longest.toFixed(0)} ms (${name}; CPU ${p.longestCpu.toFixed(0)} ms): ${p.what}` : 'none > 50 ms'}; most CPU in one task ${most.toFixed(0)} ms`);
  }
  console.log('By phase:');
  for (const [name, p] of all) console.log(`  ${name}: longest ${p.longest.toFixed(0)} ms (${p.tasks} > 50 ms), most CPU in one task ${p.mostCpu.toFixed(0)} ms${p.what ? ` — longest: ${p.what}, CPU ${p.longestCpu.toFixed(0)} ms` : ''}`);
} finally {
  await browser.close();
  await mock.close();
  server?.kill();
}

interface Script { start: number; duration: number; invoker: string; invokerType: string; url: string; fn: string; pos: number; layout: number }
interface Frame { start: number; duration: number; renderStart: number; styleAndLayoutStart: number; scripts: Script[] }
interface Phase {
  /** The longest task (ms, PerformanceObserver 'longtask'; 0 when none > 50 ms), how many > 50 ms, what the longest was. */
  longest: number; tasks: number; what: string;
  /** From the trace: the CPU time of the longest task (ms), and the most CPU time any one task took (ms). */
  longestCpu: number; mostCpu: number;
}

/** Ends a phase: its longest task (ms), how many tasks > 50 ms and what the longest was, since the last call; a mark in the trace (CPU times: `cpuByPhase`). */
async function phase(page: Page, name: string): Promise<void> {
  const { tasks, frames } = await page.evaluate(() => {
    const w = window as unknown as { __bench: { tasks: unknown[]; frames: unknown[] } };
    const out = { tasks: w.__bench.tasks, frames: w.__bench.frames };
    w.__bench = { tasks: [], frames: [] };
    performance.mark('bench:phase');
    return out;
  }) as { tasks: Array<{ start: number; duration: number }>; frames: Frame[] };
  if (profiler) {
    const { profile } = await profiler.send('Profiler.stop');
    console.log(busiest(profile));
    await profiler.send('Profiler.start');
  }
  const top = tasks.reduce<{ start: number; duration: number } | null>((a, t) => (a === null || t.duration > a.duration ? t : a), null);
  phases[name] = { longest: top?.duration ?? 0, tasks: tasks.length, what: top ? attribute(top, frames) : '', longestCpu: 0, mostCpu: 0 };
}

/** What ran in a long task: its longest script (invoker, original source position) and the rest. */
function attribute(task: { start: number; duration: number }, frames: Frame[]): string {
  const end = task.start + task.duration;
  const scripts = frames.flatMap((f) => f.scripts).filter((x) => x.start < end && x.start + x.duration > task.start);
  if (scripts.length === 0) {
    const frame = frames.find((f) => f.start < end && f.start + f.duration > task.start);
    if (!frame) return 'no long animation frame (not a frame task: e.g. parsing, GC, a worker message)';
    return frame.styleAndLayoutStart > 0
      ? `no script > 5 ms (rendering: style and layout from ${(frame.styleAndLayoutStart - frame.start).toFixed(0)} ms into a ${frame.duration.toFixed(0)} ms frame)`
      : `no script > 5 ms and no rendering in a ${frame.duration.toFixed(0)} ms frame`;
  }
  const x = scripts.reduce((a, b) => (b.duration > a.duration ? b : a));
  const total = scripts.reduce((n, y) => n + y.duration, 0);
  return `${x.invokerType} ${x.invoker.slice(0, 60)} ${x.duration.toFixed(0)} ms at ${origin(x)}${x.layout > 1 ? `, forced layout ${x.layout.toFixed(0)} ms` : ''}; scripts ${total.toFixed(0)} ms in all`;
}

/** A built script's position (sourceURL, character) as its original source file:line, via dist/'s source maps. */
function origin(x: { url: string; fn: string; pos?: number; line?: number; column?: number }): string {
  const file = x.url.split('/').pop() ?? '';
  if (!maps.has(file)) {
    const path = `${import.meta.dirname}/../dist/assets/${file}`;
    maps.set(file, existsSync(`${path}.map`) ? { text: readFileSync(path, 'utf8'), map: new SourceMapConsumer(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) } : null);
  }
  const built = maps.get(file);
  const name = `${file}${x.fn ? ` ${x.fn}()` : ''}`;
  if (!built || (x.pos ?? x.line ?? 0) < 0) return name;
  const before = x.pos !== undefined ? built.text.slice(0, x.pos).split('\n') : [];
  const at = built.map.originalPositionFor(x.pos !== undefined ? { line: before.length, column: before.at(-1)?.length ?? 0 } : { line: (x.line ?? 0) + 1, column: x.column ?? 0 });
  return at.source ? `${name} = ${at.source.replace(/^(\.\.\/)+/, '')}:${at.line}${at.name ? ` ${at.name}` : ''}` : name;
}

/** Whether the page has fetched a resource whose URL contains `part`. */
async function fetched(page: Page, part: string): Promise<boolean> {
  return (await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))).some((url) => url.includes(part));
}
/** Opens a view from the nav and waits until it is ready and idle. */
async function open(page: Page, view: string, ready: string): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  await page.locator(ready).first().waitFor();
  await page.waitForTimeout(400);
}
/** The scripted session (see the header). */
async function session(page: Page): Promise<void> {
  await phase(page, 'page load');
  const views: Array<[string, string]> = [
    ['agent', '[data-testid="agent"][data-ready="true"]'], ['learn', '[data-testid="learn"][data-ready="true"]'],
    ['evolve', '[data-testid="evolve"][data-ready="true"]'], ['evaluate', '[data-testid="evaluate"][data-ready="true"]'],
    ['replay', '[data-testid="replay-open"]'], ['library', '[data-testid="meta-library"][data-ready="true"]'],
    ['settings', '[data-testid="settings"][data-loaded="true"]'], ['play', '[data-testid="player"][data-ready="true"]'],
  ];
  for (const [view, ready] of views) {
    await open(page, view, ready);
    await phase(page, `${view} opened (first time)`);
    if (view === 'evaluate') tokenizerBeforeRun = await fetched(page, 'cl100k');
  }
  await open(page, 'settings', '[data-testid="settings"][data-loaded="true"]');
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('base-url').fill(mock.baseUrl);
  await page.getByTestId('api-key').fill('bench-key');
  await page.getByTestId('model-actor').fill('mock-model');
  await page.getByTestId('model-meta-agent').fill('mock-model');
  await page.waitForTimeout(300);
  await phase(page, 'Settings filled for the mock');
  await open(page, 'learn', '[data-testid="learn"][data-ready="true"]');
  await phase(page, 'Learn opened again');
  await page.getByTestId('story-picker').selectOption('lever-room');
  await page.waitForTimeout(300);
  await phase(page, 'Learn: The Lever Room chosen');
  // Typed key by key: the cost estimate is recomputed at every keystroke.
  for (const [field, value] of [['learn-episodes', '4'], ['learn-steps', '40'], ['learn-episodes', '10'], ['learn-steps', '50'], ['learn-window', '8000']] as const) {
    await page.getByTestId(field).fill('');
    await page.getByTestId(field).pressSequentially(value, { delay: 30 });
  }
  await page.waitForTimeout(300);
  await phase(page, 'Learn form typed (4×40, 10×50, 8k window)');
  await open(page, 'evolve', '[data-testid="evolve"][data-ready="true"]');
  await open(page, 'evaluate', '[data-testid="evaluate"][data-ready="true"]');
  await open(page, 'learn', '[data-testid="learn"][data-ready="true"]');
  await phase(page, 'Evolve, Evaluate, Learn opened again');
  await page.getByTestId('learn-seed').fill('1');
  await page.getByTestId('learn-episodes').fill(String(EPISODES));
  await page.getByTestId('learn-steps').fill(String(STEPS));
  await page.getByTestId('learn-window').fill('');
  await page.getByTestId('learn-start').click();
  await page.locator('[data-testid="learn-progress"][data-status="complete"]').waitFor({ timeout: 300_000 });
  await page.waitForTimeout(300);
  await phase(page, `Learn session run (${EPISODES}×${STEPS})`);
  await page.goto(`${BASE}?view=replay&replay=lever-room-naive`);
  await page.locator('[data-testid="replay-stage"]').first().waitFor();
  await page.waitForTimeout(300);
  await phase(page, 'reload into Replay with the shipped Lever Room run');
}
