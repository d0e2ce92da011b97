import { describe, expect, it } from 'vitest';
import { createJsdomDocument } from '../node/jsdom-document.ts';
import { assignBids, buildAxTree, inlineStyleOf } from './axtree.ts';

function tree(body: string, title = 'Test page', focusSelector?: string): string {
  const doc = createJsdomDocument();
  doc.title = title;
  doc.body.innerHTML = body;
  assignBids(doc);
  const focused = focusSelector ? doc.querySelector(focusSelector) : null;
  const slow = buildAxTree(doc, focused, 'http://shop.test/x/').text;
  const fast = buildAxTree(doc, focused, 'http://shop.test/x/', inlineStyleOf).text;
  expect(fast).toBe(slow);
  return fast;
}

describe('buildAxTree (BrowserGym flattened AXTree text)', () => {
  it('prints [bid] role \'name\' per node, a tab per depth, under the RootWebArea', () => {
    const text = tree('<main><h1>Welcome</h1><nav aria-label="Main"><a href="/cart">Cart</a></nav><button>Add to Cart</button></main>', 'Home – Shop');
    expect(text).toBe([
      "RootWebArea 'Home – Shop', focused",
      "\t[1] main ''",
      "\t\t[2] heading 'Welcome'",
      "\t\t[3] navigation 'Main'",
      "\t\t\t[4] link 'Cart', url='http://shop.test/cart'",
      "\t\t[5] button 'Add to Cart'",
    ].join('\n'));
  });

  it('names fields from their labels (dom-accessibility-api) and shows values, options and flags', () => {
    const text = tree(
      '<form><label for="q">Search</label><input id="q" type="search" value="lamp" required>' +
        '<label>Sort by <select name="s"><option>Name</option><option selected>Price</option></select></label>' +
        '<input type="checkbox" aria-label="Gift wrap" checked><button disabled>Go</button></form>',
      'Form',
      '#q',
    );
    expect(text).toContain("[3] searchbox 'Search' value='lamp', focused, required");
    expect(text).toContain("combobox 'Sort by' value='Price', hasPopup='menu', expanded=False");
    expect(text).toContain("option 'Price', selected=True");
    expect(text).toContain("checkbox 'Gift wrap', checked='true'");
    expect(text).toContain("button 'Go', disabled=True");
  });

  it('leaves out hidden elements, unnamed generic wrappers and text that repeats its parent\'s name', () => {
    const text = tree('<div><span><a href="/p/1"><span>Aurora Lamp</span></a></span></div><p hidden>secret</p><p aria-hidden="true">also secret</p><p style="display: none">gone</p><p>Price: <b>$5.00</b></p>');
    expect(text).not.toMatch(/secret|gone|generic/);
    expect(text).not.toContain("StaticText 'Aurora Lamp'");
    expect(text).toContain("link 'Aurora Lamp', url='http://shop.test/p/1'");
    expect(text).toContain("StaticText 'Price:'");
    expect(text).toContain("StaticText '$5.00'");
  });

  it('uses Python quoting for names with quotes', () => {
    expect(tree("<h1>Results for 'lamp'</h1>", "Results for 'lamp'")).toBe(`RootWebArea "Results for 'lamp'", focused\n\t[1] heading "Results for 'lamp'"`);
  });
});
