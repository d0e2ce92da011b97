/**
 * A reader of the GBNF subset our reply grammars use (src/llm/reply-grammars.ts), for tests: it
 * compiles a grammar into an equivalent JavaScript regular expression (to check which texts it
 * admits) and measures its longest admitted text. Subset: rules `name ::= alternatives`, string
 * literals with `\n \" \\ \xHH` escapes, character classes `[...]` / `[^...]` with ranges and the
 * same escapes, rule references, groups `( … | … )`, and the quantifiers `? * + {n} {m,} {m,n}`.
 * Anything else is an error, so a grammar that leaves the subset fails its test instead of being
 * misread. Rules must not be recursive (ours are not; llama.cpp expands repetitions the same way).
 */

type Node =
  | { kind: 'literal'; text: string }
  | { kind: 'class'; negated: boolean; ranges: [number, number][] }
  | { kind: 'ref'; name: string }
  | { kind: 'alt'; options: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number | null };

/** A parsed grammar: its rules by name. */
export interface Gbnf {
  rules: Map<string, Node[][]>;
}

function escape(src: string, i: number): [number, number] {
  const c = src[i + 1];
  if (c === 'n') return [10, i + 2];
  if (c === 't') return [9, i + 2];
  if (c === 'r') return [13, i + 2];
  if (c === '\\' || c === '"' || c === '[' || c === ']') return [c.charCodeAt(0), i + 2];
  if (c === 'x') {
    const hex = src.slice(i + 2, i + 4);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new Error(`bad \\x escape at ${i}`);
    return [parseInt(hex, 16), i + 4];
  }
  throw new Error(`unsupported escape \\${c} at ${i}`);
}

function charAt(src: string, i: number): [number, number] {
  if (src[i] === '\\') return escape(src, i);
  const cp = src.codePointAt(i)!;
  return [cp, i + (cp > 0xffff ? 2 : 1)];
}

/** Parse GBNF text. @throws Error naming what is outside the subset */
export function parseGbnf(text: string): Gbnf {
  const rules = new Map<string, Node[][]>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const m = /^([a-zA-Z][a-zA-Z0-9-]*) ::= (.*)$/.exec(line);
    if (!m) throw new Error(`not a rule: ${line}`);
    const [alt, end] = parseAlternatives(m[2]!, 0);
    if (end !== m[2]!.length) throw new Error(`unexpected text at ${end} in: ${line}`);
    if (rules.has(m[1]!)) throw new Error(`rule ${m[1]} defined twice`);
    rules.set(m[1]!, alt);
  }
  if (!rules.has('root')) throw new Error('no root rule');
  return { rules };
}

function parseAlternatives(src: string, start: number): [Node[][], number] {
  const options: Node[][] = [];
  let i = start;
  let seq: Node[] = [];
  for (;;) {
    while (src[i] === ' ') i++;
    if (i >= src.length || src[i] === ')') break;
    if (src[i] === '|') {
      options.push(seq);
      seq = [];
      i++;
      continue;
    }
    let node: Node;
    if (src[i] === '"') {
      let text = '';
      i++;
      while (src[i] !== '"') {
        if (i >= src.length) throw new Error('unterminated literal');
        const [cp, next] = charAt(src, i);
        text += String.fromCodePoint(cp);
        i = next;
      }
      i++;
      node = { kind: 'literal', text };
    } else if (src[i] === '[') {
      i++;
      const negated = src[i] === '^';
      if (negated) i++;
      const ranges: [number, number][] = [];
      while (src[i] !== ']') {
        if (i >= src.length) throw new Error('unterminated class');
        const [lo, next] = charAt(src, i);
        i = next;
        if (src[i] === '-' && src[i + 1] !== ']') {
          const [hi, after] = charAt(src, i + 1);
          ranges.push([lo, hi]);
          i = after;
        } else ranges.push([lo, lo]);
      }
      i++;
      node = { kind: 'class', negated, ranges };
    } else if (src[i] === '(') {
      const [inner, end] = parseAlternatives(src, i + 1);
      if (src[end] !== ')') throw new Error('unclosed group');
      i = end + 1;
      node = { kind: 'alt', options: inner };
    } else {
      const m = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(src.slice(i));
      if (!m) throw new Error(`unexpected "${src[i]}" at ${i}`);
      i += m[0].length;
      node = { kind: 'ref', name: m[0] };
    }
    const q = /^(?:\{(\d+)(?:(,)(\d*))?\}|([?*+]))/.exec(src.slice(i));
    if (q) {
      i += q[0].length;
      const min = q[4] ? (q[4] === '+' ? 1 : 0) : Number(q[1]);
      const max = q[4] ? (q[4] === '?' ? 1 : null) : q[2] === undefined ? Number(q[1]) : q[3] === '' ? null : Number(q[3]);
      node = { kind: 'repeat', node, min, max };
    }
    seq.push(node);
  }
  options.push(seq);
  return [options, i];
}

function classSource(node: Extract<Node, { kind: 'class' }>): string {
  const hex = (cp: number) => `\\u{${cp.toString(16)}}`;
  return `[${node.negated ? '^' : ''}${node.ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('')}]`;
}

function regexSource(g: Gbnf, node: Node, depth: number): string {
  if (depth > 50) throw new Error('recursive grammar');
  switch (node.kind) {
    case 'literal':
      return [...node.text].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join('');
    case 'class':
      return classSource(node);
    case 'ref': {
      const rule = g.rules.get(node.name);
      if (!rule) throw new Error(`undefined rule ${node.name}`);
      return `(?:${rule.map((seq) => seq.map((n) => regexSource(g, n, depth + 1)).join('')).join('|')})`;
    }
    case 'alt':
      return `(?:${node.options.map((seq) => seq.map((n) => regexSource(g, n, depth + 1)).join('')).join('|')})`;
    case 'repeat':
      return `(?:${regexSource(g, node.node, depth + 1)}){${node.min},${node.max ?? ''}}`;
  }
}

/** A regular expression that matches exactly the texts `g` admits (whole text, Unicode mode). */
export function gbnfRegex(g: Gbnf): RegExp {
  return new RegExp(`^${regexSource(g, { kind: 'ref', name: 'root' }, 0)}$`, 'u');
}

/** What the longest admitted text is made of: fixed literal text, and for each character class (by its regex source) how many characters of it at most. */
export interface LongestText {
  literal: string;
  classChars: Map<string, number>;
  /** The character classes, as regexes matching one character. */
  classes: Map<string, RegExp>;
}

function longest(g: Gbnf, node: Node, depth: number): { literal: string; chars: Map<string, number>; length: number } {
  if (depth > 50) throw new Error('recursive grammar');
  const seqLongest = (seq: Node[]) => {
    const out = { literal: '', chars: new Map<string, number>(), length: 0 };
    for (const n of seq) {
      const part = longest(g, n, depth + 1);
      out.literal += part.literal;
      out.length += part.length;
      for (const [k, v] of part.chars) out.chars.set(k, (out.chars.get(k) ?? 0) + v);
    }
    return out;
  };
  switch (node.kind) {
    case 'literal':
      return { literal: node.text, chars: new Map(), length: [...node.text].length };
    case 'class':
      return { literal: '', chars: new Map([[classSource(node), 1]]), length: 1 };
    case 'ref':
    case 'alt': {
      const options = node.kind === 'ref' ? g.rules.get(node.name) : node.options;
      if (!options) throw new Error(`undefined rule ${(node as { name: string }).name}`);
      // An alternative is counted at its longest; our grammars have none in the measured parts.
      return options.map(seqLongest).reduce((a, b) => (b.length > a.length ? b : a));
    }
    case 'repeat': {
      if (node.max === null) throw new Error('unbounded repetition: no longest text');
      const part = longest(g, node.node, depth + 1);
      return { literal: part.literal.repeat(node.max), chars: new Map([...part.chars].map(([k, v]) => [k, v * node.max!])), length: part.length * node.max };
    }
  }
}

/** The longest text `g` admits, as fixed text plus characters per class. @throws Error for an unbounded grammar */
export function longestText(g: Gbnf): LongestText {
  const { literal, chars } = longest(g, { kind: 'ref', name: 'root' }, 0);
  return { literal, classChars: chars, classes: new Map([...chars.keys()].map((k) => [k, new RegExp(`^${k}$`, 'u')])) };
}

/** A real tokenizer: text to token ids and back. */
export interface TokenizerLike {
  name: string;
  encode(text: string): number[];
  decode(tokens: number[]): string;
  /** True for a byte-level vocabulary (a token for every byte, as GPT-2-style BPE has): any text can be written one byte per token. */
  byteLevel: boolean;
}

/**
 * The most tokens a model with tokenizer `t` can spend writing `text` under a llama.cpp grammar:
 * every sampled token adds at least one byte (the grammar sampler refuses empty pieces), so at
 * most its UTF-8 length — reached in a byte-level vocabulary, whose single-byte tokens (and
 * byte-fallback tokens) spell any text byte by byte; at least the tokenizer's own encoding.
 * @throws Error when `t` cannot write `text` at all (it does not decode back)
 */
export function worstTokens(t: TokenizerLike, text: string): number {
  const ids = t.encode(text);
  if (t.decode(ids) !== text) throw new Error(`${t.name} cannot write ${JSON.stringify(text)}`);
  const bytes = new TextEncoder().encode(text).length;
  return t.byteLevel ? bytes : Math.max(ids.length, 1);
}

/** Printable ASCII, line feed and a few characters of 2, 3 and 4 UTF-8 bytes: the characters checked against a class. */
export const PROBE_CHARS: readonly string[] = ['\n', '\t', ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)), 'é', '…', '€', '🙂', '𝒜'];

/**
 * The most tokens the longest reply of grammar `g` can cost with tokenizer `t`: its fixed text,
 * plus for each character class its count × the worst character of the class among PROBE_CHARS,
 * plus one end-of-generation token. @throws Error when a character the grammar admits cannot be written by `t`
 */
export function worstReplyTokensOf(g: Gbnf, t: TokenizerLike, perClass = new Map<string, number>()): number {
  const longestReply = longestText(g);
  let total = longestReply.literal === '' ? 0 : worstTokens(t, longestReply.literal);
  for (const [source, count] of longestReply.classChars) {
    let worst = perClass.get(`${t.name}:${source}`);
    if (worst === undefined) {
      const re = longestReply.classes.get(source)!;
      worst = Math.max(0, ...PROBE_CHARS.filter((c) => re.test(c)).map((c) => worstTokens(t, c)));
      perClass.set(`${t.name}:${source}`, worst);
    }
    total += worst * count;
  }
  return total + 1;
}
