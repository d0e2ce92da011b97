/**
 * The web environment's contract: reset/step/stop with binary reward, BrowserGym-style observation
 * text, each action's effect on a real page, clear error observations (never a throw) for malformed
 * or impossible actions, per-episode state, and determinism by seed.
 */
import { describe, expect, it } from 'vitest';
import { runScript } from '../src/web/dom/oracle.ts';
import { WEB_TEXTS } from '../src/web/texts.ts';
import { bidOf, rng, webEnv } from './support/web.ts';

describe('WebEnvironment', () => {
  it('starts on the site home page with the goal, the tab and the accessibility tree', async () => {
    const env = webEnv('web:shop/t1:1');
    expect(env).toMatchObject({ kind: 'web', maxScore: 1, texts: WEB_TEXTS });
    const obs = await env.reset(1);
    expect(obs.url).toBe('http://shop.test/');
    expect(obs.goal).toBe(env.current.intent);
    expect(obs.lastActionError).toBeNull();
    expect(obs.text).toMatch(/^# Goal\nWhat is the price of the .+\?\n\n# Currently open tabs\nTab 0 \(active tab\)\n {2}Title: Home – Shop\n {2}URL: http:\/\/shop\.test\/\n\n# Current page: accessibility tree\nRootWebArea 'Home – Shop', focused\n/);
    expect(obs.axtree).toContain("searchbox 'Search' value=''");
  });

  it('types, submits, follows links and goes back like a browser', async () => {
    const env = webEnv('web:shop/t1:1');
    await env.reset(1);
    await env.step(`fill('${bidOf(env, 'searchbox', 'Search')}', 'lamp')`);
    const search = await env.step(`press('${bidOf(env, 'searchbox', 'Search')}', 'Enter')`);
    expect(search.observation.url).toBe('http://shop.test/search?q=lamp');
    expect(search).toMatchObject({ reward: 0, score: 0, done: false });
    const sort = bidOf(env, 'combobox', 'Sort by');
    await env.step(`select_option('${sort}', 'Price: high to low')`);
    expect(env.axNodes.find((n) => n.role === 'option' && n.name === 'Price: high to low')).toBeDefined();
    const sorted = await env.step(`click('${bidOf(env, 'button', 'Sort')}')`);
    expect(sorted.observation.url).toBe('http://shop.test/search?q=lamp&sort=price_desc');
    const back = await env.step('go_back()');
    expect(back.observation.url).toBe('http://shop.test/search?q=lamp');
    const forward = await env.step('go_forward()');
    expect(forward.observation.url).toBe('http://shop.test/search?q=lamp&sort=price_desc');
    const home = await env.step("goto('/')");
    expect(home.observation.title).toBe('Home – Shop');
  });

  it('turns every malformed or impossible action into an error observation and keeps going', async () => {
    const env = webEnv('web:shop/t6:2');
    await env.reset(2);
    const cases: [string, RegExp][] = [
      ['buy the lamp', /is not an action/],
      ["click('999')", /Could not find element with id '999'/],
      [`fill('${bidOf(env, 'link', 'Cart')}', 'x')`, /<a> is not a text field/],
      [`select_option('${bidOf(env, 'searchbox', 'Search')}', 'x')`, /is not a <select>/],
      [`press('${bidOf(env, 'searchbox', 'Search')}', 'Hyperspace')`, /Unknown key 'Hyperspace'/],
      ["goto('http://evil.test/')", /this task's site is http:\/\/shop\.test\/ and no other host answers/],
      ['go_back()', /no page to go back to/],
      ["scroll('north')", /scroll takes 'up', 'down'/],
    ];
    for (const [action, message] of cases) {
      const result = await env.step(action);
      expect(result.observation.lastActionError, action).toMatch(message);
      expect(result.observation.text).toContain(`# Error from the last action\n${result.observation.lastActionError}`);
      expect(result).toMatchObject({ reward: 0, done: false });
    }
    const fine = await env.step("scroll('down')");
    expect(fine.observation.lastActionError).toBeNull();
    expect(fine.observation.url).toBe('http://shop.test/');
  });

  it('answers unknown and malformed paths with the site\'s 404 page', async () => {
    const env = webEnv('web:shop/t1:1');
    await env.reset(1);
    for (const path of ['/product/%E0%A4%A', '/product/SKU-999', '/nowhere']) {
      const result = await env.step(`goto('${path}')`);
      expect(result.observation.lastActionError, path).toBeNull();
      expect(result.observation.title, path).toBe('Page not found');
    }
  });

  it('refuses a form with an empty required field, as a browser does', async () => {
    const env = webEnv('web:forum/t27:1');
    await env.reset(1);
    await env.step(`click('${bidOf(env, 'link', 'f/books')}')`);
    const post = env.axNodes.find((n) => n.role === 'link' && !n.name.startsWith('f/') && n.name.includes(' ') && !/comments$/.test(n.name) && n.depth > 2)!;
    await env.step(`click('${post.bid}')`);
    const sent = await env.step(`click('${bidOf(env, 'button', 'Post comment')}')`);
    expect(sent.observation.lastActionError).toBe("The form was not sent: please fill out the required field 'Comment'.");
  });

  it('an answer ends the episode with reward 1 or 0; stepping after it throws; stop() judges a cut-off episode', async () => {
    const env = webEnv('web:shop/t9:1');
    await env.reset(1);
    const end = await env.step("report_infeasible('not sold here')");
    expect(end).toMatchObject({ reward: 1, score: 1, done: true });
    expect(end.observation.answer).toBe('N/A');
    expect(end.observation.text).toContain('# Message sent to the user (the episode is over)\nN/A');
    await expect(env.step('noop()')).rejects.toThrow(/the episode is over/);

    const nav = webEnv('web:forum/t28:1');
    await nav.reset(1);
    await nav.step(`click('${bidOf(nav, 'link', `f/${/f\/(\w+)/.exec(nav.current.intent)![1]}`)}')`);
    await nav.step(`click('${bidOf(nav, 'link', 'New')}')`);
    expect(await nav.stop()).toMatchObject({ reward: 1, score: 1, done: true });
  });

  it('keeps changes within an episode and starts every episode from the same site', async () => {
    const env = webEnv('web:forge/t35:1');
    const first = await env.reset(1);
    await env.step(`click('${bidOf(env, 'link', 'Explore projects')}')`);
    const project = /Star the project (\S+)\./.exec(env.current.intent)![1]!;
    await env.step(`click('${bidOf(env, 'link', project)}')`);
    const starred = await env.step(`click('${bidOf(env, 'button', 'Star')}')`);
    expect(starred.observation.axtree).toContain("button 'Unstar'");
    expect(await env.stop()).toMatchObject({ reward: 1 });
    const again = await env.reset(1);
    expect(again.text).toBe(first.text);
    expect((env.siteState as { starred: string[] }).starred).toEqual([]);
    const other = await env.reset(2);
    expect(other.goal).not.toBe(first.goal);
  });

  it('escapes text typed by the agent, so it never becomes markup', async () => {
    const env = webEnv('web:forum/t26:1');
    await env.reset(1);
    await env.step(`click('${bidOf(env, 'link', 'Submit')}')`);
    await env.step(`fill('${bidOf(env, 'textbox', 'Title')}', '<img src=x onerror=alert(1)><b>bold</b>')`);
    const made = await env.step(`click('${bidOf(env, 'button', 'Create post')}')`);
    expect(made.observation.title).toBe('<img src=x onerror=alert(1)><b>bold</b> – Forum');
    expect(env.pageHtml()).not.toContain('<img');
    expect(env.pageHtml()).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('WebEnvironment under random actions', () => {
  it.each(['web:shop/t7:1', 'web:shop-admin/t18:2', 'web:forum/t26:3', 'web:forge/t36:4', 'web:map/t41:5'])('%s: 150 random actions never throw and always give an observation', async (id) => {
    const random = rng(7);
    const env = webEnv(id);
    await env.reset(env.task.seed);
    const texts = ['', 'lamp', "O'Brien", '<b>x</b>', '12', 'Enter', 'Car', 'N/A'];
    const paths = ['/', '/nope', '/product/%E0%A4%A', '/orders/999999', '/f/books/0', '/x/y/-/issues?page=-3', 'http://other.test/', 'javascript:alert(1)', '?page=abc'];
    let errors = 0;
    for (let i = 0; i < 150; i++) {
      const bids = env.axNodes.filter((n) => n.bid).map((n) => n.bid!);
      const bid = random.int(10) === 0 ? '9999' : random.pick(bids);
      const action = random.pick([
        `click('${bid}')`, `fill('${bid}', ${JSON.stringify(random.pick(texts))})`, `select_option('${bid}', ${JSON.stringify(random.pick(texts))})`,
        `press('${bid}', ${JSON.stringify(random.pick(['Enter', 'Backspace', 'a', 'Tab', 'Control+a', 'F13']))})`, `hover('${bid}')`,
        `goto(${JSON.stringify(random.pick(paths))})`, 'go_back()', 'go_forward()', "scroll('down')", 'noop()', random.pick(['click(', 'fill()', '???', 'click("a b")']),
      ]);
      const result = await env.step(action);
      expect(result.done).toBe(false);
      expect(result.observation.text).toContain('# Current page: accessibility tree\nRootWebArea ');
      if (result.observation.lastActionError) errors++;
    }
    expect(errors).toBeGreaterThan(10);
    const end = await env.step("send_msg_to_user('done')");
    expect(end.done).toBe(true);
    expect([0, 1]).toContain(end.reward);
  });
});

describe('the teaching web task (shop t47)', () => {
  it('the natural first attempt fails and the site says where the seed-dependent code is', async () => {
    const env = webEnv('web:shop/t47:1');
    await env.reset(1);
    const code = (env.siteState as { coupon: string }).coupon;
    const noCoupon = await runScript(env, env.current.wrong);
    expect(noCoupon.reward).toBe(0);
    expect(noCoupon.steps.at(-2)!.observation).toContain("No coupon was used: this week's code is on the My Account page.");

    await env.reset(1);
    const product = /Buy one (.+) using/.exec(env.current.intent)![1]!;
    await env.step(`fill('${bidOf(env, 'searchbox', 'Search')}', ${JSON.stringify(product)})`);
    await env.step(`click('${bidOf(env, 'button', 'Search')}')`);
    await env.step(`click('${bidOf(env, 'link', product)}')`);
    await env.step(`click('${bidOf(env, 'button', 'Add to Cart')}')`);
    await env.step(`click('${bidOf(env, 'link', 'Proceed to Checkout')}')`);
    await env.step(`fill('${bidOf(env, 'textbox', 'Coupon code')}', 'SAVE10')`);
    const guessed = await env.step(`click('${bidOf(env, 'button', 'Place Order')}')`);
    expect(guessed.observation.axtree).toContain("The coupon code 'SAVE10' is not valid. This week's code is shown on the My Account page.");
    await env.step(`click('${bidOf(env, 'link', 'My Account')}')`);
    expect(env.axNodes.some((n) => n.name === `This week's coupon code: ${code} (10% off your next order)`)).toBe(true);
    await env.step(`click('${bidOf(env, 'link', 'Cart')}')`);
    await env.step(`click('${bidOf(env, 'link', 'Proceed to Checkout')}')`);
    await env.step(`fill('${bidOf(env, 'textbox', 'Coupon code')}', '${code}')`);
    await env.step(`click('${bidOf(env, 'button', 'Place Order')}')`);
    expect(await env.step("send_msg_to_user('done')")).toMatchObject({ reward: 1, done: true });

    await env.reset(2);
    expect((env.siteState as { coupon: string }).coupon).not.toBe(code);
  });
});
