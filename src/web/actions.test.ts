import { describe, expect, it } from 'vitest';
import { formatWebAction, parseWebAction, pyRepr, type WebAction } from './actions.ts';

const ok = (text: string): WebAction => {
  const parsed = parseWebAction(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.action;
};
const error = (text: string): string => {
  const parsed = parseWebAction(text);
  if (parsed.ok) throw new Error(`parsed: ${JSON.stringify(parsed.action)}`);
  return parsed.error;
};

describe('parseWebAction (BrowserGym bid actions)', () => {
  it('reads each action with quoted or bare ids', () => {
    expect(ok("click('12')")).toEqual({ type: 'click', bid: '12' });
    expect(ok('click(12)')).toEqual({ type: 'click', bid: '12' });
    expect(ok('hover("a51")')).toEqual({ type: 'hover', bid: 'a51' });
    expect(ok("fill('7', 'desk lamp')")).toEqual({ type: 'fill', bid: '7', text: 'desk lamp' });
    expect(ok("fill(bid='7', value='x, y')")).toEqual({ type: 'fill', bid: '7', text: 'x, y' });
    expect(ok("select_option('13', 'Price: high to low')")).toEqual({ type: 'select_option', bid: '13', option: 'Price: high to low' });
    expect(ok("press('12', 'Enter')")).toEqual({ type: 'press', bid: '12', key: 'Enter' });
    expect(ok("goto('http://shop.test/cart')")).toEqual({ type: 'goto', url: 'http://shop.test/cart' });
    expect(ok('go_back()')).toEqual({ type: 'go_back' });
    expect(ok('go_forward()')).toEqual({ type: 'go_forward' });
    expect(ok('noop()')).toEqual({ type: 'noop' });
    expect(ok('noop(500)')).toEqual({ type: 'noop' });
    expect(ok("send_msg_to_user('It costs $12.50')")).toEqual({ type: 'send_msg_to_user', text: 'It costs $12.50' });
    expect(ok("report_infeasible('no such product')")).toEqual({ type: 'report_infeasible', reason: 'no such product' });
    expect(ok("  click('3');  ")).toEqual({ type: 'click', bid: '3' });
  });

  it('reads scroll as a direction or as BrowserGym delta pixels', () => {
    expect(ok("scroll('down')")).toEqual({ type: 'scroll', direction: 'down' });
    expect(ok('scroll(up)')).toEqual({ type: 'scroll', direction: 'up' });
    expect(ok('scroll(0, 200)')).toEqual({ type: 'scroll', direction: 'down' });
    expect(ok('scroll(-300, 0)')).toEqual({ type: 'scroll', direction: 'left' });
    expect(error("scroll('sideways')")).toMatch(/scroll takes 'up', 'down'/);
  });

  it('keeps escapes and the other quote inside strings', () => {
    expect(ok(`send_msg_to_user("It's 'fine'")`)).toEqual({ type: 'send_msg_to_user', text: "It's 'fine'" });
    expect(ok("send_msg_to_user('a\\'b\\\\c')")).toEqual({ type: 'send_msg_to_user', text: "a'b\\c" });
  });

  it('explains malformed actions instead of throwing', () => {
    expect(error('take lamp')).toMatch(/is not an action.*click\('12'\)/);
    expect(error('jump(3)')).toMatch(/unknown action "jump"/);
    expect(error("click('12', 'x')")).toMatch(/click takes 1 argument/);
    expect(error('fill(3)')).toMatch(/fill takes 2 arguments/);
    expect(error("fill('3', 'unclosed)")).toMatch(/unterminated string/);
    expect(error("click('Add to Cart')")).toMatch(/is not an element id/);
    expect(error("click('1') click('2')")).toMatch(/unexpected|not an element id/);
    expect(error('')).toMatch(/is not an action/);
  });

  it('formats every action so it parses back to itself', () => {
    const actions: WebAction[] = [
      { type: 'click', bid: '4' }, { type: 'fill', bid: '9', text: "O'Brien \"quoted\" \\ back\nslash" }, { type: 'select_option', bid: '2', option: 'Car' },
      { type: 'press', bid: '1', key: 'Enter' }, { type: 'scroll', direction: 'up' }, { type: 'goto', url: 'http://map.test/' }, { type: 'go_back' },
      { type: 'send_msg_to_user', text: 'N/A' }, { type: 'report_infeasible', reason: "can't" }, { type: 'noop' }, { type: 'hover', bid: '5' },
    ];
    for (const action of actions) expect(ok(formatWebAction(action))).toEqual(action);
  });

  it('quotes like Python repr()', () => {
    expect(pyRepr('Add to Cart')).toBe("'Add to Cart'");
    expect(pyRepr("Search results for 'lamp'")).toBe(`"Search results for 'lamp'"`);
    expect(pyRepr(`both ' and "`)).toBe(`'both \\' and "'`);
  });
});
