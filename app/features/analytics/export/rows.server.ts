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

export async function loadReportTables(supabase: Supabase, type: ReportType, figures: PeriodFigures): Promise<ReportTable[] | TooLarge> {
  const start = zonedMidnight(figures.from, figures.timezone).toISOString();
  const end = zonedMidnight(nextDay(figures.to), figures.timezone).toISOString();
  const results = await Promise.all(
    REPORT_TABLES[type].map(async (name) => {
      const spec = TABLES[name];
      const { data, error } = await supabase
        .from(spec.from)
        .select(spec.select)
        .gte('created_at', start)
        .lt('created_at', end)
        .order('created_at', { ascending: true })
        .limit(DIRECT_ROWS + 1);
      if (error) throw new Error(`report rows failed to load: ${error.message}`);
      return { spec, rows: (data ?? []) as unknown as Record<string, unknown>[] };
    }),
  );
  const total = results.reduce((sum, result) => sum + result.rows.length, 0);
  if (total > DIRECT_ROWS) return { tooLarge: true };
  return results.map(({ spec, rows }) => ({ title: spec.title, columns: [...spec.columns], rows: rows.map(spec.row) }));
}
