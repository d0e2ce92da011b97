import { describe, expect, it } from 'vitest';
import { cleanAnswer, evaluate, stringMatch, tokenize, urlMatch } from './checks.ts';

describe('string_match (WebArena StringEvaluator)', () => {
  it('cleans answers like clean_answer: trim, one pair of quotes, lower case', () => {
    expect(cleanAnswer('  "Aurora Lamp" ')).toBe('aurora lamp');
    expect(cleanAnswer("'N/A'")).toBe('n/a');
    expect(cleanAnswer(`"it's"`)).toBe("it's");
  });

  it('exact match compares cleaned strings', () => {
    expect(stringMatch({ kind: 'string_match', exact: 'N/A' }, 'n/a')).toBe(1);
    expect(stringMatch({ kind: 'string_match', exact: 'N/A' }, '"N/A"')).toBe(1);
    expect(stringMatch({ kind: 'string_match', exact: 'N/A' }, 'N/A, it does not exist')).toBe(0);
    expect(stringMatch({ kind: 'string_match', exact: 'N/A' }, null)).toBe(0);
  });

  it('a single one-word must_include reference must be a whole token', () => {
    expect(tokenize('It costs $112.50, not 12.5')).toEqual(['It', 'costs', '112.50', 'not', '12.5']);
    const check = { kind: 'string_match' as const, mustInclude: ['12.50'] };
    expect(stringMatch(check, 'The price is $12.50.')).toBe(1);
    expect(stringMatch(check, 'The price is $112.50')).toBe(0);
    expect(stringMatch({ kind: 'string_match', mustInclude: ['3'] }, 'It has 3 reviews')).toBe(1);
    expect(stringMatch({ kind: 'string_match', mustInclude: ['3'] }, 'It has 13 reviews')).toBe(0);
  });

  it('several or multi-word must_include references are substrings, all required', () => {
    const check = { kind: 'string_match' as const, mustInclude: ['alice/ledger-api', 'bob/pixel-ui'] };
    expect(stringMatch(check, 'Alice/ledger-api and Bob/pixel-ui tie')).toBe(1);
    expect(stringMatch(check, 'alice/ledger-api')).toBe(0);
    expect(stringMatch({ kind: 'string_match', mustInclude: ['12 Oak Street'] }, 'At 12 oak street.')).toBe(1);
  });
});

describe('url_match (WebArena URLEvaluator, GOLD in PRED)', () => {
  const check = { kind: 'url_match' as const, url: 'http://shop.test/category/kitchen?sort=price_desc' };
  it('needs the same host and path and the reference query values', () => {
    expect(urlMatch(check, 'http://shop.test/category/kitchen?sort=price_desc')).toBe(1);
    expect(urlMatch(check, 'http://shop.test/category/kitchen/?page=1&sort=price_desc')).toBe(1);
    expect(urlMatch(check, 'http://shop.test/category/kitchen?sort=price_asc')).toBe(0);
    expect(urlMatch(check, 'http://shop.test/category/kitchen')).toBe(0);
    expect(urlMatch(check, 'http://shop.test/category/garden?sort=price_desc')).toBe(0);
    expect(urlMatch(check, 'http://admin.shop.test/category/kitchen?sort=price_desc')).toBe(0);
    expect(urlMatch(check, 'not a url')).toBe(0);
  });
});

describe('evaluate', () => {
  const outcome = (answer: string | null, finalUrl = 'http://forum.test/', state = { ok: true }) => ({ answer, finalUrl, state });
  it('runs the check of each kind', () => {
    expect(evaluate({ kind: 'state', description: 'ok', test: (s: { ok: boolean }) => s.ok }, outcome('done'))).toBe(1);
    expect(evaluate({ kind: 'state', description: 'ok', test: (s: { ok: boolean }) => s.ok }, outcome(null, '', { ok: false }))).toBe(0);
    expect(evaluate({ kind: 'url_match', url: 'http://forum.test/' }, outcome(null))).toBe(1);
  });
  it('an N/A answer fails a doable task of any kind and passes an unachievable one', () => {
    expect(evaluate({ kind: 'url_match', url: 'http://forum.test/' }, outcome('N/A'))).toBe(0);
    expect(evaluate({ kind: 'state', description: 'ok', test: () => true }, outcome('n/a'))).toBe(0);
    expect(evaluate({ kind: 'string_match', exact: 'N/A' }, outcome('N/A'), true)).toBe(1);
  });
});
