/**
 * The web actions (BrowserGym's "bid" action set, as Python-style calls): click(id), fill(id, text),
 * select_option(id, option), press(id, key), hover(id), scroll(dir), goto(url), go_back(),
 * go_forward(), send_msg_to_user(answer), report_infeasible(reason), noop(). Parsing never throws:
 * malformed text gives an error message for the observation. No DOM here.
 */

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export type WebAction =
  | { type: 'click' | 'hover'; bid: string }
  | { type: 'fill'; bid: string; text: string }
  | { type: 'select_option'; bid: string; option: string }
  | { type: 'press'; bid: string; key: string }
  | { type: 'scroll'; direction: ScrollDirection }
  | { type: 'goto'; url: string }
  | { type: 'go_back' | 'go_forward' | 'noop' }
  | { type: 'send_msg_to_user'; text: string }
  | { type: 'report_infeasible'; reason: string };

export type ParsedWebAction = { ok: true; action: WebAction } | { ok: false; error: string };

/** The action signatures, as shown to the actor and in parse errors. */
export const WEB_ACTION_SIGNATURES = [
  'click(id)', 'fill(id, text)', 'select_option(id, option)', 'press(id, key)', 'hover(id)', "scroll('up'|'down')",
  'goto(url)', 'go_back()', 'go_forward()', 'send_msg_to_user(answer)', 'report_infeasible(reason)', 'noop()',
];

const ARITY: Record<WebAction['type'], number> = {
  click: 1, hover: 1, fill: 2, select_option: 2, press: 2, scroll: 1, goto: 1, go_back: 0, go_forward: 0, noop: 0, send_msg_to_user: 1, report_infeasible: 1,
};

type Arg = { kind: 'string' | 'number' | 'word'; value: string };

/** Read the arguments between the parentheses; returns an error string on bad syntax. */
function readArgs(text: string): Arg[] | string {
  const args: Arg[] = [];
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  skip();
  while (i < text.length) {
    const keyword = /^[A-Za-z_]\w*\s*=(?!=)/.exec(text.slice(i));
    if (keyword) i += keyword[0].length;
    skip();
    const quote = text[i];
    if (quote === "'" || quote === '"') {
      let value = '';
      i++;
      while (i < text.length && text[i] !== quote) {
        if (text[i] === '\\' && i + 1 < text.length) {
          const next = text[i + 1]!;
          value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
          i += 2;
        } else value += text[i++];
      }
      if (i >= text.length) return `unterminated string: a ${quote} is not closed`;
      i++;
      args.push({ kind: 'string', value });
    } else {
      const bare = /^[^,]*/.exec(text.slice(i))![0].trim();
      if (bare === '') return 'an argument is missing';
      i += /^[^,]*/.exec(text.slice(i))![0].length;
      args.push({ kind: /^-?\d+(\.\d+)?$/.test(bare) ? 'number' : 'word', value: bare });
    }
    skip();
    if (i < text.length) {
      if (text[i] !== ',') return `unexpected "${text.slice(i, i + 10)}" after an argument (separate arguments with commas)`;
      i++;
      skip();
    }
  }
  return args;
}

function direction(args: Arg[]): ScrollDirection | string {
  if (args.length === 2 && args.every((a) => a.kind === 'number')) {
    const [dx, dy] = args.map((a) => Number(a.value)) as [number, number];
    if (dy !== 0) return dy > 0 ? 'down' : 'up';
    if (dx !== 0) return dx > 0 ? 'right' : 'left';
    return 'scroll(0, 0) scrolls nowhere';
  }
  const word = args[0]?.value.toLowerCase();
  if (args.length === 1 && (word === 'up' || word === 'down' || word === 'left' || word === 'right')) return word;
  return `scroll takes 'up', 'down', 'left' or 'right' (or BrowserGym's scroll(dx, dy)), got scroll(${args.map((a) => a.value).join(', ')})`;
}

/**
 * Parse one action. Element ids may be quoted or bare (`click('12')`, `click(12)`); text arguments
 * are quoted with ' or " (backslash escapes). Keyword names (`fill(bid='3', value='x')`) are
 * accepted and ignored. A trailing `;` is allowed; anything else around the call is an error.
 */
export function parseWebAction(input: string): ParsedWebAction {
  const fail = (error: string): ParsedWebAction => ({ ok: false, error });
  const text = input.trim().replace(/;\s*$/, '');
  const call = /^([A-Za-z_]\w*)\s*\(([\s\S]*)\)$/.exec(text);
  if (!call) return fail(`"${input.trim().slice(0, 80)}" is not an action. Write one call such as click('12') or fill('7', 'lamp'). Actions: ${WEB_ACTION_SIGNATURES.join(', ')}.`);
  const name = call[1]!.toLowerCase() as WebAction['type'];
  if (!(name in ARITY)) return fail(`unknown action "${call[1]}". Actions: ${WEB_ACTION_SIGNATURES.join(', ')}.`);
  const args = readArgs(call[2]!);
  if (typeof args === 'string') return fail(`${name}: ${args}`);
  if (name === 'scroll') {
    const dir = direction(args);
    return dir === 'up' || dir === 'down' || dir === 'left' || dir === 'right' ? { ok: true, action: { type: 'scroll', direction: dir } } : fail(dir);
  }
  if (name === 'noop' && args.length <= 1) return { ok: true, action: { type: 'noop' } };
  if (args.length !== ARITY[name]) {
    const sig = WEB_ACTION_SIGNATURES.find((s) => s.startsWith(`${name}(`));
    return fail(`${name} takes ${ARITY[name]} argument${ARITY[name] === 1 ? '' : 's'}: ${sig}; got ${args.length}`);
  }
  const [a, b] = args.map((x) => x.value);
  const bidError = args[0] && ['click', 'hover', 'fill', 'select_option', 'press'].includes(name) && !/^[A-Za-z]?\d+$/.test(a!.trim());
  if (bidError) return fail(`${name}: "${a}" is not an element id (ids are the numbers in [brackets], e.g. ${name}('12'${ARITY[name] === 2 ? ", '…'" : ''}))`);
  switch (name) {
    case 'click':
    case 'hover':
      return { ok: true, action: { type: name, bid: a!.trim() } };
    case 'fill':
      return { ok: true, action: { type: 'fill', bid: a!.trim(), text: b! } };
    case 'select_option':
      return { ok: true, action: { type: 'select_option', bid: a!.trim(), option: b! } };
    case 'press':
      return { ok: true, action: { type: 'press', bid: a!.trim(), key: b! } };
    case 'goto':
      return { ok: true, action: { type: 'goto', url: a!.trim() } };
    case 'send_msg_to_user':
      return { ok: true, action: { type: 'send_msg_to_user', text: a! } };
    case 'report_infeasible':
      return { ok: true, action: { type: 'report_infeasible', reason: a! } };
    default:
      return { ok: true, action: { type: name } as WebAction };
  }
}

/** A string as Python's repr() writes it (the AXTree and action texts use this quoting). */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
}

/** The canonical text of an action (parses back to the same action). */
export function formatWebAction(action: WebAction): string {
  switch (action.type) {
    case 'click':
    case 'hover':
      return `${action.type}(${pyRepr(action.bid)})`;
    case 'fill':
      return `fill(${pyRepr(action.bid)}, ${pyRepr(action.text)})`;
    case 'select_option':
      return `select_option(${pyRepr(action.bid)}, ${pyRepr(action.option)})`;
    case 'press':
      return `press(${pyRepr(action.bid)}, ${pyRepr(action.key)})`;
    case 'scroll':
      return `scroll(${pyRepr(action.direction)})`;
    case 'goto':
      return `goto(${pyRepr(action.url)})`;
    case 'send_msg_to_user':
      return `send_msg_to_user(${pyRepr(action.text)})`;
    case 'report_infeasible':
      return `report_infeasible(${pyRepr(action.reason)})`;
    default:
      return `${action.type}()`;
  }
}
