import { describe, expect, it } from 'vitest';
import { bidSelector, webPageDocument } from './web-page-doc.ts';

describe('webPageDocument', () => {
  const page = { url: 'http://shop.test/product/3', title: 'Lamp <3', html: '<h1 bid="4">Lamp</h1><button bid="12">Add to Cart</button>', targetBid: '12' };

  it('wraps the body, escapes the title, outlines the acted element and loads nothing', () => {
    const doc = webPageDocument(page);
    expect(doc).toContain('<body><h1 bid="4">Lamp</h1><button bid="12">Add to Cart</button></body>');
    expect(doc).toContain('<title>Lamp &lt;3</title>');
    expect(doc).toContain('[bid="12"] { outline: 3px solid');
    expect(doc).toContain("default-src 'none'");
  });

  it('has no highlight rule without a target, and escapes a hostile bid inside the CSS string', () => {
    expect(webPageDocument({ ...page, targetBid: null })).not.toContain('outline: 3px');
    expect(bidSelector('a"b</style>')).toBe('[bid="a\\22 b\\3c /style>"]');
  });
});
