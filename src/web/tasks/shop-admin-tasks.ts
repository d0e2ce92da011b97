/**
 * Task templates of the shop admin (WebArena shopping_admin style): order counts by status, monthly
 * revenue, who placed an order, stock levels (information); filtered order lists (navigation); price
 * and order status changes (state); an unknown customer (N/A). Scripts come from the data.
 */
import { ORDER_STATUSES, ORDER_YEAR, type ShopData } from '../data/shop-data.ts';
import type { WebTaskTemplate } from '../interface.ts';
import { adminOrders, monthLabel, salesReport } from '../sites/shop-admin.ts';
import { SITE_ORIGINS } from '../sites/site.ts';
import { amount, answer, button, choose, click, combobox, done, fill, goto, link, searchbox, textbox } from './steps.ts';

type AdminTemplate = WebTaskTemplate<ShopData, ShopData>;
const ORIGIN = SITE_ORIGINS['shop-admin'];

const countByStatus: AdminTemplate = {
  id: 't13', site: 'shop-admin', kind: 'information', intentTemplate: 'How many orders are in status {status}?',
  instantiate(data, rng) {
    const status = rng.pick(ORDER_STATUSES);
    const n = adminOrders(data, status).length;
    const steps = [click(link('Orders')), choose(combobox('Status'), status), click(button('Filter'))];
    return { intent: `How many orders are in status ${status}?`, check: { kind: 'string_match', mustInclude: [String(n)] }, oracle: [...steps, answer(String(n))], wrong: [...steps, answer(String(n + 1))] };
  },
};

const revenue: AdminTemplate = {
  id: 't14', site: 'shop-admin', kind: 'information', intentTemplate: 'What was the revenue in {month} according to the sales report?',
  instantiate(data, rng) {
    const months = Array.from({ length: 12 }, (_, i) => `${ORDER_YEAR}-${String(i + 1).padStart(2, '0')}`);
    const month = rng.pick(months.filter((m) => salesReport(data, m).orders > 0));
    const right = amount(salesReport(data, month).revenueCents);
    const other = amount(salesReport(data, rng.pick(months.filter((m) => amount(salesReport(data, m).revenueCents) !== right))).revenueCents);
    const steps = [click(link('Reports')), choose(combobox('Period'), monthLabel(month)), click(button('Show Report'))];
    return { intent: `What was the revenue in ${monthLabel(month)} according to the sales report?`, check: { kind: 'string_match', mustInclude: [right] }, oracle: [...steps, answer(`$${right}`)], wrong: [...steps, answer(`$${other}`)] };
  },
};

const whoOrdered: AdminTemplate = {
  id: 't15', site: 'shop-admin', kind: 'information', intentTemplate: 'Which customer placed order #{number}?',
  instantiate(data, rng) {
    const o = rng.pick(data.orders);
    const name = data.customers.find((c) => c.id === o.customerId)!.name;
    const other = rng.pick(data.customers.filter((c) => c.name !== name)).name;
    const steps = [goto(`${ORIGIN}/orders/${o.number}`)];
    return { intent: `Which customer placed order #${o.number}?`, check: { kind: 'string_match', mustInclude: [name] }, oracle: [...steps, answer(name)], wrong: [...steps, answer(other)] };
  },
};

const stock: AdminTemplate = {
  id: 't16', site: 'shop-admin', kind: 'information', intentTemplate: 'How many units of the {product} are in stock?',
  instantiate(data, rng) {
    const p = rng.pick(data.products);
    const steps = [click(link('Products')), fill(searchbox('Search products'), p.name), click(button('Search'))];
    return { intent: `How many units of the ${p.name} are in stock?`, check: { kind: 'string_match', mustInclude: [String(p.stock)] }, oracle: [...steps, answer(String(p.stock))], wrong: [...steps, answer(String(p.stock + 1))] };
  },
};

const setPrice: AdminTemplate = {
  id: 't17', site: 'shop-admin', kind: 'change', intentTemplate: 'Set the price of the {product} to ${price}.',
  instantiate(data, rng) {
    const p = rng.pick(data.products);
    const cents = Math.max(100, p.priceCents + (rng.int(2) === 0 ? -1 : 1) * (100 + rng.int(20) * 50));
    const set = (value: number) => [click(link('Products')), fill(searchbox('Search products'), p.name), click(button('Search')), click(link(p.name)), fill(textbox('Price'), amount(value)), click(button('Save Product')), done()];
    return {
      intent: `Set the price of the ${p.name} to $${amount(cents)}.`,
      check: { kind: 'state', description: `${p.sku} costs ${cents} cents`, test: (s) => s.products.find((x) => x.sku === p.sku)?.priceCents === cents },
      oracle: set(cents), wrong: set(cents + 100),
    };
  },
};

const setStatus: AdminTemplate = {
  id: 't18', site: 'shop-admin', kind: 'change', intentTemplate: 'Change the status of order #{number} to {status}.',
  instantiate(data, rng) {
    const o = rng.pick(data.orders);
    const [status, other] = rng.shuffle(ORDER_STATUSES.filter((s) => s !== o.status));
    const set = (value: string) => [goto(`${ORIGIN}/orders/${o.number}`), choose(combobox('New status'), value), click(button('Update Status')), done()];
    return {
      intent: `Change the status of order #${o.number} to ${status}.`,
      check: { kind: 'state', description: `order ${o.number} is ${status}`, test: (s) => s.orders.find((x) => x.number === o.number)?.status === status },
      oracle: set(status!), wrong: set(other!),
    };
  },
};

const filtered: AdminTemplate = {
  id: 't19', site: 'shop-admin', kind: 'navigation', intentTemplate: 'Show me all orders in status {status}.',
  instantiate(_data, rng) {
    const [status, other] = rng.shuffle(ORDER_STATUSES);
    const show = (value: string) => [click(link('Orders')), choose(combobox('Status'), value), click(button('Filter')), done()];
    return { intent: `Show me all orders in status ${status}.`, check: { kind: 'url_match', url: `${ORIGIN}/orders?status=${status}` }, oracle: show(status!), wrong: show(other!) };
  },
};

const absentCustomer: AdminTemplate = {
  id: 't20', site: 'shop-admin', kind: 'information', intentTemplate: 'What is the phone number of the customer {unknown customer}?',
  instantiate(data, rng) {
    const steps = [click(link('Customers')), fill(searchbox('Search customers'), data.absentCustomer), click(button('Search'))];
    return { intent: `What is the phone number of the customer ${data.absentCustomer}?`, check: { kind: 'string_match', exact: 'N/A' }, unachievable: true, oracle: [...steps, answer('N/A')], wrong: [...steps, answer(rng.pick(data.customers).phone)] };
  },
};

export const SHOP_ADMIN_TEMPLATES: readonly AdminTemplate[] = [countByStatus, revenue, whoOrdered, stock, setPrice, setStatus, filtered, absentCustomer];
