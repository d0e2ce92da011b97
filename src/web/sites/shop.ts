/**
 * The shop (WebArena's shopping site, a Magento storefront, in miniature): home with search and
 * categories, category lists with sorting and pagination, search, product pages with reviews, cart,
 * checkout, order history and the account. The shopper is customer 1. State: the `ShopData`.
 */
import { averageRating, CATEGORIES, COUPON_PERCENT, orderTotal, SHIPPING_METHODS, type Product, type ShopData } from '../data/shop-data.ts';
import { html, money, slug, withQuery } from './html.ts';
import { field, layout, notFoundPage, page, pager, paginate, postButton, redirect, Router, selectField, SITE_ORIGINS, table, textField, type Site, type WebResponse } from './site.ts';

const NAME = 'Shop';
const NAV: [string, string][] = [['/', 'Home'], ['/cart', 'Cart'], ['/orders', 'My Orders'], ['/account', 'My Account']];
const PER_PAGE = 5;

/** Sort keys of product lists (query `sort`). */
export const PRODUCT_SORTS: [string, string][] = [['position', 'Position'], ['name', 'Name'], ['price_asc', 'Price: low to high'], ['price_desc', 'Price: high to low'], ['rating', 'Rating']];

/** The date new orders get (the shop's "today"). */
export const SHOP_TODAY = '2024-01-15';

/** Products sorted as the shop lists them. */
export function sortProducts(products: readonly Product[], sort: string | null): Product[] {
  const out = [...products];
  if (sort === 'name') out.sort((a, b) => a.name.localeCompare(b.name));
  else if (sort === 'price_asc') out.sort((a, b) => a.priceCents - b.priceCents);
  else if (sort === 'price_desc') out.sort((a, b) => b.priceCents - a.priceCents);
  else if (sort === 'rating') out.sort((a, b) => (averageRating(b) ?? 0) - (averageRating(a) ?? 0));
  return out;
}

/** Products whose name contains every word of `query` (case-insensitive). */
export function searchProducts(products: readonly Product[], query: string): Product[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return products.filter((p) => words.every((w) => p.name.toLowerCase().includes(w)));
}

function productList(data: ShopData, path: string, heading: string, products: Product[], query: URLSearchParams, extra: Record<string, string | null>, flash: string | null): WebResponse {
  const sort = query.get('sort');
  const { items, page: current, pages } = paginate(sortProducts(products, sort), query.get('page'), PER_PAGE);
  const hidden = Object.entries(extra).map(([k, v]) => (v ? html`<input type="hidden" name="${k}" value="${v}">` : ''));
  const body = html`<form method="get" action="${path}">${hidden}${selectField('sort', 'Sort by', PRODUCT_SORTS, sort ?? 'position')} <button type="submit">Sort</button></form>
<p>${products.length} ${products.length === 1 ? 'item' : 'items'}</p>
<ul>${items.map((p) => html`<li><a href="/product/${p.sku}">${p.name}</a> <span>${money(p.priceCents)}</span></li>`)}</ul>
${pager(path, { ...extra, sort }, current, pages)}`;
  return page(`${heading} – ${NAME}`, layout(NAME, NAV, heading, body, flash));
}

function productPage(data: ShopData, sku: string, flash: string | null): WebResponse | null {
  const p = data.products.find((x) => x.sku === sku);
  if (!p) return null;
  const rating = averageRating(p);
  const body = html`<p>Price: ${money(p.priceCents)}</p><p>Category: <a href="/category/${slug(p.category)}">${p.category}</a></p>
<p>${p.stock > 0 ? `In stock: ${p.stock}` : 'Out of stock'}</p><p>Rating: ${rating === null ? 'no ratings yet' : `${rating} of 5`}</p>
<form method="post" action="/cart/add"><input type="hidden" name="sku" value="${p.sku}">${textField('qty', 'Qty', '1', 'number')} <button type="submit">Add to Cart</button></form>
<section aria-label="Reviews"><h2>Reviews (${p.reviews.length})</h2><ul>${p.reviews.map((r) => html`<li><strong>${r.title}</strong> by ${r.author}, ${r.rating} stars</li>`)}</ul></section>`;
  return page(`${p.name} – ${NAME}`, layout(NAME, NAV, p.name, body, flash));
}

function cartPage(data: ShopData, flash: string | null): WebResponse {
  const lines = data.cart.map((line) => ({ line, product: data.products.find((p) => p.sku === line.sku)! }));
  const body = lines.length === 0
    ? html`<p>Your cart is empty.</p>`
    : html`${table('Cart', ['Product', 'Qty', 'Price', 'Subtotal', ''], lines.map(({ line, product }) => [product.name, line.qty, money(product.priceCents), money(product.priceCents * line.qty), postButton('/cart/remove', `Remove ${product.name}`, { sku: product.sku })]))}
<p><a href="/checkout">Proceed to Checkout</a></p>`;
  return page(`Cart – ${NAME}`, layout(NAME, NAV, 'Shopping Cart', body, flash));
}

function checkoutPage(data: ShopData, flash: string | null): WebResponse {
  const me = data.customers[0]!;
  if (data.cart.length === 0) return page(`Checkout – ${NAME}`, layout(NAME, NAV, 'Checkout', html`<p>Your cart is empty.</p>`));
  const body = html`<form method="post" action="/checkout">${textField('address', 'Shipping address', me.address)}
${selectField('shipping', 'Shipping method', SHIPPING_METHODS.map((s) => [s.id, `${s.label} ${money(s.costCents)}`]), 'standard')}
${textField('coupon', 'Coupon code')}
<button type="submit">Place Order</button></form>`;
  return page(`Checkout – ${NAME}`, layout(NAME, NAV, 'Checkout', body, flash));
}

function ordersPage(data: ShopData, query: URLSearchParams): WebResponse {
  const mine = data.orders.filter((o) => o.customerId === 1).reverse();
  const { items, page: current, pages } = paginate(mine, query.get('page'), PER_PAGE);
  const body = html`${table('My orders', ['Order #', 'Date', 'Status', 'Total', ''], items.map((o) => [o.number, o.date, o.status, money(o.totalCents), html`<a href="/orders/${o.number}">View order ${o.number}</a>`]))}
${pager('/orders', {}, current, pages)}`;
  return page(`My Orders – ${NAME}`, layout(NAME, NAV, 'My Orders', body));
}

function orderPage(data: ShopData, number: string, flash: string | null): WebResponse | null {
  const o = data.orders.find((x) => x.number === number && x.customerId === 1);
  if (!o) return null;
  const body = html`<p>Date: ${o.date}</p><p>Status: ${o.status}</p><p>Shipping: ${o.shipping}</p>
${table('Items', ['Product', 'Qty', 'Price'], o.items.map((i) => [i.name, i.qty, money(i.priceCents)]))}<p>Total: ${money(o.totalCents)}</p>`;
  return page(`Order ${o.number} – ${NAME}`, layout(NAME, NAV, `Order #${o.number}`, body, flash));
}

function accountPage(data: ShopData, flash: string | null): WebResponse {
  const me = data.customers[0]!;
  const body = html`<dl><dt>Name</dt><dd>${me.name}</dd><dt>Email</dt><dd>${me.email}</dd><dt>Phone</dt><dd>${me.phone}</dd><dt>Address</dt><dd>${me.address}</dd></dl><p><a href="/account/edit">Edit account information</a></p>
<p>This week's coupon code: ${data.coupon} (${COUPON_PERCENT}% off your next order)</p>`;
  return page(`My Account – ${NAME}`, layout(NAME, NAV, 'My Account', body, flash));
}

function accountEditPage(data: ShopData): WebResponse {
  const me = data.customers[0]!;
  const body = html`<form method="post" action="/account/edit">${textField('name', 'Name', me.name)} ${textField('email', 'Email', me.email, 'email')} ${textField('phone', 'Phone', me.phone, 'tel')} ${textField('address', 'Address', me.address)} <button type="submit">Save</button></form>`;
  return page(`Edit Account – ${NAME}`, layout(NAME, NAV, 'Edit Account Information', body));
}

function homePage(data: ShopData): WebResponse {
  const body = html`<form method="get" action="/search" role="search">${textField('q', 'Search', '', 'search')} <button type="submit">Search</button></form>
<nav aria-label="Categories"><h2>Categories</h2><ul>${Object.keys(CATEGORIES).map((c) => html`<li><a href="/category/${slug(c)}">${c}</a></li>`)}</ul></nav>
<h2>New arrivals</h2><ul>${data.products.slice(-3).map((p) => html`<li><a href="/product/${p.sku}">${p.name}</a></li>`)}</ul>`;
  return page(`Home – ${NAME}`, layout(NAME, NAV, 'Welcome to the Shop', body));
}

/** The shop over `data` (mutated by cart, checkout and account changes). */
export function createShop(data: ShopData): Site<ShopData> {
  let flash: string | null = null;
  const takeFlash = () => {
    const f = flash;
    flash = null;
    return f;
  };
  const notFound = (path: string) => notFoundPage(NAME, NAV, path);
  const router = new Router()
    .add('GET', /^\/$/, () => homePage(data))
    .add('GET', /^\/category\/([^/]+)$/, ([s], r) => {
      const category = Object.keys(CATEGORIES).find((c) => slug(c) === s);
      if (!category) return notFound(r.path);
      return productList(data, r.path, category, data.products.filter((p) => p.category === category), r.query, {}, takeFlash());
    })
    .add('GET', /^\/search$/, (_, r) => {
      const q = (r.query.get('q') ?? '').trim();
      return productList(data, '/search', `Search results for '${q}'`, searchProducts(data.products, q), r.query, { q }, null);
    })
    .add('GET', /^\/product\/([^/]+)$/, ([sku], r) => productPage(data, sku!, takeFlash()) ?? notFound(r.path))
    .add('POST', /^\/cart\/add$/, (_, r) => {
      const sku = field(r.form, 'sku');
      const qty = Number.parseInt(field(r.form, 'qty'), 10);
      const product = data.products.find((p) => p.sku === sku);
      if (!product) return notFound(r.path);
      if (!(qty >= 1)) {
        flash = 'Please enter a quantity of at least 1.';
        return redirect(`/product/${sku}`);
      }
      const line = data.cart.find((l) => l.sku === sku);
      if (line) line.qty += qty;
      else data.cart.push({ sku, qty });
      flash = `You added ${product.name} to your shopping cart.`;
      return redirect('/cart');
    })
    .add('POST', /^\/cart\/remove$/, (_, r) => {
      data.cart = data.cart.filter((l) => l.sku !== field(r.form, 'sku'));
      return redirect('/cart');
    })
    .add('GET', /^\/cart$/, () => cartPage(data, takeFlash()))
    .add('GET', /^\/checkout$/, () => checkoutPage(data, takeFlash()))
    .add('POST', /^\/checkout$/, (_, r) => {
      if (data.cart.length === 0) return redirect('/cart');
      const shipping = SHIPPING_METHODS.some((s) => s.id === field(r.form, 'shipping')) ? field(r.form, 'shipping') : 'standard';
      const items = data.cart.map((l) => {
        const p = data.products.find((x) => x.sku === l.sku)!;
        return { sku: p.sku, name: p.name, qty: l.qty, priceCents: p.priceCents };
      });
      const coupon = field(r.form, 'coupon');
      if (coupon && coupon.toUpperCase() !== data.coupon) {
        flash = `The coupon code '${coupon}' is not valid. This week's code is shown on the My Account page.`;
        return redirect('/checkout');
      }
      const number = String(data.orders.length + 1).padStart(6, '0');
      const full = orderTotal(items, shipping);
      data.orders.push({ number, customerId: 1, date: SHOP_TODAY, status: 'pending', items, shipping, totalCents: coupon ? Math.round(full * (1 - COUPON_PERCENT / 100)) : full, ...(coupon ? { coupon: data.coupon } : {}) });
      data.cart = [];
      flash = `Thank you for your purchase! Your order number is ${number}.${coupon ? ` Coupon ${data.coupon} saved you ${COUPON_PERCENT}%.` : ' No coupon was used: this week\'s code is on the My Account page.'}`;
      return redirect(`/orders/${number}`);
    })
    .add('GET', /^\/orders$/, (_, r) => ordersPage(data, r.query))
    .add('GET', /^\/orders\/(\d+)$/, ([n], r) => orderPage(data, n!, takeFlash()) ?? notFound(r.path))
    .add('GET', /^\/account$/, () => accountPage(data, takeFlash()))
    .add('GET', /^\/account\/edit$/, () => accountEditPage(data))
    .add('POST', /^\/account\/edit$/, (_, r) => {
      const me = data.customers[0]!;
      for (const key of ['name', 'email', 'phone', 'address'] as const) if (field(r.form, key)) me[key] = field(r.form, key);
      flash = 'You saved the account information.';
      return redirect('/account');
    });
  return { id: 'shop', origin: SITE_ORIGINS.shop, state: data, handle: (request) => router.handle(request, () => notFound(request.path)) };
}

/** The URL of a product list sorted by `sort` (for url_match references). */
export function categoryUrl(category: string, sort: string): string {
  return SITE_ORIGINS.shop + withQuery(`/category/${slug(category)}`, { sort });
}
