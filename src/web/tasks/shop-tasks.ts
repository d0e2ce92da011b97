/**
 * Task templates of the shop (WebArena shopping style): prices, reviews, cheapest in a category,
 * order totals (information); sorted category lists (navigation); cart, checkout and account
 * changes (state); and an unachievable question (N/A). Oracle and wrong scripts come from the data.
 */
import { averageRating, CATEGORIES, SHIPPING_METHODS, type ShopData } from '../data/shop-data.ts';
import type { OracleStep, RandomSource, WebTaskTemplate } from '../interface.ts';
import { categoryUrl, sortProducts } from '../sites/shop.ts';
import { SITE_ORIGINS } from '../sites/site.ts';
import { amount, answer, button, choose, click, combobox, done, fill, link, searchbox, spinbutton, textbox } from './steps.ts';

type ShopTemplate = WebTaskTemplate<ShopData, ShopData>;

const search = (name: string): OracleStep[] => [fill(searchbox('Search'), name), click(button('Search')), click(link(name))];

function otherThan<T>(rng: RandomSource, items: readonly T[], differs: (item: T) => boolean): T {
  const pool = items.filter(differs);
  if (pool.length === 0) throw new Error('no distinct item to build a wrong answer from');
  return rng.pick(pool);
}

const price: ShopTemplate = {
  id: 't1', site: 'shop', kind: 'information', intentTemplate: 'What is the price of the {product}?',
  instantiate(data, rng) {
    const p = rng.pick(data.products);
    const other = otherThan(rng, data.products, (x) => x.priceCents !== p.priceCents);
    return { intent: `What is the price of the ${p.name}?`, check: { kind: 'string_match', mustInclude: [amount(p.priceCents)] }, oracle: [...search(p.name), answer(`$${amount(p.priceCents)}`)], wrong: [...search(p.name), answer(`$${amount(other.priceCents)}`)] };
  },
};

const reviews: ShopTemplate = {
  id: 't2', site: 'shop', kind: 'information', intentTemplate: 'How many reviews does the {product} have?',
  instantiate(data, rng) {
    const p = rng.pick(data.products);
    const n = p.reviews.length;
    return { intent: `How many reviews does the ${p.name} have?`, check: { kind: 'string_match', mustInclude: [String(n)] }, oracle: [...search(p.name), answer(String(n))], wrong: [...search(p.name), answer(String(n + 1))] };
  },
};

const cheapest: ShopTemplate = {
  id: 't3', site: 'shop', kind: 'information', intentTemplate: 'What is the cheapest product in the {category} category?',
  instantiate(data, rng) {
    const unique = Object.keys(CATEGORIES).filter((c) => {
      const sorted = sortProducts(data.products.filter((p) => p.category === c), 'price_asc');
      return sorted.length >= 2 && sorted[0]!.priceCents < sorted[1]!.priceCents;
    });
    const category = rng.pick(unique);
    const sorted = sortProducts(data.products.filter((p) => p.category === category), 'price_asc');
    const steps = [click(link(category)), choose(combobox('Sort by'), 'Price: low to high'), click(button('Sort'))];
    return { intent: `What is the cheapest product in the ${category} category?`, check: { kind: 'string_match', mustInclude: [sorted[0]!.name] }, oracle: [...steps, answer(sorted[0]!.name)], wrong: [...steps, answer(sorted.at(-1)!.name)] };
  },
};

const orderTotal: ShopTemplate = {
  id: 't4', site: 'shop', kind: 'information', intentTemplate: 'What was the total of my most recent {status} order?',
  instantiate(data, rng) {
    const mine = data.orders.filter((o) => o.customerId === 1).reverse();
    const status = rng.pick([...new Set(mine.map((o) => o.status))]);
    const index = mine.findIndex((o) => o.status === status);
    const order = mine[index]!;
    const other = otherThan(rng, mine, (o) => !amount(o.totalCents).includes(amount(order.totalCents)) && !amount(order.totalCents).includes(amount(o.totalCents)));
    const steps = [click(link('My Orders')), ...(index >= 5 ? [click(link('Next'))] : [])];
    return { intent: `What was the total of my most recent ${status} order?`, check: { kind: 'string_match', mustInclude: [amount(order.totalCents)] }, oracle: [...steps, answer(`$${amount(order.totalCents)}`)], wrong: [...steps, answer(`$${amount(other.totalCents)}`)] };
  },
};

const sortedList: ShopTemplate = {
  id: 't5', site: 'shop', kind: 'navigation', intentTemplate: 'Show me the {category} products sorted by price from high to low.',
  instantiate(_data, rng) {
    const category = rng.pick(Object.keys(CATEGORIES));
    const steps = (label: string) => [click(link(category)), choose(combobox('Sort by'), label), click(button('Sort')), done()];
    return { intent: `Show me the ${category} products sorted by price from high to low.`, check: { kind: 'url_match', url: categoryUrl(category, 'price_desc') }, oracle: steps('Price: high to low'), wrong: steps('Price: low to high') };
  },
};

const addToCart: ShopTemplate = {
  id: 't6', site: 'shop', kind: 'change', intentTemplate: 'Add {qty} {product} to my cart.',
  instantiate(data, rng) {
    const p = rng.pick(data.products);
    const qty = 2 + rng.int(3);
    const add = (n: number) => [...search(p.name), fill(spinbutton('Qty'), String(n)), click(button('Add to Cart')), done()];
    return {
      intent: `Add ${qty} ${p.name} to my cart.`,
      check: { kind: 'state', description: `the cart holds exactly ${qty} × ${p.sku}`, test: (s) => s.cart.some((l) => l.sku === p.sku && l.qty === qty) },
      oracle: add(qty), wrong: add(qty - 1),
    };
  },
};

const buy: ShopTemplate = {
  id: 't7', site: 'shop', kind: 'change', intentTemplate: 'Buy one {product} with {shipping} shipping.',
  instantiate(data, rng) {
    const p = rng.pick(data.products);
    const method = rng.pick(SHIPPING_METHODS.filter((s) => s.id !== 'standard'));
    const before = data.orders.length;
    const order = (id: string) => {
      const m = SHIPPING_METHODS.find((s) => s.id === id)!;
      return [...search(p.name), click(button('Add to Cart')), click(link('Proceed to Checkout')), choose(combobox('Shipping method'), `${m.label} $${amount(m.costCents)}`), click(button('Place Order')), done()];
    };
    return {
      intent: `Buy one ${p.name} with ${method.id} shipping.`,
      check: { kind: 'state', description: `a new order of 1 × ${p.sku} shipped ${method.id}`, test: (s) => s.orders.slice(before).some((o) => o.shipping === method.id && o.items.length === 1 && o.items[0]!.sku === p.sku && o.items[0]!.qty === 1) },
      oracle: order(method.id), wrong: order('standard'),
    };
  },
};

const phone: ShopTemplate = {
  id: 't8', site: 'shop', kind: 'change', intentTemplate: 'Change the phone number on my account to {phone}.',
  instantiate(data, rng) {
    const number = `555-${String(1000 + rng.int(9000))}`;
    const set = (value: string) => [click(link('My Account')), click(link('Edit account information')), fill(textbox('Phone'), value), click(button('Save')), done()];
    const wrong = number.replace(/.$/, (d) => String((Number(d) + 1) % 10));
    return { intent: `Change the phone number on my account to ${number}.`, check: { kind: 'state', description: `customer 1's phone is ${number}`, test: (s) => s.customers[0]!.phone === number }, oracle: set(number), wrong: set(wrong) };
  },
};

const absentReviews: ShopTemplate = {
  id: 't9', site: 'shop', kind: 'information', intentTemplate: 'How many reviews does the {product not sold here} have?',
  instantiate(data) {
    const steps = [fill(searchbox('Search'), data.absentProduct), click(button('Search'))];
    return { intent: `How many reviews does the ${data.absentProduct} have?`, check: { kind: 'string_match', exact: 'N/A' }, unachievable: true, oracle: [...steps, answer('N/A')], wrong: [...steps, answer('0')] };
  },
};

const rating: ShopTemplate = {
  id: 't10', site: 'shop', kind: 'information', intentTemplate: 'What is the average rating of the {product}?',
  instantiate(data, rng) {
    const rated = data.products.filter((p) => p.reviews.length > 0);
    const p = rng.pick(rated);
    const value = String(averageRating(p));
    const other = rng.pick(rated.filter((x) => String(averageRating(x)) !== value));
    return { intent: `What is the average rating of the ${p.name}?`, check: { kind: 'string_match', mustInclude: [value] }, oracle: [...search(p.name), answer(`${value} of 5`)], wrong: [...search(p.name), answer(`${averageRating(other)} of 5`)] };
  },
};

const searchSorted: ShopTemplate = {
  id: 't11', site: 'shop', kind: 'navigation', intentTemplate: "Search the shop for '{term}' and sort the results by name.",
  instantiate(data, rng) {
    const term = rng.pick(Object.values(CATEGORIES).flat()).split(' ').at(-1)!;
    const steps = (label: string) => [fill(searchbox('Search'), term), click(button('Search')), choose(combobox('Sort by'), label), click(button('Sort')), done()];
    return { intent: `Search the shop for '${term}' and sort the results by name.`, check: { kind: 'url_match', url: `${SITE_ORIGINS.shop}/search?q=${encodeURIComponent(term)}&sort=name` }, oracle: steps('Name'), wrong: steps('Rating') };
  },
};

const cartTwo: ShopTemplate = {
  id: 't12', site: 'shop', kind: 'change', intentTemplate: 'Put one {product} and one {product 2} in my cart.',
  instantiate(data, rng) {
    const [p, q] = rng.shuffle(data.products);
    const add = (second: boolean) => [...search(p!.name), click(button('Add to Cart')), ...(second ? [click(link('Home')), ...search(q!.name), click(button('Add to Cart'))] : []), done()];
    const lines = (cart: ShopData['cart']) => cart.map((l) => `${l.sku}×${l.qty}`).sort().join(',');
    const want = [`${p!.sku}×1`, `${q!.sku}×1`].sort().join(',');
    return {
      intent: `Put one ${p!.name} and one ${q!.name} in my cart.`,
      check: { kind: 'state', description: `the cart holds exactly ${want}`, test: (s) => lines(s.cart) === want },
      oracle: add(true), wrong: add(false),
    };
  },
};

const coupon: ShopTemplate = {
  id: 't47', site: 'shop', kind: 'change', teaching: true, intentTemplate: "Buy one {product} using this week's coupon code.",
  instantiate(data, rng) {
    const p = rng.pick(data.products);
    const before = data.orders.length;
    const buy = (code: string | null) => [
      ...(code ? [click(link('My Account')), click(link('Home'))] : []), ...search(p.name), click(button('Add to Cart')), click(link('Proceed to Checkout')),
      ...(code ? [fill(textbox('Coupon code'), code)] : []), click(button('Place Order')), done(),
    ];
    return {
      intent: `Buy one ${p.name} using this week's coupon code.`,
      check: { kind: 'state', description: `a new order of 1 × ${p.sku} with coupon ${data.coupon}`, test: (s) => s.orders.slice(before).some((o) => o.coupon === s.coupon && o.items.length === 1 && o.items[0]!.sku === p.sku && o.items[0]!.qty === 1) },
      oracle: buy(data.coupon), wrong: buy(null),
    };
  },
};

export const SHOP_TEMPLATES: readonly ShopTemplate[] = [price, reviews, cheapest, orderTotal, sortedList, addToCart, buy, phone, absentReviews, rating, searchSorted, cartTwo, coupon];
