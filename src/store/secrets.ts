/**
 * The API keys in use, so that nothing persisted or exported ever holds one — not even a key a
 * model echoed back inside a normal reply. The page registers the key when it is set (ApiKeyHolder),
 * the CLI when it reads `--api-key` / `OPENAI_API_KEY`; the stores scrub every run, event and
 * meta-prompt they write, and every export path (stringifyWithoutSecrets, downloads, share links,
 * CLI output) scrubs its text. Keys shorter than 8 characters are not registered (replacing them
 * would mangle ordinary text; real keys are far longer). A key is found in every encoding it can
 * take in text a provider or a tool echoes (`keyPattern`): percent-encoded (any case, partly or
 * twice), JSON- or HTML-escaped, form-encoded, base64 (standard or URL-safe, at any alignment
 * inside a longer base64 text) and hex. Pure module state; no DOM or Node APIs.
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

/** `text` with every registered secret, in any encoding `keyPattern` knows, replaced by KEY_HIDDEN. */
export function scrubText(text: string): string {
  let out = text;
  for (const secret of secrets) out = hideKey(out, secret);
  return out;
}

const patterns = new Map<string, RegExp>();
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
const hex2 = (n: number) => n.toString(16).padStart(2, '0');
/** A hex byte in either case, e.g. 2d → [2][dD]. */
const anyCaseHex = (h: string) => [...h].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');

/** The ways one character of a key may be written in text: itself, its UTF-8 bytes percent-
 * encoded (any case; `%25` for a second encoding), a JSON `\uXXXX` escape, an HTML character
 * reference, `\/` for `/` and `+` for a space. */
function charForms(c: string): string {
  const bytes = utf8(c).map(hex2);
  const percent = bytes.map((b) => `%(?:25)?${anyCaseHex(b)}`).join('');
  const code = c.codePointAt(0)!;
  const forms = [escapeRegExp(c), percent, `\\\\u${anyCaseHex(code.toString(16).padStart(4, '0'))}`, `&#0*${code};`, `&#[xX]0*${anyCaseHex(code.toString(16))};`];
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
