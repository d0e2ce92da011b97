/**
 * The three checks of a web task, following WebArena's evaluation harness (evaluators.py):
 * string match on the answer (exact / must_include, after cleaning), URL match (same host and path,
 * the reference's query parameters included in the final URL: "GOLD in PRED"), and a state check on
 * the site after the episode (the role WebArena's program_html plays). Reward is 1 or 0. No DOM.
 */
import type { StringMatchCheck, UrlMatchCheck, WebCheck } from '../interface.ts';

/** The answer that says a task cannot be done (WebArena's "N/A"). */
export const NOT_ACHIEVABLE = 'N/A';

/** WebArena's clean_answer: trim, drop one pair of surrounding quotes, lower-case. */
export function cleanAnswer(text: string): string {
  let s = text.trim();
  if (s.length >= 2 && ((s.startsWith("'") && s.endsWith("'")) || (s.startsWith('"') && s.endsWith('"')))) s = s.slice(1, -1);
  return s.toLowerCase();
}

/** Word tokens (letters/digits, keeping inner . , ' - as in "12.50", "1,200", "don't"). */
export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:[.,'’\-/][\p{L}\p{N}]+)*/gu) ?? [];
}

/** 1 when the answer matches: equal to `exact`, and/or containing every `mustInclude` string. A single
 * one-word must_include reference must be a whole token of the answer (WebArena's tokenize rule). */
export function stringMatch(check: StringMatchCheck, answer: string | null): number {
  if (answer === null) return 0;
  const pred = cleanAnswer(answer);
  if (check.exact !== undefined && cleanAnswer(check.exact) !== pred) return 0;
  const refs = check.mustInclude ?? [];
  const tokens = refs.length === 1 ? tokenize(pred) : [];
  for (const ref of refs) {
    const clean = cleanAnswer(ref);
    const oneWord = refs.length === 1 && tokenize(clean).length === 1 && tokenize(clean)[0] === clean;
    if (oneWord ? !tokens.includes(clean) : !pred.includes(clean)) return 0;
  }
  return 1;
}

function normalisePath(path: string): string {
  let p = path;
  try {
    p = decodeURIComponent(path);
  } catch {
    // a malformed escape stays as written
  }
  p = p.replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

/** 1 when `finalUrl` has the reference's host and path and includes each of its query values. */
export function urlMatch(check: UrlMatchCheck, finalUrl: string): number {
  let ref: URL;
  let pred: URL;
  try {
    ref = new URL(check.url);
    pred = new URL(finalUrl);
  } catch {
    return 0;
  }
  if (ref.host !== pred.host || normalisePath(ref.pathname) !== normalisePath(pred.pathname)) return 0;
  for (const key of new Set(ref.searchParams.keys())) {
    const have = pred.searchParams.getAll(key).map((v) => v.toLowerCase());
    if (!ref.searchParams.getAll(key).every((v) => have.includes(v.toLowerCase()))) return 0;
  }
  return 1;
}

/** What the judge sees at the end of an episode. */
export interface EpisodeOutcome<S> {
  /** The message sent with send_msg_to_user ("N/A" for report_infeasible), or null when none. */
  answer: string | null;
  finalUrl: string;
  state: S;
}

/**
 * The reward (1 or 0) of an episode. Every check kind also fails an N/A answer unless the task is
 * unachievable: claiming "N/A" for a doable navigation or change is wrong.
 */
export function evaluate<S>(check: WebCheck<S>, outcome: EpisodeOutcome<S>, unachievable = false): number {
  const saidNa = outcome.answer !== null && cleanAnswer(outcome.answer) === cleanAnswer(NOT_ACHIEVABLE);
  if (saidNa && !unachievable) return 0;
  switch (check.kind) {
    case 'string_match':
      return stringMatch(check, outcome.answer);
    case 'url_match':
      return urlMatch(check, outcome.finalUrl);
    case 'state':
      return check.test(outcome.state) ? 1 : 0;
  }
}
