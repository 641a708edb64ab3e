// The records behind a report, read as the signed-in user (RLS applies), over
// the range analytics_page resolved (the same days as the figures, in the
// account's timezone). Each table reads at most DIRECT_ROWS + 1 rows through
// its (account_id, created_at) index: one more than a direct download holds
// tells the action the report is too large to send directly.
import type { Supabase } from '~/lib/supabase.server';
import type { PeriodFigures } from '../figures';
import type { ReportType } from '../schema';
import { DIRECT_ROWS, REPORT_TABLES, type Cell, type ReportTable } from './report';

/** The UTC instant of 00:00 on `day` in `timeZone`. */
export function zonedMidnight(day: string, timeZone: string): Date {
  const guess = new Date(`${day}T00:00:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(guess)
      .map((part) => [part.type, part.value]),
  );
  const asLocal = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offset = asLocal - guess.getTime();
  // Once more at the corrected instant, so a day that starts on a DST change lands right.
  const first = new Date(guess.getTime() - offset);
  const again = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(first)
      .map((part) => [part.type, part.value]),
  );
  const secondOffset =
    Date.UTC(Number(again.year), Number(again.month) - 1, Number(again.day), Number(again.hour), Number(again.minute), Number(again.second)) - first.getTime();
  return new Date(guess.getTime() - secondOffset);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

const money = (cents: unknown) => Number(cents) / 100;

const TABLES = {
  quotes: {
    title: 'Quotes',
    from: 'quotes',
    select: 'quote_number, status, currency, total, created_at',
    columns: ['Quote', 'Status', 'Currency', 'Total', 'Created'],
    row: (r: Record<string, unknown>): Cell[] => [r.quote_number as string, r.status as string, r.currency as string, money(r.total), r.created_at as string],
  },
  invoices: {
    title: 'Invoices',
    from: 'invoices',
    select: 'invoice_number, client_name, status, currency, total, amount_paid, due_date, created_at',
    columns: ['Invoice', 'Client', 'Status', 'Currency', 'Total', 'Paid', 'Due', 'Created'],
    row: (r: Record<string, unknown>): Cell[] => [
      r.invoice_number as string,
      r.client_name as string,
      r.status as string,
      r.currency as string,
      money(r.total),
      money(r.amount_paid),
      r.due_date as string,
      r.created_at as string,
    ],
  },
  leads: {
    title: 'Leads',
    from: 'leads',
    select: 'name, company, email, source, status, created_at',
    columns: ['Name', 'Company', 'Email', 'Source', 'Status', 'Created'],
    row: (r: Record<string, unknown>): Cell[] => [r.name as string, r.company as string, r.email as string, r.source as string, r.status as string, r.created_at as string],
  },
  clients: {
    title: 'Clients',
    from: 'contacts',
    select: 'name, company, email, created_at',
    columns: ['Name', 'Company', 'Email', 'Added'],
    row: (r: Record<string, unknown>): Cell[] => [r.name as string, (r.company as string | null) ?? null, r.email as string, r.created_at as string],
  },
} as const;

export type TooLarge = { tooLarge: true };

/** Rows read per request: a direct download in one, a job's larger report in pages. */
const PAGE_ROWS = DIRECT_ROWS + 1;

export interface ReadOptions {
  /** At most this many rows in all (one more tells "too large"); DIRECT_ROWS unless a job says more. */
  limit?: number;
  /** The job reads with the service role: its account, named. */
  accountId?: string;
}

function bounds(figures: PeriodFigures) {
  return {
    start: zonedMidnight(figures.from, figures.timezone).toISOString(),
    end: zonedMidnight(nextDay(figures.to), figures.timezone).toISOString(),
  };
}

export async function loadReportTables(
  supabase: Supabase,
  type: ReportType,
  figures: PeriodFigures,
  options: ReadOptions = {},
): Promise<ReportTable[] | TooLarge> {
  const limit = options.limit ?? DIRECT_ROWS;
  const { start, end } = bounds(figures);
  const results: { spec: (typeof TABLES)[keyof typeof TABLES]; rows: Record<string, unknown>[] }[] = [];
  let total = 0;
  // One table after another, page by page, so a job stops reading as soon as the limit is passed.
  for (const name of REPORT_TABLES[type]) {
    const spec = TABLES[name];
    const rows: Record<string, unknown>[] = [];
    for (;;) {
      const want = Math.min(PAGE_ROWS, limit + 1 - total);
      let query = supabase.from(spec.from).select(spec.select).gte('created_at', start).lt('created_at', end);
      if (options.accountId) query = query.eq('account_id', options.accountId);
      const { data, error } = await query
        .order('created_at', { ascending: true })
        .order('id', { ascending: true })
        .range(rows.length, rows.length + want - 1);
      if (error) throw new Error(`report rows failed to load: ${error.message}`);
      const page = (data ?? []) as unknown as Record<string, unknown>[];
      rows.push(...page);
      total += page.length;
      if (total > limit) return { tooLarge: true };
      if (page.length < want) break;
    }
    results.push({ spec, rows });
  }
  return results.map(({ spec, rows }) => ({ title: spec.title, columns: [...spec.columns], rows: rows.map(spec.row) }));
}
