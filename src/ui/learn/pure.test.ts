/** The Learn view's pure modules: progress and ETA, the markdown sanitiser's first layer (and its
 * fail-closed second layer in Node), reply splitting and prompt diffs, the setup form, plans and curves. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { BUILT_IN_META_PROMPTS } from '../../agents/meta-prompt-library.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import { captionOfRecord, curveOfItems, curveOfRecord } from './curves.ts';
import { importedName } from './session-runs.svelte.ts';
import { diffPrompts, feedbackOf, noticesOf, splitReply } from '../shared/format/feedback.ts';
import { BASELINE_OPTIONS, defaultLearnForm, formPolicy, formProblem, HUMAN_OPTION, optionForSpec, policyLabel, policyOptions, setupOf, sharablePolicy } from '../shared/format/learn-form.ts';
import { decodeShare, shareUrl } from '../../share/share-link.ts';
import { escapeHtml, markdownToHtml, renderMarkdown } from '../shared/format/markdown.ts';
import { EtaClock, etaMs, formatDuration, sessionProgress } from './progress.ts';
import { formatTokens } from './session-estimate.ts';
import { newSessionId, openEpisodeOf, planOfConfig, roleOverridesOf, rolesFor } from './session-plan.ts';

describe('token counts for reading', () => {
  it('rounds to hundreds with thousands grouped, and to a tenth of a million from a million on', () => {
    expect([formatTokens(0), formatTokens(49), formatTokens(12_345), formatTokens(999_949), formatTokens(1_250_000)]).toEqual(['0', '0', '12,300', '999,900', '1.3M']);
  });
});

describe('progress and ETA', () => {
  it('counts ended episodes as S steps each and the running one by its steps', () => {
    expect(sessionProgress({ episodes: 3, maxSteps: 10, episodesDone: 1, currentSteps: 4 })).toEqual({ unitsDone: 14, unitsTotal: 30, fraction: 14 / 30 });
    expect(sessionProgress({ episodes: 3, maxSteps: 10, episodesDone: 3, currentSteps: 0 }).fraction).toBe(1);
    expect(sessionProgress({ episodes: 2, maxSteps: 5, episodesDone: 0, currentSteps: 9 }).unitsDone).toBe(5);
  });

  it('extrapolates from this segment only; unknown before any progress or when done', () => {
    const p = sessionProgress({ episodes: 4, maxSteps: 10, episodesDone: 2, currentSteps: 0 });
    // 20 units done, 10 of them in this segment in 5 s → 20 left take 10 s.
    expect(etaMs(p, 10, 5_000)).toBe(10_000);
    expect(etaMs(p, 20, 5_000)).toBeNull();
    expect(etaMs(p, 10, 0)).toBeNull();
    expect(etaMs(sessionProgress({ episodes: 1, maxSteps: 1, episodesDone: 1, currentSteps: 0 }), 0, 1000)).toBeNull();
  });

  it('formats durations', () => {
    expect(formatDuration(44_600)).toBe('45 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
  });
});

describe('markdown sanitiser', () => {
  it('escapes raw HTML: <img onerror> and <script> become text', () => {
    const html = markdownToHtml('Look <img src=x onerror=alert(1)> and <script>alert(2)</script> **bold**');
    expect(html).not.toMatch(/<img|<script/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<strong>bold</strong>');
  });

  it('escapes block HTML and renders images as text', () => {
    expect(markdownToHtml('<div onclick="x()">hi</div>')).not.toContain('<div');
    const image = markdownToHtml('![map](http://evil.invalid/a.png)');
    expect(image).not.toContain('<img');
    expect(image).toContain('[image: map](http://evil.invalid/a.png)');
  });

  it('gives links rel=noopener noreferrer and drops javascript: targets', () => {
    const html = markdownToHtml('[docs](https://example.com/x "T") and [bad](javascript:alert(1)) and [d](data:text/html,x)');
    expect(html).toContain('<a href="https://example.com/x" title="T" rel="noopener noreferrer" target="_blank">docs</a>');
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html).toContain('bad');
  });

  it('fails closed without a DOM (DOMPurify unsupported): plain escaped text', () => {
    expect(renderMarkdown('<img src=x onerror=alert(1)> **b**')).toBe(`<p>${escapeHtml('<img src=x onerror=alert(1)> **b**')}</p>`);
  });
});

describe('feedback between episodes', () => {
  it('splits a reply into think, learn and the rest', () => {
    expect(splitReply('<think>a</think>\n<learn> guide </learn>')).toEqual({ think: 'a', learn: 'guide', rest: '' });
    expect(splitReply('no tags here')).toEqual({ think: null, learn: null, rest: 'no tags here' });
    expect(splitReply('<think>x</think><learn>1</learn> tail <learn>2</learn>').learn).toBe('2');
  });

  it('diffs guiding prompts by lines, with the changed words highlighted inside a similar line', () => {
    const lines = diffPrompts('go north now\nthen east', 'go south now\nthen east');
    expect(lines.map((l) => l.kind)).toEqual(['removed', 'added', 'same']);
    expect(lines[0]!.parts).toEqual([{ kind: 'same', text: 'go ' }, { kind: 'removed', text: 'north' }, { kind: 'same', text: ' now' }]);
    expect(lines[1]!.parts).toEqual([{ kind: 'same', text: 'go ' }, { kind: 'added', text: 'south' }, { kind: 'same', text: ' now' }]);
    expect(lines.filter((l) => l.kind !== 'removed').map((l) => l.parts.map((p) => p.text).join('')).join('\n')).toBe('go south now\nthen east');
  });

  it('never pairs unrelated lines word by word (the issue\'s "~~The~~3. ~~game~~pull")', () => {
    const lines = diffPrompts('The game said to pull the yellow lever.\nExplore.', '3. pull blue lever\nExplore.');
    expect(lines.map((l) => [l.kind, l.parts.length])).toEqual([['removed', 1], ['added', 1], ['same', 1]]);
    expect(lines[1]!.parts[0]).toEqual({ kind: 'added', text: '3. pull blue lever' });
    expect(diffPrompts('a\nb', 'a\nb\nc').map((l) => l.kind)).toEqual(['same', 'same', 'added']);
    // A similar line further down the added block is still found (lines added before it stay whole).
    const moved = diffPrompts('1. x\nReached 3 at step 7.', '1. x\n2. pull red lever\nReached 4 at step 9.');
    expect(moved.map((l) => [l.kind, l.parts.filter((p) => p.kind !== 'same').map((p) => p.text)])).toEqual([
      ['same', []], ['removed', ['3', '7']], ['added', ['2. pull red lever']], ['added', ['4', '9']],
    ]);
  });

  it('groups exchanges after each episode with the prompt before and after, and lists notices', () => {
    const record = fakeRecord();
    const items = feedbackOf(record);
    expect(items.map((i) => i.afterEpisode)).toEqual([1]);
    expect(items[0]!.before).toBe('explore');
    expect(items[0]!.after).toBe('go east');
    expect(items[0]!.exchanges[0]!.parts.learn).toBe('go east');
    expect(noticesOf(record)).toEqual([{ afterEpisode: 1, notice: 'logs of episode 1 shortened' }]);
  });

  it('gives the same diff object again for the same prompts (a live record changes at every step), equal to a fresh diff', () => {
    const first = feedbackOf(fakeRecord())[0]!.diff;
    const again = feedbackOf(structuredClone(fakeRecord()))[0]!.diff;
    expect(again).toBe(first);
    expect(again).toEqual(diffPrompts('explore', 'go east'));
  });
});

describe('setup form', () => {
  const options = policyOptions(BUILT_IN_META_PROMPTS);

  it('offers the baselines and every library meta-prompt (naive first among them)', () => {
    expect(options.map((o) => o.id)).toEqual(['static', 'reflexion', 'memory', 'textgrad', 'meta:naive', 'meta:fact-bank', 'meta:credit-assignment', 'meta:route-script']);
    expect(options[4]!.label).toBe('Naive meta-agent');
  });

  it('matches a policy spec to its option by strategy text', () => {
    const fact = BUILT_IN_META_PROMPTS[1]!;
    expect(optionForSpec({ kind: 'meta', name: 'renamed', strategy: `  ${fact.strategy}\n` }, options)?.id).toBe('meta:fact-bank');
    expect(optionForSpec({ kind: 'meta', name: 'x', strategy: 'unknown' }, options)).toBeNull();
    expect(optionForSpec({ kind: 'memory' }, options)?.id).toBe('memory');
    expect(policyLabel({ kind: 'meta', name: 'Naive', strategy: '' })).toBe('naive meta-agent');
  });

  it('validates the form', () => {
    const form = { ...defaultLearnForm(), storyId: 'advent' };
    expect(form.episodes).toBe(6);
    expect(form.maxSteps).toBe(50);
    expect(form.guidingPrompt).toBe(DEFAULT_GUIDING_PROMPT);
    expect(formProblem(form, true, true)).toBeNull();
    expect(formProblem({ ...form, storyId: '' }, false, true)).toBe('Choose a story first.');
    expect(formProblem({ ...form, episodes: 0 }, true, true)).toMatch(/^K/);
    expect(formProblem({ ...form, maxSteps: 1.5 }, true, true)).toMatch(/^S/);
    expect(formProblem({ ...form, seed: -1 }, true, true)).toMatch(/seed/);
    expect(formProblem({ ...form, contextWindow: 10 }, true, true)).toMatch(/context window/);
  });

  it('"use the text as the whole system prompt (raw)": a meta-prompt option becomes a raw policy; baselines and "you" ignore the box', () => {
    const fact = options.find((o) => o.id === 'meta:fact-bank')!;
    expect(defaultLearnForm().rawMetaPrompt).toBe(false);
    expect(formPolicy(fact, { rawMetaPrompt: false })).toEqual({ kind: 'meta', name: 'Fact bank', strategy: BUILT_IN_META_PROMPTS[1]!.strategy });
    expect(formPolicy(fact, { rawMetaPrompt: true })).toEqual({ kind: 'meta', name: 'Fact bank', strategy: BUILT_IN_META_PROMPTS[1]!.strategy, raw: true });
    for (const o of [...BASELINE_OPTIONS, HUMAN_OPTION]) expect(formPolicy(o, { rawMetaPrompt: true })).toEqual(o.spec);
    expect(formPolicy(null, { rawMetaPrompt: true })).toBeNull();
    expect(policyLabel({ kind: 'meta', name: 'paper naive', strategy: 'x', raw: true })).toBe('meta (raw): paper naive');
    // A raw session is matched to an option only by its exact text (every byte was sent).
    const text = fact.spec.kind === 'meta' ? fact.spec.strategy : '';
    expect(optionForSpec({ kind: 'meta', name: 'Fact bank', strategy: text, raw: true }, options)?.id).toBe('meta:fact-bank');
    expect(optionForSpec({ kind: 'meta', name: 'Fact bank', strategy: `${text}\n`, raw: true }, options)).toBeNull();
    // A setup link carries the raw mark and decodes with it.
    const raw = formPolicy(fact, { rawMetaPrompt: true })!;
    const setup = setupOf({ ...defaultLearnForm(), rawMetaPrompt: true }, { id: 'advent', md5: 'a'.repeat(32), title: 'Adventure' }, sharablePolicy(raw)!, { actor: 'm1', metaAgent: 'm2' });
    const decoded = decodeShare(new URL(shareUrl('https://example.org/', { kind: 'setup', setup })).hash);
    expect(decoded.kind === 'setup' && decoded.setup.policy).toEqual(raw);
  });

  it('builds a setup payload with model names only', () => {
    const form = { ...defaultLearnForm(), storyId: 'advent', seed: 2, episodes: 3, maxSteps: 9 };
    const setup = setupOf(form, { id: 'advent', md5: 'a'.repeat(32), title: 'Adventure' }, sharablePolicy({ kind: 'reflexion' })!, { actor: 'm1', metaAgent: 'm2' });
    expect(setup).toEqual({ storyId: 'advent', storyMd5: 'a'.repeat(32), storyTitle: 'Adventure', seed: 2, policy: { kind: 'reflexion' }, episodes: 3, maxSteps: 9, models: { actor: 'm1', metaAgent: 'm2' } });
  });
});

describe('session plans and curves', () => {
  it('rebuilds a stored session with its own models and context window', () => {
    const { config } = fakeRecord();
    expect(planOfConfig(config, 8000)).toMatchObject({ seed: 0, episodes: 2, maxSteps: 3, contextWindow: 16000, initialGuidingPrompt: 'explore' });
    // A raw session resumes raw: the plan takes the recorded policy as it is.
    const raw = { kind: 'meta' as const, name: 'paper', strategy: ' exact\r\n', raw: true as const };
    expect(planOfConfig({ ...config, policy: raw }, 8000).policy).toEqual(raw);
    expect(roleOverridesOf(config)).toEqual({ actor: config.models.actor, metaAgent: config.models.reflection });
    expect(rolesFor({ kind: 'static' })).toEqual(['actor']);
    expect(rolesFor({ kind: 'meta', name: 'n', strategy: '' })).toEqual(['actor', 'metaAgent']);
    expect(newSessionId(1000, () => 0.5)).toMatch(/^learn-rs-[0-9a-z]{6}$/);
  });

  it('finds the episode to run next', () => {
    const { config } = fakeRecord();
    expect(openEpisodeOf(config, [{ index: 1, trajectory: {} }, { index: 2, trajectory: null }])).toBe(2);
    expect(openEpisodeOf(config, [{ index: 1, trajectory: {} }])).toBe(2);
    expect(openEpisodeOf(config, [{ index: 1, trajectory: {} }, { index: 2, trajectory: {} }])).toBeNull();
  });

  it('draws one series per session and one max line per distinct max score, naming the model on every curve', () => {
    expect(curveOfRecord(fakeRecord())).toEqual({ episodes: 2, series: [{
      label: 'Score per episode', scores: [5],
      model: { name: 'm / r', simulated: false, kind: 'model', caveat: null, line: 'model: m / r', sentence: 'Played by m / r.' },
    }], maxScores: [350], note: 'Played by m / r.' });
    expect(captionOfRecord(fakeRecord())).toEqual({
      title: 'Learning curve — Adventure (m / r)',
      subtitle: 'Story: Adventure · policy: naive meta-agent · seed 0 · K = 2, S = 3 · W-AUC 0.014 (1 of 2 episodes)',
    });
    const simulated = fakeRecord();
    simulated.config = { ...simulated.config, provider: { presetId: 'simulated', baseUrl: 'in-page:simulated' }, models: { ...simulated.config.models, actor: { ...simulated.config.models.actor, model: 'simulated' } } };
    expect(captionOfRecord(simulated)).toEqual({
      title: 'Learning curve — Adventure (simulated model)',
      subtitle: 'Story: Adventure · policy: naive meta-agent · seed 0 · K = 2, S = 3 · W-AUC 0.014 (1 of 2 episodes)',
      note: 'simulated model — not a language model; it shows how the loop works, not how real models behave',
    });
    expect(curveOfRecord(simulated).note).toBe('Played by the simulated model — not a language model; it shows how the loop works, not how real models behave.');
    const item = { id: 'learn-1-abcdef', title: 'A', seed: 0, policy: 'p', episodes: 3, maxSteps: 5, status: 'complete' as const, scores: [1, 2, 3], wAuc: 0.1, maxScore: 10, faultedEpisodes: 0, model: 'gpt-4o-mini', simulated: false, caveat: null, startedAt: '', updatedAt: 0 };
    const data = curveOfItems([item, { ...item, id: 'x', maxScore: 10, episodes: 4 }, { ...item, id: 'y', maxScore: null }]);
    expect(data.episodes).toBe(4);
    expect(data.maxScores).toEqual([10]);
    expect(data.series).toHaveLength(3);
    expect(data.series[0]!.label).toBe('A · p · gpt-4o-mini · abcdef');
    expect(data.note).toBeUndefined();
    const mixed = curveOfItems([item, { ...item, id: 'sim-000001', model: 'simulated model', simulated: true, caveat: 'simulated model — not a language model; it shows how the loop works, not how real models behave' }]);
    expect(mixed.series.map((s) => s.label)).toEqual(['A · p · gpt-4o-mini · abcdef', 'A · p · simulated model · 000001']);
    expect(mixed.note).toBe('Simulated model — not a language model; it shows how the loop works, not how real models behave.');
    expect(curveOfItems([{ ...item, source: 'bob-session' }]).series[0]!.label).toBe('bob-session · p');
    expect([importedName('C:\\class\\alice.JSON'), importedName('/tmp/bob lever room.json'), importedName(' carol ')]).toEqual(['alice', 'bob lever room', 'carol']);
  });
});

/** A 2-episode meta-agent session with episode 1 ended and one exchange. */
function fakeRecord(): SessionRecord {
  const trajectory = { finalScore: 5 } as unknown as NonNullable<SessionRecord['episodes'][number]['trajectory']>;
  const role = { model: 'm', temperature: 0.5, maxTokens: 100 };
  return {
    format: 'metattl-session-1', id: 's1', faultedEpisodes: 0, faults: [], status: 'running', stopReason: null, stopMessage: null,
    config: {
      story: { id: 'advent', title: 'Adventure', md5: 'a'.repeat(32), maxScore: 350 }, seed: 0, policy: { kind: 'meta', name: 'Naive', strategy: '' },
      metaPrompt: null, episodes: 2, maxSteps: 3, initialGuidingPrompt: 'explore', models: { actor: role, reflection: { ...role, model: 'r' } },
      provider: { presetId: 'custom', baseUrl: 'http://x' }, contextWindow: 16000,
    },
    episodes: [
      { index: 1, guidingPrompt: 'explore', trajectory, steps: [], finalScore: 5, termination: 'step_limit' },
      { index: 2, guidingPrompt: 'go east', trajectory: null, steps: [], finalScore: null, termination: null },
    ],
    exchanges: [{
      afterEpisode: 1, kind: 'meta_agent', userMessage: 'log', reply: '<think>t</think><learn>go east</learn>', finishReason: 'stop', learnStatus: 'updated',
      guidingPromptAfter: 'go east', usage: null, droppedEpisodes: [], notice: 'logs of episode 1 shortened', error: null,
    }],
    scores: [5], wAuc: 5 / 350, averageScore: 5, bestScore: 5, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, wallTimeMs: 0,
  };
}

describe('EtaClock', () => {
  it('does not count the time a presenter held the run', () => {
    let now = 0;
    const clock = new EtaClock(() => now);
    const progress = (done: number) => sessionProgress({ episodes: 1, maxSteps: 10, episodesDone: 0, currentSteps: done });
    expect(clock.eta(progress(0))).toBeNull(); // the segment starts here
    now = 2_000;
    expect(clock.eta(progress(2))).toBe(8_000); // 2 steps in 2 s: 8 left, 8 s
    clock.hold(true);
    now = 62_000; // a minute held
    expect(clock.eta(progress(2))).toBe(8_000);
    clock.hold(false);
    clock.hold(false);
    now = 64_000;
    expect(clock.eta(progress(4))).toBe(6_000); // 4 steps in 4 s of running: 6 left, 6 s
    clock.restart();
    expect(clock.eta(progress(4))).toBeNull();
  });
});

