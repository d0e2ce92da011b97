/**
 * The API keys in use, so that nothing persisted or exported ever holds one — not even a key a
 * model echoed back inside a normal reply. The page registers the key when it is set (ApiKeyHolder),
 * the CLI when it reads `--api-key` / `OPENAI_API_KEY`; the stores scrub every run, event and
 * meta-prompt they write, and every export path (stringifyWithoutSecrets, downloads, share links,
 * CLI output) scrubs its text. Keys shorter than 8 characters are not registered (replacing them
 * would mangle ordinary text; real keys are far longer). A key is found in every encoding it can
 * take in text a provider or a tool echoes (`keyPattern`): percent-encoded (any case, partly or
 * twice), JSON- or HTML-escaped, form-encoded, base64 (standard or URL-safe, at any alignment
 * inside a longer base64 text) and hex; and, as a server or proxy may echo it (`hideKeyFragments`),
 * spaced, reversed, in full-width characters, or split into pieces of 12 or more characters.
 * Pure module state; no DOM or Node APIs.
 */

/** What a scrubbed key is replaced with. */
export const KEY_HIDDEN = '[key hidden]';
const MIN_SECRET_LENGTH = 8;

const secrets = new Set<string>();

/** Remember `secret` (an API key) for scrubbing; ignored when shorter than 8 characters. */
export function registerSecret(secret: string): void {
  if (secret.length >= MIN_SECRET_LENGTH) secrets.add(secret);
}

/** Forget every registered secret (tests). */
export function forgetSecrets(): void {
  secrets.clear();
}

/** `text` with every registered secret, in any encoding `keyPattern` knows, and every fragment
 * `hideKeyFragments` finds, replaced by KEY_HIDDEN. */
export function scrubText(text: string): string {
  let out = text;
  for (const secret of secrets) out = hideKeyFragments(hideKey(out, secret), secret);
  return out;
}

/** The shortest run of a key's characters hidden on its own (a fragment of a key split across replies). */
export const KEY_FRAGMENT_LENGTH = 12;
/** Characters a server may put between a key's characters: whitespace, zero-width ones, soft hyphen. */
const SPACING = /[\s\u200b-\u200d\u2060\ufeff\u00ad]/;
const fragmentWindows = new Map<string, { width: number; windows: Set<string>; chars: Set<string> }>();

/** One UTF-16 unit of text as compared with a key: compatibility forms (full-width ｓｋ) folded by NFKC. */
const fold = (c: string): string => (c.charCodeAt(0) < 128 ? c : c.normalize('NFKC'));

/**
 * `text` with every run of `secret`'s characters that a server or proxy can make of an echoed key
 * replaced by KEY_HIDDEN: the key (or `KEY_FRAGMENT_LENGTH` or more consecutive characters of it —
 * a key split across two replies leaves such a piece in each) forwards or reversed, with spacing
 * (`SPACING`) between its characters, and in full-width or other NFKC-compatible characters.
 * A fragment is compared with the key's characters other than spacing; a key shorter than the
 * fragment length is hidden only whole. Linear in the text (one set look-up per position in a run
 * of the key's characters). What cannot be found: shorter pieces, and a key transformed beyond
 * these forms and `keyPattern`'s encodings (docs/reliability.md).
 */
export function hideKeyFragments(text: string, secret: string): string {
  let entry = fragmentWindows.get(secret);
  if (!entry) {
    const key = [...secret].filter((c) => !SPACING.test(c)).map(fold).join('');
    const width = Math.min(KEY_FRAGMENT_LENGTH, key.length);
    const windows = new Set<string>();
    for (const k of [key, [...key].reverse().join('')]) for (let i = 0; i + width <= k.length; i++) windows.add(k.slice(i, i + width));
    entry = { width, windows, chars: new Set(key) };
    fragmentWindows.set(secret, entry);
  }
  const { width, windows, chars } = entry;
  if (width < 4) return text;
  // The text without spacing, folded, with each kept unit's index in `text`.
  const units: string[] = [];
  const at: number[] = [];
  let run = 0;
  const ranges: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (SPACING.test(c)) continue;
    const f = fold(c);
    units.push(f);
    at.push(i);
    run = chars.has(f) ? run + 1 : 0;
    if (run < width) continue;
    const end = units.length;
    if (!windows.has(units.slice(end - width, end).join(''))) continue;
    const from = at[end - width]!;
    const last = ranges.at(-1);
    if (last && from <= last[1] + 1) last[1] = i;
    else ranges.push([from, i]);
  }
  if (ranges.length === 0) return text;
  let out = '';
  let previous = 0;
  for (const [from, to] of ranges) {
    out += text.slice(previous, from) + KEY_HIDDEN;
    previous = to + 1;
  }
  return out + text.slice(previous);
}

const patterns = new Map<string, RegExp>();
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
const hex2 = (n: number) => n.toString(16).padStart(2, '0');
/** A hex byte in either case, e.g. 2d → [2][dD]. */
const anyCaseHex = (h: string) => [...h].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');

/** The ways one character of a key may be written in text: itself, its UTF-8 bytes percent-
 * encoded (any case; `%25` for a second encoding), a JSON `\uXXXX` escape, a JavaScript `\u{X}`
 * or `\xXX` escape, an HTML character reference, `\/` for `/` and `+` for a space. */
function charForms(c: string): string {
  const bytes = utf8(c).map(hex2);
  const percent = bytes.map((b) => `%(?:25)?${anyCaseHex(b)}`).join('');
  const code = c.codePointAt(0)!;
  const forms = [escapeRegExp(c), percent, `\\\\u${anyCaseHex(code.toString(16).padStart(4, '0'))}`, `\\\\u\\{0*${anyCaseHex(code.toString(16))}\\}`, `&#0*${code};`, `&#[xX]0*${anyCaseHex(code.toString(16))};`];
  if (bytes.length === 1) forms.push(`\\\\x${anyCaseHex(bytes[0]!)}`);
  if (c === '/') forms.push('\\\\/');
  if (c === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/** Base64 texts (standard and URL-safe) of `secret`: its own encoding, and what any base64
 * encoding of a longer text holding it contains — for each of the 3 byte alignments, the
 * encoding of the key's bytes that fill whole 3-byte groups. */
function base64Forms(secret: string): string[] {
  const bytes = utf8(secret);
  const whole = btoa(String.fromCharCode(...bytes));
  // The key encoded on its own, padding included, first: it is the longest match.
  const out: string[] = [whole, whole.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')];
  for (let skip = 0; skip < 3; skip++) {
    const part = bytes.slice(skip);
    const whole = part.slice(0, part.length - (part.length % 3));
    if (whole.length < 6) continue;
    const b64 = btoa(String.fromCharCode(...whole));
    out.push(b64, b64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * The pattern that finds `secret` in text in any encoding listed in this module's header (a
 * global RegExp, cached per secret).
 */
export function keyPattern(secret: string): RegExp {
  let re = patterns.get(secret);
  if (!re) {
    const perChar = [...secret].map(charForms).join('');
    const bytes = utf8(secret).map(hex2).join('');
    const literal = [...base64Forms(secret), bytes, bytes.toUpperCase()].map(escapeRegExp);
    re = new RegExp([perChar, ...literal].join('|'), 'g');
    patterns.set(secret, re);
  }
  re.lastIndex = 0;
  return re;
}

/** `text` with `secret` (in any encoding `keyPattern` finds) replaced by KEY_HIDDEN; unchanged
 * for a secret shorter than 4 characters. */
export function hideKey(text: string, secret: string): string {
  if (secret.length < 4) return text;
  return text.replace(keyPattern(secret), KEY_HIDDEN);
}

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * `value` with every registered secret scrubbed from its strings (plain objects and arrays are
 * walked; typed arrays and other objects are kept as they are). Returns `value` itself when no
 * secret is registered or none occurs; otherwise a copy (the input is never changed).
 */
export function scrubSecrets<T>(value: T): T {
  if (secrets.size === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubText(v);
    if (Array.isArray(v)) {
      const items = v.map(walk);
      return items.some((item, i) => item !== v[i]) ? items : v;
    }
    if (typeof v === 'object' && v !== null && isPlainObject(v)) {
      let changed = false;
      const entries = Object.entries(v).map(([k, x]) => {
        const y = walk(x);
        if (y !== x) changed = true;
        return [k, y] as const;
      });
      return changed ? Object.fromEntries(entries) : v;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * The shapes of providers' API keys, found without knowing the key: OpenAI (`sk-…`, `sk-proj-…`,
 * `sk-svcacct-…`), Anthropic (`sk-ant-…`), OpenRouter (`sk-or-v1-…`), DeepSeek (`sk-…`), Google
 * (`AIza…`), Groq (`gsk_…`), Hugging Face (`hf_…`), xAI (`xai-…`), Perplexity (`pplx-…`). A match
 * starts a word and holds at least one digit (so a word with a dash, a room's name say, is no key).
 */
const KEY_SHAPES = /(?<![A-Za-z0-9_-])(?:sk-(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}|(?:gsk_|hf_)(?=[A-Za-z]*\d)[A-Za-z0-9]{20,}|(?:xai-|pplx-)(?=[A-Za-z]*\d)[A-Za-z0-9]{20,})/g;

/** `text` with everything shaped like a provider's API key (`KEY_SHAPES`) replaced by KEY_HIDDEN. */
export function hideKeyShapes(text: string): string {
  return text.replace(KEY_SHAPES, KEY_HIDDEN);
}

/** `text` scrubbed of the registered secrets (`scrubText`) and of anything shaped like a provider's key (`hideKeyShapes`): for texts people wrote (a room's submissions). */
export function scrubKeys(text: string): string {
  return hideKeyShapes(scrubText(text));
}
