/**
 * Z-machine conformance: Zarf's Praxix unit-test story (praxix.z5, shipped in glkote-term/tests)
 * run by the Node engine. `all` runs its 18 test groups; every group but the visual Z-Machine 1.1
 * colour check ends in "Passed.", and a failure would print "FAIL" (praxix.z5.regtest checks !FAIL).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { parseRegtest, runRegtestCase } from './support/regtest.ts';

const testsDir = join(dirname(createRequire(import.meta.url).resolve('glkote-term/package.json')), 'tests');
const praxixBytes = new Uint8Array(readFileSync(join(testsDir, 'praxix.z5')));

describe('praxix.z5', () => {
  it('`all` reports "All tests passed." with no failures', () => {
    const engine = loadStory(praxixBytes, { seed: 0 });
    expect(engine.start.text).toMatch(/^Praxix: A Z-code interpreter unit test\n/);
    const result = engine.step('all');
    expect(result.fault).toBeNull();
    expect(result.inputKind).toBe('line');
    expect(result.text).toMatch(/^All tests:\n/);
    expect(result.text.endsWith('\n\nPassed.\n\nAll tests passed.\n\n>')).toBe(true);
    expect(result.text.match(/^Passed\.$/gm)).toHaveLength(17);
    expect(result.text).not.toContain('FAIL');
    // Any number printed next to a form of "fail" (e.g. "3 tests failed", "failures: 2") is 0.
    const failCounts = [...result.text.matchAll(/(\d+)\s+(?:tests?\s+)?fail|fail\w*\W{0,3}(\d+)/gi)].map((m) => Number(m[1] ?? m[2]));
    expect(failCounts.filter((n) => n > 0)).toEqual([]);
  });

  it('passes the shipped praxix.z5.regtest', async () => {
    const regtest = parseRegtest(readFileSync(join(testsDir, 'praxix.z5.regtest'), 'utf8'));
    expect(regtest.cases.map((c) => c.name)).toEqual(['praxix']);
    expect(await runRegtestCase(loadStory(praxixBytes, { seed: 0 }), regtest.cases[0]!)).toEqual([]);
  });
});
