/**
 * Share links: a meta-prompt, a whole setup (story or web task, seed, policy, K, S, model names), or a
 * classroom's provider settings (preset, base URL, a model per role — a teacher's "setup link") encoded
 * into the URL fragment — `#share=v1.<base64url(deflate(JSON))>` — so it is never sent to any
 * server. Decoding is schema-validated; a key can never be part of a payload (the schema has no
 * place for one, unknown fields are dropped, and a registered key echoed inside a text is
 * scrubbed: common/secrets.ts).
 */
import { MetattlError } from '../common/errors.ts';
import { strFromU8, strToU8, unzlibSync, zlibSync } from 'fflate';
import { z } from 'zod';
import { MAX_SEED } from '../engine/frotz-rng.ts';
import { scrubSecrets } from '../common/secrets.ts';

export const SHARE_PREFIX = 'v1.';
/** Longest fragment we produce or accept, characters (browsers cope with far more; chat apps don't). */
export const MAX_SHARE_LENGTH = 16_000;

const policySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('static') }),
  z.object({ kind: z.literal('reflexion') }),
  z.object({ kind: z.literal('memory') }),
  z.object({ kind: z.literal('textgrad') }),
  z.object({ kind: z.literal('meta'), name: z.string().max(200), strategy: z.string().max(20_000), raw: z.literal(true).optional() }),
  z.object({ kind: z.literal('human') }),
]);

/**
 * Limits of a shared meta-prompt, characters (and entries of `selectedOn`): the Library's entry
 * limits (ui entry-io.ts takes them from here), so every entry the Library keeps fits a link's
 * schema; the provenance is the entry's provenance as text (`Imported from ` + up to 500).
 */
export const META_PROMPT_LIMITS = { name: 200, description: 5_000, strategy: 20_000, provenance: 1_000, selectedOn: 200, selectedOnItem: 200 } as const;

const metaPromptSchema = z.object({
  name: z.string().min(1).max(META_PROMPT_LIMITS.name),
  description: z.string().max(META_PROMPT_LIMITS.description).default(''),
  strategy: z.string().max(META_PROMPT_LIMITS.strategy),
  provenance: z.string().max(META_PROMPT_LIMITS.provenance).default('shared link'),
  selectedOn: z.array(z.string().max(META_PROMPT_LIMITS.selectedOnItem)).max(META_PROMPT_LIMITS.selectedOn).default([]),
});

/** A web task of a setup (`web:<site>/<template>:<seed>`); whether the catalog has it is checked
 * when the setup is loaded into the Learn form (the catalog is not part of this module). */
const sharedTaskSchema = z.object({
  kind: z.literal('web'),
  id: z.string().max(100).regex(/^web:[a-z-]+\/t\d+:\d+$/, 'expected a web task id web:<site>/<template>:<seed>'),
});

const setupSchema = z.object({
  storyId: z.string().max(200).nullable(),
  storyMd5: z.string().regex(/^[0-9a-f]{32}$/),
  storyTitle: z.string().max(200),
  /** A frotz seed, validated like the Learn form's (engine `isSeed`). */
  seed: z.number().int().min(0).max(MAX_SEED),
  policy: policySchema,
  episodes: z.number().int().min(1).max(100),
  maxSteps: z.number().int().min(1).max(1000),
  models: z.object({ actor: z.string().max(200), metaAgent: z.string().max(200) }),
  /** What is played when it is not a story: a web task (then `storyId` is `web:<site>/<template>`,
   * `storyMd5` the task's hash and `seed` the id's seed). Absent for a story. */
  task: sharedTaskSchema.optional(),
});

/** A base URL a setup link may set: http(s) only (never `javascript:` or `data:`), no user:password part. */
const baseUrlSchema = z.string().max(500).refine((text) => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}, 'expected an http(s) URL without a user name or password');

/** A classroom's provider settings: what Settings needs to
 * reach the room's endpoint. Never a key — the schema has no place for one, and a link that
 * carries an `apiKey` anyway is refused (`decodeShare`), so no key is applied or kept by accident.
 * An empty model leaves that role's model as the user has it. */
const providerSetupSchema = z.object({
  /** A preset id (llm/providers.ts) or 'custom'; checked against the presets when applied. */
  presetId: z.string().min(1).max(50),
  baseUrl: baseUrlSchema,
  models: z.object({ actor: z.string().max(200), metaAgent: z.string().max(200), proposer: z.string().max(200) }),
});

export const sharePayloadSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('meta-prompt'), metaPrompt: metaPromptSchema }),
  z.object({ kind: z.literal('setup'), setup: setupSchema }),
  z.object({ kind: z.literal('provider'), provider: providerSetupSchema }),
]);

export type SharePayload = z.infer<typeof sharePayloadSchema>;
export type SharedMetaPrompt = z.infer<typeof metaPromptSchema>;
export type SharedSetup = z.infer<typeof setupSchema>;
export type SharedProviderSetup = z.infer<typeof providerSetupSchema>;

export class ShareError extends MetattlError {
  override readonly name = 'ShareError';
  /** The payload field that failed its check (`provider.baseUrl`), or null when the link as a whole is too long. */
  readonly field: string | null;
  constructor(message: string, field: string | null = null) {
    super('share_link', message);
    this.field = field;
  }
}

const toBase64Url = (bytes: Uint8Array): string => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (text: string): Uint8Array => {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

/**
 * Encode a payload (validated first: unknown fields, such as a key, are dropped).
 * @throws ShareError naming the first field over its limit, or saying the link would be too long
 */
export function encodeShare(payload: SharePayload): string {
  const parsed = sharePayloadSchema.safeParse(scrubSecrets(payload));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(root)';
    throw new ShareError(`This cannot be shared as a link: ${field}: ${issue.message}. Export it as a file instead.`, field);
  }
  const clean = parsed.data;
  const encoded = SHARE_PREFIX + toBase64Url(zlibSync(strToU8(JSON.stringify(clean)), { level: 9 }));
  if (encoded.length > MAX_SHARE_LENGTH) throw new ShareError(`This is too long to share as a link (${encoded.length} characters); export it as a file instead.`);
  return encoded;
}

/** What chat apps and mail add after a link: closing brackets and quotes, sentence punctuation. */
const TRAILING_PUNCTUATION = /^[)\]}>.,;:!?'"\u2019\u201d\u00bb]*$/;
const SHARE_VALUE = /^v\d+\.[A-Za-z0-9_-]*/;

/**
 * The `v1.…` value of a share link as pasted or opened: the part after `share=` (a whole URL, a
 * fragment or the bare value), percent-escapes decoded, line wraps, spaces and a quote's `>` markers
 * inside removed, and trailing punctuation that a chat app glued on (`)`, `.`, `,`, `>`, quotes)
 * dropped. Anything else after the value (a character outside base64url) is left on it, so the
 * link is reported damaged rather than silently shortened.
 */
export function shareValueOf(text: string): string {
  let value = percentDecoded(text);
  const at = value.indexOf('share=');
  if (at >= 0) value = value.slice(at + 'share='.length);
  // A link whose share landed in the query: the next query parameter or a fragment ends it.
  value = value.replace(/(?:&[A-Za-z_][\w-]*=|#).*$/s, '');
  value = value.replace(/[\r\n]+[ \t]*(?:>[ \t]*)*/g, '').replace(/\s+/g, '');
  const body = SHARE_VALUE.exec(value)?.[0];
  if (body && TRAILING_PUNCTUATION.test(value.slice(body.length))) return body;
  return value;
}

/** Most times a link is percent-decoded: a chat app, a redirect and a mail gateway may each encode it. */
const MAX_DECODES = 3;

/** `text` percent-decoded until no escape is left (at most `MAX_DECODES` times): `-` and `_`
 * encoded twice (`%252D`) come back; a `%` that is not an escape stops the decoding there. */
function percentDecoded(text: string): string {
  let value = text;
  for (let i = 0; i < MAX_DECODES && /%[0-9a-fA-F]{2}/.test(value); i++) {
    try {
      value = decodeURIComponent(value);
    } catch {
      break; // not percent-encoded as a whole: kept as written
    }
  }
  return value;
}

/**
 * The share of a page address as `#share=…`, wherever it landed, or '' when it has none: the
 * fragment (`#share=…`), or the query — `?share=…`, or a `#share=` encoded into it (`%23share%3D…`)
 * by an app that moved the fragment. `href` is an absolute URL.
 */
export function shareFragmentOf(href: string): string {
  const url = new URL(href);
  if (url.hash.startsWith('#share=')) return url.hash;
  const fromParam = url.searchParams.get('share');
  if (fromParam) return `#share=${fromParam}`;
  const query = percentDecoded(url.search);
  const at = query.indexOf('#share=');
  return at >= 0 ? query.slice(at) : '';
}

/** `href` without its share: the fragment cleared, and a share that landed in the query removed. */
export function withoutShare(href: string): string {
  const url = new URL(href);
  url.hash = '';
  url.searchParams.delete('share');
  // A parameter the share was glued onto (`view=library%23share%3D…`) keeps what came before it.
  const kept = [...url.searchParams.entries()].flatMap(([name, value]): [string, string][] => {
    const at = percentDecoded(value).indexOf('#share=');
    if (at < 0) return [[name, value]];
    return at > 0 ? [[name, percentDecoded(value).slice(0, at)]] : [];
  });
  url.search = new URLSearchParams(kept).toString();
  return url.toString();
}

/** Whether a decoded payload has a field named like a key (apiKey, api_key, key, token, …) anywhere. */
function carriesKey(value: unknown, depth = 0): boolean {
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([name, inner]) => /^(api[-_]?key|key|token|secret|authorization|password)$/i.test(name) || carriesKey(inner, depth + 1));
}

/**
 * Decode a share value: a share URL, a `#share=` fragment or the bare `v1.…` value, as chat apps
 * leave it (see `shareValueOf`: wraps and trailing punctuation are accepted).
 * @throws ShareError with a readable reason
 */
export function decodeShare(text: string): SharePayload {
  const value = shareValueOf(text);
  if (!value.startsWith(SHARE_PREFIX)) throw new ShareError('This is not a Meta-TTL share link (unknown version).');
  if (value.length > MAX_SHARE_LENGTH) throw new ShareError('This share link is too long.');
  let json: unknown;
  try {
    json = JSON.parse(strFromU8(unzlibSync(fromBase64Url(value.slice(SHARE_PREFIX.length)))));
  } catch {
    throw new ShareError('This share link is damaged: it could not be decoded (was it cut off when copied?).');
  }
  if (carriesKey(json)) throw new ShareError('This link carries an API key, so it was not applied: a setup link never includes a key. Ask for a link without one.');
  const result = sharePayloadSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ShareError(`This share link is not valid: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}

/** Query parameters a share link keeps from the page URL: the view it opens in and workshop mode.
 * Everything else (`replay`, `entry`, `story`, `seed`, …) is the sharer's page state, not the share. */
export const SHARE_KEPT_PARAMS: readonly string[] = ['view', 'workshop'];

/** A full URL for `base` (the page URL, absolute): its fragment replaced by the payload, its
 * query reduced to `SHARE_KEPT_PARAMS` (`view` set to `view` when given; `workshop=1` when
 * `workshop` is true, e.g. workshop mode turned on with the nav toggle). Throws a TypeError when
 * `base` is not an absolute URL, and ShareError (`encodeShare`) when the payload is not valid. */
export function shareUrl(base: string, payload: SharePayload, view?: string, workshop?: boolean): string {
  const url = new URL(base);
  if (view !== undefined) url.searchParams.set('view', view);
  if (workshop === true) url.searchParams.set('workshop', '1');
  const kept = new URLSearchParams([...url.searchParams.entries()].filter(([name]) => SHARE_KEPT_PARAMS.includes(name)));
  const query = kept.toString();
  return `${url.origin}${url.pathname}${query ? `?${query}` : ''}#share=${encodeShare(payload)}`;
}
