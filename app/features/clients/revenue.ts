// A client's revenue as the directory shows it: one figure per currency
// ('$5,238.00 · €1,350.00'), never one currency's cents added to another's.
import { formatMoney, MONEY_SUM_SEPARATOR } from '~/lib/money';

/** Revenue as client_directory_figures gives it: cents by currency code. */
export type RevenueByCurrency = Record<string, number>;

export function readRevenue(value: unknown): RevenueByCurrency {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const revenue: RevenueByCurrency = {};
  for (const [currency, cents] of Object.entries(value)) {
    const amount = Number(cents);
    if (/^[A-Z]{3}$/.test(currency) && Number.isFinite(amount) && amount !== 0) revenue[currency] = amount;
  }
  return revenue;
}

/** 'USD' first, then the others alphabetically; '—' for none. */
export function formatRevenue(revenue: RevenueByCurrency): string {
  const currencies = Object.keys(revenue).sort((a, b) => (a === 'USD' ? -1 : b === 'USD' ? 1 : a.localeCompare(b)));
  if (currencies.length === 0) return '—';
  return currencies.map((currency) => formatMoney(revenue[currency], currency)).join(MONEY_SUM_SEPARATOR);
}
