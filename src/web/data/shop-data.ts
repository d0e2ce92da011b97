/**
 * The store behind the shop and its admin back office (WebArena's Magento storefront and admin):
 * products with prices, stock and reviews; customers; orders with dates, items and statuses. All
 * generated from the seed; money in integer cents. Customer 1 is the shopper logged in to the shop.
 */
import type { RandomSource } from '../interface.ts';
import { BRANDS, between, distinct, isoDate, personName, STREETS } from './words.ts';

export const CATEGORIES: Record<string, string[]> = {
  Kitchen: ['Coffee Grinder', 'Chef Knife', 'Tea Kettle', 'Cutting Board', 'Stand Mixer', 'Spice Rack'],
  Electronics: ['Desk Lamp', 'Wireless Speaker', 'USB Hub', 'Headphones', 'Power Bank', 'Webcam'],
  Garden: ['Watering Can', 'Pruning Shears', 'Planter Box', 'Garden Hose', 'Bird Feeder', 'Rake'],
  Outdoor: ['Camping Tent', 'Sleeping Bag', 'Trail Backpack', 'Water Bottle', 'Headlamp', 'Folding Chair'],
  Office: ['Notebook Set', 'Fountain Pen', 'Desk Organizer', 'Paper Tray', 'Monitor Stand', 'Stapler'],
};

export const ORDER_STATUSES = ['pending', 'processing', 'complete', 'canceled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const SHIPPING_METHODS: { id: string; label: string; costCents: number }[] = [
  { id: 'standard', label: 'Standard (5–7 days)', costCents: 500 },
  { id: 'express', label: 'Express (1–2 days)', costCents: 1500 },
  { id: 'pickup', label: 'Store pickup', costCents: 0 },
];

export interface Review {
  author: string;
  /** 1–5 stars. */
  rating: number;
  title: string;
}

export interface Product {
  sku: string;
  name: string;
  category: string;
  priceCents: number;
  stock: number;
  reviews: Review[];
}

export interface Customer {
  id: number;
  name: string;
  email: string;
  phone: string;
  address: string;
}

export interface OrderItem {
  sku: string;
  name: string;
  qty: number;
  priceCents: number;
}

export interface Order {
  /** e.g. "000042". */
  number: string;
  customerId: number;
  /** YYYY-MM-DD. */
  date: string;
  status: OrderStatus;
  items: OrderItem[];
  shipping: string;
  /** Items plus shipping, less the coupon's discount, in cents. */
  totalCents: number;
  /** The coupon code used (orders placed in the episode only). */
  coupon?: string;
}

export interface ShopData {
  products: Product[];
  customers: Customer[];
  orders: Order[];
  /** Lines in the shopper's cart. */
  cart: { sku: string; qty: number }[];
  /** A product name that exists nowhere in the store (for unachievable tasks). */
  absentProduct: string;
  /** A customer name that exists nowhere (for unachievable tasks). */
  absentCustomer: string;
  /** This week's coupon code (10% off), shown only on the account page. */
  coupon: string;
}

/** The coupon's discount in percent. */
export const COUPON_PERCENT = 10;

const REVIEW_TITLES = ['Works as described', 'Great value', 'Stopped working', 'Better than expected', 'Not for me', 'Solid build', 'Would buy again', 'Too small'];

/** The year the orders fall in. */
export const ORDER_YEAR = 2023;

function price(rng: RandomSource): number {
  return between(rng, 5, 180) * 100 + rng.pick([0, 49, 50, 99]);
}

/** Generate the store for a seed. */
export function generateShop(rng: RandomSource): ShopData {
  const allNames = Object.entries(CATEGORIES).flatMap(([category, nouns]) => nouns.map((noun) => ({ category, noun })));
  const picks = distinct(36, () => ({ ...rng.pick(allNames), brand: rng.pick(BRANDS) }), (p) => `${p.brand} ${p.noun}`);
  const products: Product[] = picks.map((p, i) => ({
    sku: `SKU-${String(101 + i)}`,
    name: `${p.brand} ${p.noun}`,
    category: p.category,
    priceCents: price(rng),
    stock: rng.int(60),
    reviews: Array.from({ length: rng.int(6) }, () => ({ author: personName(rng), rating: between(rng, 1, 5), title: rng.pick(REVIEW_TITLES) })),
  }));
  const names = distinct(14, () => personName(rng));
  const customers: Customer[] = names.map((name, i) => ({
    id: i + 1,
    name,
    email: `${name.toLowerCase().replace(' ', '.')}@example.test`,
    phone: `555-${String(between(rng, 1000, 9999))}`,
    address: `${between(rng, 1, 99)} ${rng.pick(STREETS)} Street`,
  }));
  const orders: Order[] = [];
  for (let i = 0; i < 40; i++) {
    const items = distinct(between(rng, 1, 3), () => rng.pick(products), (p) => p.sku).map((p) => ({ sku: p.sku, name: p.name, qty: between(rng, 1, 3), priceCents: p.priceCents }));
    const shipping = rng.pick(SHIPPING_METHODS);
    const itemsCents = items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);
    orders.push({
      number: '',
      customerId: i < 10 ? 1 : between(rng, 2, customers.length),
      date: isoDate(rng, ORDER_YEAR),
      status: rng.pick(ORDER_STATUSES),
      items,
      shipping: shipping.id,
      totalCents: itemsCents + shipping.costCents,
    });
  }
  orders.sort((a, b) => a.date.localeCompare(b.date));
  orders.forEach((order, i) => (order.number = String(i + 1).padStart(6, '0')));
  const productNames = new Set(products.map((p) => p.name));
  const absentProduct = distinct(1, () => `${rng.pick(BRANDS)} ${rng.pick(['Espresso Machine', 'Robot Vacuum', 'Snow Shovel', 'Drone'])}`).find((n) => !productNames.has(n)) ?? 'Zephyr Drone';
  const customerNames = new Set(customers.map((c) => c.name));
  let absentCustomer = personName(rng);
  while (customerNames.has(absentCustomer)) absentCustomer = personName(rng);
  const coupon = `SAVE-${String(between(rng, 1000, 9999))}`;
  return { products, customers, orders, cart: [], absentProduct, absentCustomer, coupon };
}

/** Items total plus shipping for cart lines. */
export function orderTotal(items: readonly OrderItem[], shippingId: string): number {
  const shipping = SHIPPING_METHODS.find((s) => s.id === shippingId)?.costCents ?? 0;
  return items.reduce((sum, item) => sum + item.qty * item.priceCents, 0) + shipping;
}

/** Average star rating rounded to one decimal, or null without reviews. */
export function averageRating(product: Product): number | null {
  if (product.reviews.length === 0) return null;
  return Math.round((product.reviews.reduce((s, r) => s + r.rating, 0) / product.reviews.length) * 10) / 10;
}
