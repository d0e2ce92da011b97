/**
 * The shop's admin back office (WebArena's shopping_admin, a Magento admin, in miniature): orders
 * with a status filter and status changes, products with search and price / stock editing,
 * customers, and a monthly sales report. Same `ShopData` as the shop.
 */
import { ORDER_STATUSES, ORDER_YEAR, type Order, type ShopData } from '../data/shop-data.ts';
import { html, money, withQuery } from './html.ts';
import { field, layout, notFoundPage, page, pager, paginate, redirect, Router, selectField, SITE_ORIGINS, table, textField, type Site, type WebResponse } from './site.ts';

const NAME = 'Shop Admin';
const NAV: [string, string][] = [['/', 'Dashboard'], ['/orders', 'Orders'], ['/products', 'Products'], ['/customers', 'Customers'], ['/reports/sales', 'Reports']];
const PER_PAGE = 10;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2023-03" → "March 2023". */
export function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  return `${MONTHS[Number(m) - 1]} ${year}`;
}

/** Orders of a month (YYYY-MM) and their revenue: totals of orders not canceled, in cents. */
export function salesReport(data: ShopData, month: string): { orders: number; revenueCents: number; items: number } {
  const orders = data.orders.filter((o) => o.date.startsWith(month) && o.status !== 'canceled');
  return { orders: orders.length, revenueCents: orders.reduce((s, o) => s + o.totalCents, 0), items: orders.reduce((s, o) => s + o.items.reduce((n, i) => n + i.qty, 0), 0) };
}

/** Orders as the admin lists them: newest first, filtered by status ('' = all). */
export function adminOrders(data: ShopData, status: string): Order[] {
  return data.orders.filter((o) => !status || o.status === status).reverse();
}

export function createShopAdmin(data: ShopData): Site<ShopData> {
  let flash: string | null = null;
  const takeFlash = () => [flash, (flash = null)][0];
  const frame = (title: string, body: ReturnType<typeof html>, status: 200 | 404 = 200): WebResponse => page(`${title} – ${NAME}`, layout(NAME, NAV, title, body, takeFlash()), status);
  const customerName = (id: number) => data.customers.find((c) => c.id === id)?.name ?? 'Guest';
  const notFound = (path: string) => notFoundPage(NAME, NAV, path);

  const orders = (q: URLSearchParams) => {
    const status = ORDER_STATUSES.includes(q.get('status') as Order['status']) ? q.get('status')! : '';
    const list = adminOrders(data, status);
    const { items, page: current, pages } = paginate(list, q.get('page'), PER_PAGE);
    return frame('Orders', html`<form method="get" action="/orders">${selectField('status', 'Status', [['', 'All'], ...ORDER_STATUSES.map((s): [string, string] => [s, s])], status)} <button type="submit">Filter</button></form>
<p>${list.length} orders found</p>
${table('Orders', ['Order #', 'Date', 'Customer', 'Status', 'Total', ''], items.map((o) => [o.number, o.date, customerName(o.customerId), o.status, money(o.totalCents), html`<a href="/orders/${o.number}">View ${o.number}</a>`]))}
${pager('/orders', { status: status || null }, current, pages)}`);
  };

  const order = (number: string, path: string) => {
    const o = data.orders.find((x) => x.number === number);
    if (!o) return notFound(path);
    return frame(`Order #${o.number}`, html`<p>Customer: <a href="/customers/${o.customerId}">${customerName(o.customerId)}</a></p><p>Date: ${o.date}</p><p>Status: ${o.status}</p><p>Shipping: ${o.shipping}</p>
${table('Items', ['Product', 'SKU', 'Qty', 'Price'], o.items.map((i) => [i.name, i.sku, i.qty, money(i.priceCents)]))}<p>Total: ${money(o.totalCents)}</p>
<form method="post" action="/orders/${o.number}/status">${selectField('status', 'New status', ORDER_STATUSES.map((s) => [s, s]), o.status)} <button type="submit">Update Status</button></form>`);
  };

  const products = (q: URLSearchParams) => {
    const term = (q.get('q') ?? '').trim().toLowerCase();
    const list = data.products.filter((p) => !term || p.name.toLowerCase().includes(term) || p.sku.toLowerCase() === term);
    const { items, page: current, pages } = paginate(list, q.get('page'), PER_PAGE);
    return frame('Products', html`<form method="get" action="/products" role="search">${textField('q', 'Search products', q.get('q') ?? '', 'search')} <button type="submit">Search</button></form>
${table('Products', ['Name', 'SKU', 'Price', 'Stock'], items.map((p) => [html`<a href="/products/${p.sku}">${p.name}</a>`, p.sku, money(p.priceCents), p.stock]))}
${pager('/products', { q: term || null }, current, pages)}`);
  };

  const product = (sku: string, path: string) => {
    const p = data.products.find((x) => x.sku === sku);
    if (!p) return notFound(path);
    return frame(`Edit ${p.name}`, html`<p>SKU: ${p.sku}</p><p>Category: ${p.category}</p><form method="post" action="/products/${p.sku}">${textField('price', 'Price', (p.priceCents / 100).toFixed(2))} ${textField('stock', 'Stock quantity', String(p.stock), 'number')} <button type="submit">Save Product</button></form>`);
  };

  const customers = (q: URLSearchParams) => {
    const term = (q.get('q') ?? '').trim().toLowerCase();
    const list = data.customers.filter((c) => !term || c.name.toLowerCase().includes(term) || c.email.includes(term));
    const { items, page: current, pages } = paginate(list, q.get('page'), PER_PAGE);
    return frame('Customers', html`<form method="get" action="/customers" role="search">${textField('q', 'Search customers', q.get('q') ?? '', 'search')} <button type="submit">Search</button></form>
${list.length === 0 ? html`<p>No customers match '${q.get('q') ?? ''}'.</p>` : table('Customers', ['Name', 'Email', 'Phone'], items.map((c) => [html`<a href="/customers/${c.id}">${c.name}</a>`, c.email, c.phone]))}
${pager('/customers', { q: term || null }, current, pages)}`);
  };

  const customer = (id: string, path: string) => {
    const c = data.customers.find((x) => String(x.id) === id);
    if (!c) return notFound(path);
    const theirs = data.orders.filter((o) => o.customerId === c.id).reverse();
    return frame(c.name, html`<dl><dt>Email</dt><dd>${c.email}</dd><dt>Phone</dt><dd>${c.phone}</dd><dt>Address</dt><dd>${c.address}</dd></dl>
${table('Orders of this customer', ['Order #', 'Date', 'Status', 'Total'], theirs.map((o) => [html`<a href="/orders/${o.number}">${o.number}</a>`, o.date, o.status, money(o.totalCents)]))}`);
  };

  const report = (q: URLSearchParams) => {
    const months = MONTHS.map((_, i) => `${ORDER_YEAR}-${String(i + 1).padStart(2, '0')}`);
    const month = months.includes(q.get('month') ?? '') ? q.get('month')! : null;
    const form = html`<form method="get" action="/reports/sales">${selectField('month', 'Period', months.map((m) => [m, monthLabel(m)]), month)} <button type="submit">Show Report</button></form>`;
    if (!month) return frame('Sales Report', html`${form}<p>Choose a period.</p>`);
    const r = salesReport(data, month);
    return frame('Sales Report', html`${form}<h2>${monthLabel(month)}</h2><p>Orders: ${r.orders}</p><p>Items sold: ${r.items}</p><p>Revenue: ${money(r.revenueCents)}</p><p>Canceled orders are not counted.</p>`);
  };

  const router = new Router()
    .add('GET', /^\/$/, () => frame('Dashboard', html`<p>${data.orders.length} orders, ${data.products.length} products, ${data.customers.length} customers.</p><ul>${NAV.slice(1).map(([href, label]) => html`<li><a href="${href}">Manage ${label.toLowerCase()}</a></li>`)}</ul>`))
    .add('GET', /^\/orders$/, (_, r) => orders(r.query))
    .add('GET', /^\/orders\/(\d+)$/, ([n], r) => order(n!, r.path))
    .add('POST', /^\/orders\/(\d+)\/status$/, ([n], r) => {
      const o = data.orders.find((x) => x.number === n);
      const status = field(r.form, 'status') as Order['status'];
      if (!o) return notFound(r.path);
      if (ORDER_STATUSES.includes(status)) {
        o.status = status;
        flash = `Order #${o.number} is now ${status}.`;
      }
      return redirect(`/orders/${n}`);
    })
    .add('GET', /^\/products$/, (_, r) => products(r.query))
    .add('GET', /^\/products\/([^/]+)$/, ([sku], r) => product(sku!, r.path))
    .add('POST', /^\/products\/([^/]+)$/, ([sku], r) => {
      const p = data.products.find((x) => x.sku === sku);
      if (!p) return notFound(r.path);
      const price = Number(field(r.form, 'price').replace(/^\$/, ''));
      const stock = Number(field(r.form, 'stock'));
      if (!Number.isFinite(price) || price < 0 || !Number.isInteger(stock) || stock < 0) {
        flash = 'Price must be a non-negative amount and stock a whole number.';
        return redirect(`/products/${sku}`);
      }
      p.priceCents = Math.round(price * 100);
      p.stock = stock;
      flash = `You saved ${p.name}.`;
      return redirect(withQuery('/products', { q: p.sku }));
    })
    .add('GET', /^\/customers$/, (_, r) => customers(r.query))
    .add('GET', /^\/customers\/(\d+)$/, ([id], r) => customer(id!, r.path))
    .add('GET', /^\/reports\/sales$/, (_, r) => report(r.query));
  return { id: 'shop-admin', origin: SITE_ORIGINS['shop-admin'], state: data, handle: (request) => router.handle(request, () => notFound(request.path)) };
}
