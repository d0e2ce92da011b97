import { describe, expect, it } from 'vitest';
import { BUILT_IN_META_PROMPTS } from '../agents/meta-prompt-library.ts';
import { strToU8, zlibSync } from 'fflate';
import { isSeed } from '../engine/frotz-rng.ts';
import { taskHash } from '../ttl/web-engine.ts';
import { decodeShare, encodeShare, ShareError, shareFragmentOf, shareUrl, withoutShare, type SharePayload } from './share-link.ts';

const metaPrompt: SharePayload = {
  kind: 'meta-prompt',
  metaPrompt: { name: 'Fact bank', description: 'd', strategy: BUILT_IN_META_PROMPTS[1]!.strategy, provenance: 'hand-written', selectedOn: ['detective'] },
};

describe('share links', () => {
  it('round-trips a meta-prompt and a setup, compressed', () => {
    const encoded = encodeShare(metaPrompt);
    expect(encoded.startsWith('v1.')).toBe(true);
    expect(encoded.length).toBeLessThan(JSON.stringify(metaPrompt).length);
    expect(decodeShare(encoded)).toEqual(metaPrompt);
    const setup: SharePayload = {
      kind: 'setup',
      setup: { storyId: 'advent', storyMd5: 'ee2242e155fd8910921b0f8e04019a3a', storyTitle: 'Adventure', seed: 5, policy: { kind: 'reflexion' }, episodes: 3, maxSteps: 15, models: { actor: 'a', metaAgent: 'm' } },
    };
    const url = shareUrl('https://example.test/play/?view=learn#old', setup);
    expect(url.startsWith('https://example.test/play/?view=learn#share=v1.')).toBe(true);
    expect(decodeShare(new URL(url).hash)).toEqual(setup);
  });

  it('a 6,000-character strategy with unicode survives encode → URL → decode exactly', () => {
    const unit = 'Keep a fact bank — für alle Räume, 部屋ごとに, emoji 🧭🗝️, quotes "x" & <tags>. ';
    const strategy = unit.repeat(Math.ceil(6000 / unit.length)).slice(0, 6000);
    expect(strategy.length).toBe(6000);
    const payload: SharePayload = { kind: 'meta-prompt', metaPrompt: { name: 'Long ✓', description: '', strategy, provenance: 'hand-written', selectedOn: [] } };
    const url = new URL(shareUrl('http://127.0.0.1:4317/sub/path/?view=library', payload));
    const back = decodeShare(url.hash);
    expect(back.kind === 'meta-prompt' && back.metaPrompt.strategy).toBe(strategy);
    expect(url.hash.length).toBeLessThan(6000);
  });

  it('never carries a key, even if one is passed in', () => {
    const leaky = { kind: 'setup', setup: { storyId: null, storyMd5: 'a'.repeat(32), storyTitle: 'T', seed: 0, policy: { kind: 'static' }, episodes: 1, maxSteps: 1, models: { actor: 'a', metaAgent: 'b', apiKey: 'secret-abc' } }, apiKey: 'secret-abc' } as unknown as SharePayload;
    const decoded = JSON.stringify(decodeShare(encodeShare(leaky)));
    expect(decoded).not.toContain('secret-abc');
  });

  it('carries a classroom setup link (preset, base URL, a model per role) and never a key', () => {
    const payload: SharePayload = { kind: 'provider', provider: { presetId: 'ollama', baseUrl: 'http://192.168.1.20:11434/v1', models: { actor: 'qwen2.5:0.5b', metaAgent: 'qwen2.5:1.5b', proposer: '' } } };
    const url = new URL(shareUrl('http://127.0.0.1:4317/sub/path/?view=settings&story=x', payload));
    expect(url.search).toBe('?view=settings');
    expect(decodeShare(url.href)).toEqual(payload);
    // A key passed in is dropped when the link is made …
    const leaky = { kind: 'provider', provider: { ...payload.provider, apiKey: 'sk-secret-abc' } } as unknown as SharePayload;
    expect(JSON.stringify(decodeShare(encodeShare(leaky)))).not.toContain('sk-secret-abc');
    // … and a hand-made link that carries one anyway is refused as a whole, with the reason.
    const raw = (value: unknown) => 'v1.' + btoa(String.fromCharCode(...zlibSync(strToU8(JSON.stringify(value))))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    for (const name of ['apiKey', 'api_key', 'token', 'Authorization']) {
      expect(() => decodeShare(raw({ kind: 'provider', provider: { ...payload.provider, [name]: 'sk-secret-abc' } }))).toThrow(/carries an API key/);
    }
    expect(() => decodeShare(raw({ kind: 'provider', provider: { ...payload.provider, models: { ...payload.provider.models, key: 'x' } } }))).toThrow(/carries an API key/);
    // Only http(s) base URLs without credentials.
    for (const baseUrl of ['javascript:alert(1)', 'data:text/plain,x', 'http://user:pw@host/v1', 'not a url', 'ftp://host/v1']) {
      expect(() => decodeShare(raw({ kind: 'provider', provider: { ...payload.provider, baseUrl } })), baseUrl).toThrow(/provider\.baseUrl/);
    }
  });

  it('rejects damaged, foreign and invalid links with a clear error', () => {
    expect(() => decodeShare('v2.abc')).toThrow(/unknown version/);
    expect(() => decodeShare(encodeShare(metaPrompt).slice(0, 30))).toThrow(ShareError);
    expect(() => decodeShare('v1.%%%')).toThrow(/damaged/);
  });

  it('accepts exactly the seeds the Learn form accepts: 0 … 2^32 − 1', () => {
    const setup = (seed: number): SharePayload => ({
      kind: 'setup',
      setup: { storyId: 'advent', storyMd5: 'ee2242e155fd8910921b0f8e04019a3a', storyTitle: 'Adventure', seed, policy: { kind: 'static' }, episodes: 1, maxSteps: 1, models: { actor: 'a', metaAgent: 'm' } },
    });
    const raw = (seed: number) => 'v1.' + btoa(String.fromCharCode(...zlibSync(strToU8(JSON.stringify(setup(seed)))))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    for (const seed of [0, 2 ** 32 - 1]) {
      expect(isSeed(seed)).toBe(true);
      expect(decodeShare(raw(seed))).toEqual(setup(seed));
    }
    for (const seed of [2 ** 32, 2 ** 53, -1, 1.5]) {
      expect(isSeed(seed)).toBe(false);
      expect(() => decodeShare(raw(seed))).toThrow(/not valid: setup\.seed/);
    }
  });

  it('round-trips a web task setup, and rejects a malformed task id', () => {
    const setup: SharePayload = {
      kind: 'setup',
      setup: {
        storyId: 'web:shop/t47', storyMd5: taskHash('web:shop/t47:2'), storyTitle: 'web:shop/t47:2', seed: 2, policy: { kind: 'meta', name: 'naive', strategy: '' },
        episodes: 3, maxSteps: 10, models: { actor: 'a', metaAgent: 'm' }, task: { kind: 'web', id: 'web:shop/t47:2' },
      },
    };
    const url = shareUrl('https://example.test/?view=learn', setup);
    expect(decodeShare(new URL(url).hash)).toEqual(setup);
    const bad = { ...setup, setup: { ...setup.setup, task: { kind: 'web', id: 'shop t47' } } } as SharePayload;
    const raw = 'v1.' + btoa(String.fromCharCode(...zlibSync(strToU8(JSON.stringify(bad)))))
      .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(() => decodeShare(raw)).toThrow('This share link is not valid: setup.task.id: expected a web task id web:<site>/<template>:<seed>');
  });
});

describe('share links as chat apps and mail leave them', () => {
  const payload: SharePayload = { kind: 'meta-prompt', metaPrompt: { name: 'Wrapped', description: 'd', strategy: 'Look at the log. '.repeat(40), provenance: 'shared link', selectedOn: [] } };
  const url = shareUrl('https://example.org/sub/path/', payload);
  const value = encodeShare(payload);
  const wrapAt = (text: string, width: number, prefix = ''): string => (text.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join(`\n${prefix}`);
  const mangled: Record<string, string> = {
    'a trailing )': `${url})`,
    'a trailing .': `${url}.`,
    'a trailing ,': `${url},`,
    'a trailing >': `<${url}>`,
    'closing quotes and a full stop': `"${url}".`,
    'curly quotes': `\u201c${url}\u201d`,
    'a sentence around it': `Try this (${url}).`,
    'line wraps inside': wrapAt(url, 60),
    'CRLF wraps with indentation': wrapAt(url, 70).replace(/\n/g, '\r\n   '),
    'a quoted reply (> markers on each wrapped line)': `> ${wrapAt(url, 50, '> ')}`,
    'spaces inside': `${value.slice(0, 40)} ${value.slice(40, 90)}  ${value.slice(90)}`,
    'percent-encoded spaces and a %29': `#share=${value.slice(0, 50)}%20${value.slice(50)}%29`,
    'a bare fragment with a trailing .': `#share=${value}.`,
  };
  for (const [what, text] of Object.entries(mangled)) {
    it(`accepts a link with ${what}`, () => {
      expect(decodeShare(text)).toEqual(payload);
    });
  }

  it('still calls a link cut off, or with characters changed inside, damaged', () => {
    expect(() => decodeShare(url.slice(0, url.length - 20))).toThrow(/damaged/);
    expect(() => decodeShare(`${url.slice(0, 60)})${url.slice(60)}`)).toThrow(/damaged/);
    expect(() => decodeShare(`${url.slice(0, 60)}*${url.slice(61)}`)).toThrow(ShareError);
    expect(() => decodeShare(`${url})x`)).toThrow(/damaged/);
  });
});

describe('share links keep only the view and workshop mode of the page URL', () => {
  const payload: SharePayload = { kind: 'meta-prompt', metaPrompt: { name: 'S', description: '', strategy: 'x', provenance: 'hand-written', selectedOn: [] } };
  it.each([
    ['http://h/sub/?view=library&replay=lever-room-learn&entry=fact-bank#old', 'http://h/sub/?view=library#share='],
    ['http://h/sub/?story=advent&seed=3&view=learn&workshop=1&metaPrompt=x&task=web%3Ashop%2Ft1%3A1', 'http://h/sub/?view=learn&workshop=1#share='],
    ['http://h/sub/path/?replay=x', 'http://h/sub/path/#share='],
    ['http://h/', 'http://h/#share='],
  ])('%s → %s…', (base, start) => {
    const url = shareUrl(base, payload);
    expect(url.startsWith(start)).toBe(true);
    expect(decodeShare(new URL(url).hash)).toEqual(payload);
  });
});

describe('share links re-encoded or moved into the query open when their content is intact', () => {
  // A payload whose value has both `-` and `_` (the base64url characters an encoder escapes).
  const payload = Array.from({ length: 50 }, (_, i): SharePayload => ({ kind: 'meta-prompt', metaPrompt: { name: `N${i}`, description: '', strategy: `Try ${i} things ~~ ?? >> ${'x'.repeat(i)}`, provenance: 'shared link', selectedOn: [] } }))
    .find((p) => /-/.test(encodeShare(p)) && /_/.test(encodeShare(p)))!;
  const value = encodeShare(payload);
  const escape = (text: string) => text.replace(/-/g, '%2D').replace(/_/g, '%5F');
  const base = 'https://example.org/sub/';
  it('has a value with - and _ to test with', () => {
    expect(value).toMatch(/-/);
    expect(value).toMatch(/_/);
  });

  const texts: Record<string, string> = {
    '- and _ percent-encoded once': `${base}#share=${escape(value)}`,
    '- and _ percent-encoded twice': `${base}#share=${encodeURIComponent(escape(value))}`,
    'the whole link encoded twice': encodeURIComponent(encodeURIComponent(`${base}#share=${value}`)),
    '- and _ encoded three times': `#share=${encodeURIComponent(encodeURIComponent(escape(value)))}`,
    'the share in the query': `${base}?share=${value}`,
    'the share in the query, other parameters after it': `${base}?view=library&share=${value}&workshop=1`,
    'the #share= encoded into the query': `${base}?view=library%23share%3D${value}`,
  };
  for (const [what, text] of Object.entries(texts)) {
    it(`decodes a link with ${what}`, () => {
      expect(decodeShare(text)).toEqual(payload);
    });
  }

  it('the page finds the share in its fragment or its query, and clears it from either', () => {
    for (const href of [`${base}?view=library#share=${value}`, `${base}?view=library&share=${value}`, `${base}?share=${encodeURIComponent(escape(value))}&view=library`, `${base}?view=library%23share%3D${value}`, `${base}?view=library&x=%23share%3D${escape(value)}`]) {
      expect(decodeShare(shareFragmentOf(href)), href).toEqual(payload);
      expect(withoutShare(href), href).toBe(`${base}?view=library`);
    }
    expect(shareFragmentOf(`${base}?view=library#other`)).toBe('');
    expect(withoutShare(`${base}?view=learn&seed=3#old`)).toBe(`${base}?view=learn&seed=3`);
  });

  it('a link cut off after being re-encoded or moved is still called damaged', () => {
    expect(() => decodeShare(`${base}#share=${encodeURIComponent(escape(value)).slice(0, -30)}`)).toThrow(/damaged/);
    expect(() => decodeShare(`${base}?share=${value.slice(0, -30)}&view=library`)).toThrow(/damaged/);
  });
});
