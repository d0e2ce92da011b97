/**
 * First load and main thread, in Debian's Chromium against the production build (dist/; `npm run
 * bench` builds it first) and the mock LLM (test/mock-llm):
 * - initial JS: every script the page fetches on the Play view before any user action, gzip
 *   level 9 (kB = 1000 bytes), and whether the tokenizer (cl100k_base) is fetched by opening Learn
 *   and Evolve;
 * - the longest main-thread task (PerformanceObserver 'longtask', Chromium's > 50 ms tasks) during a
 *   scripted session, overall and by phase: page load; Settings → custom provider at the mock;
 *   Learn opened; its form changed to 4×40, then 10×50 with an 8k window (the cost estimate
 *   recomputed at each change); Evolve and Evaluate opened; a 2×10 session run to completion.
 * Usage: tsx bench/page-bench.ts (uses port 4318).
 */
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';

const PORT = 4318;
let tokenizerBeforeRun = false;
const phases: Record<string, { longest: number; tasks: number }> = {};
const BASE = `http://127.0.0.1:${PORT}/sub/path/`;

const server = spawn(process.execPath, ['--import', 'tsx', 'e2e/serve-dist.ts', String(PORT)], { cwd: `${import.meta.dirname}/..`, stdio: 'ignore' });
const mock = await startMockLlm();
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
    const w = window as unknown as { __longest: number; __tasks: number };
    w.__longest = 0;
    w.__tasks = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        w.__tasks++;
        w.__longest = Math.max(w.__longest, entry.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(BASE);
  await page.getByTestId('player').waitFor();
  await page.waitForLoadState('networkidle');
  const initial = [...scripts.values()].reduce((a, b) => a + b, 0);
  const initialFiles = scripts.size;
  scripts.clear();

  await session(page);
  const tokenizer = [...scripts.keys()].some((url) => url.includes('cl100k'));
  const longest = Math.max(...Object.values(phases).map((p) => p.longest));
  const tasks = Object.values(phases).reduce((n, p) => n + p.tasks, 0);
  console.log(`Initial JS (Play view, before any action): ${(initial / 1000).toFixed(1)} kB gzip in ${initialFiles} files (goal ≤ 250 kB)`);
  console.log(`Tokenizer fetched while opening Learn, Evolve, Evaluate and changing the forms: ${tokenizerBeforeRun ? 'yes' : 'no'}; during the session run: ${tokenizer ? 'yes' : 'no'}`);
  console.log(`Longest main-thread task during the scripted session: ${longest.toFixed(0)} ms (${tasks} tasks > 50 ms; goal: none > 50 ms)`);
  for (const [name, p] of Object.entries(phases)) console.log(`  ${name}: longest ${p.longest.toFixed(0)} ms, ${p.tasks} tasks > 50 ms`);
} finally {
  await browser.close();
  await mock.close();
  server.kill();
}

/** Longest task (ms) and count since the last call, then reset. */
async function phase(page: Page): Promise<{ longest: number; tasks: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __longest: number; __tasks: number };
    const out = { longest: w.__longest, tasks: w.__tasks };
    w.__longest = 0;
    w.__tasks = 0;
    return out;
  });
}
/** The scripted session (see the header). */
async function session(page: Page): Promise<void> {
  phases['page load'] = await phase(page);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('base-url').fill(mock.baseUrl);
  await page.getByTestId('api-key').fill('bench-key');
  await page.getByTestId('model-actor').fill('mock-model');
  await page.getByTestId('model-meta-agent').fill('mock-model');
  await page.waitForTimeout(300);
  phases['Settings opened and filled'] = await phase(page);
  await page.getByTestId('nav-learn').click();
  await page.locator('[data-testid="learn"][data-ready="true"]').waitFor();
  await page.waitForTimeout(300);
  phases['Learn opened'] = await phase(page);
  await page.getByTestId('story-picker').selectOption('lever-room');
  for (const [episodes, steps] of [[4, 40], [10, 50]] as const) {
    await page.getByTestId('learn-episodes').fill(String(episodes));
    await page.getByTestId('learn-steps').fill(String(steps));
  }
  await page.getByTestId('learn-window').fill('8000');
  await page.waitForTimeout(300);
  phases['Learn form changed (4×40, 10×50, 8k window)'] = await phase(page);
  await page.getByTestId('nav-evolve').click();
  await page.getByTestId('nav-evaluate').click();
  await page.getByTestId('nav-learn').click();
  await page.waitForTimeout(500);
  tokenizerBeforeRun = [...(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)))].some((url) => url.includes('cl100k'));
  phases['Evolve and Evaluate opened'] = await phase(page);
  await page.getByTestId('learn-seed').fill('1');
  await page.getByTestId('learn-episodes').fill('2');
  await page.getByTestId('learn-steps').fill('10');
  await page.getByTestId('learn-window').fill('');
  await page.getByTestId('learn-start').click();
  await page.locator('[data-testid="learn-progress"][data-status="complete"]').waitFor({ timeout: 120_000 });
  phases['session run'] = await phase(page);
}
