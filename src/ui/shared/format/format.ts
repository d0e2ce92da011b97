/** Number formats of the Evolve and Evaluate views (deterministic, English digits). Pure. */

const grouped = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** USD with 2 decimals, or 4 below a cent ("$0.0042"). */
export const formatUsd = (usd: number): string => `$${usd !== 0 && Math.abs(usd) < 0.01 ? usd.toFixed(4) : usd.toFixed(2)}`;

/** A token count with thousands separators ("1,234,567"). */
export const formatTokens = (tokens: number): string => grouped.format(tokens);

/** A W-AUC with 3 decimals ("0.214"); "—" when missing. */
export const formatWAuc = (value: number | null | undefined): string => (value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(3));

/** A low–high range of USD ("$0.12 – $0.40"). */
export const formatUsdRange = (low: number, high: number): string => `${formatUsd(low)} – ${formatUsd(high)}`;
