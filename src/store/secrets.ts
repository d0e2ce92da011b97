/**
 * The API keys in use, so that nothing persisted or exported ever holds one — not even a key a
 * model echoed back inside a normal reply. The page registers the key when it is set (ApiKeyHolder),
 * the CLI when it reads `--api-key` / `OPENAI_API_KEY`; the stores scrub every run, event and
 * meta-prompt they write, and every export path (stringifyWithoutSecrets, downloads, share links,
 * CLI output) scrubs its text. Keys shorter than 8 characters are not registered (replacing them
 * would mangle ordinary text; real keys are far longer). Pure module state; no DOM or Node APIs.
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

/** `text` with every registered secret replaced by KEY_HIDDEN. */
export function scrubText(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(KEY_HIDDEN);
  return out;
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
