// What the Clients screen asks of the database: a page of the account's
// contacts (searched by name, email or company, filtered by status) with the
// summary's four figures, and the insert of a new contact.
import { searchText, type ListQuery } from '~/lib/list-query';
import { filterList, readList, withSummaryTotal } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { loadHistory } from '~/lib/record-history.server';
import type { ClientStatus, EditedClient, NewClient } from './schema';
import { companyOrName } from './schema';
import { readRevenue, type RevenueByCurrency } from './revenue';

/** What the directory shows beside a client's own fields: revenue from signed quotes, and the last contact. */
export interface ClientFigures {
  revenue: RevenueByCurrency;
  lastContactAt: string | null;
}

/** A row's computed figures (the directory_figures field, read with the row). */
function figuresOf(json: unknown): ClientFigures {
  const figures = (json ?? {}) as { revenue?: unknown; last_contact_at?: unknown };
  return { revenue: readRevenue(figures.revenue), lastContactAt: typeof figures.last_contact_at === 'string' ? figures.last_contact_at : null };
}

const LIST_COLUMNS = 'id, name, email, phone, company, role, address, status, created_at';
// With the row's revenue and last contact: directory_figures, a computed field
// read with the page (one round trip). The generated types know no computed
// fields, so the select is typed as the plain columns and the field read below.
const LIST_SELECT = `${LIST_COLUMNS}, directory_figures` as typeof LIST_COLUMNS;

/**
 * The directory's page with its total: a text search (name, email or
 * company) goes through search_contacts, which reads only the account's
 * matches from its indexes, and counts them; the unfiltered total is the
 * summary's; a status filter alone is counted from its index.
 */
export async function loadClients(supabase: Supabase, query: ListQuery<ClientStatus>) {
  const search = searchText(query.q);
  const unfiltered = !search && !query.status;
  const matching = search
    ? supabase.rpc('search_contacts', { p_query: search }, { get: true, count: 'exact' }).select(LIST_SELECT)
    : supabase.from('contacts').select(LIST_SELECT, unfiltered ? {} : { count: 'exact' });
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('client_summary').single(),
    readList(filterList(matching, query), query, 'clients'),
  ]);
  // A summary that fails to load is logged and reads 0: the list below still works.
  if (summaryResult.error) console.error(`client summary failed to load: ${summaryResult.error.message}`);
  const summary = summaryResult.data ?? { total_count: 0, active_count: 0, prospect_count: 0, new_this_month: 0 };
  const figures: Record<string, ClientFigures> = {};
  for (const row of list.rows) figures[row.id] = figuresOf((row as { directory_figures?: unknown }).directory_figures);
  return {
    figures,
    summary: {
      total: Number(summary.total_count),
      active: Number(summary.active_count),
      prospects: Number(summary.prospect_count),
      newThisMonth: Number(summary.new_this_month),
    },
    list: withSummaryTotal(list, !unfiltered, summaryResult.error ? null : Number(summary.total_count)),
  };
}

/** A row of the directory: the columns loadClients selects. */
export type ClientRow = Awaited<ReturnType<typeof loadClients>>['list']['rows'][number];

/** The columns a client's fields are written to, from its form. */
function clientValues(client: NewClient) {
  return {
    name: client.name,
    email: client.email,
    phone: client.phone || null,
    company: companyOrName(client),
    role: client.role || null,
    address: client.address || null,
    country: client.country || null,
    notes: client.notes || null,
  };
}

/** Returns the new client, for the toast's link. */
export function insertClient(supabase: Supabase, client: NewClient) {
  return supabase
    .from('contacts')
    .insert({ ...clientValues(client), is_primary: true })
    .select('id, name')
    .single();
}

const DETAIL_COLUMNS = 'id, name, email, phone, company, role, address, country, notes, status, created_at, updated_at';
// The page's figures are the list's computed field, read with the row (see LIST_SELECT).
const DETAIL_SELECT = `${DETAIL_COLUMNS}, directory_figures` as typeof DETAIL_COLUMNS;
const QUOTE_COLUMNS = 'id, quote_number, status, currency, total, created_at';

/** One client of the account (RLS), its quotes (newest first), its figures and its history. */
export async function loadClient(supabase: Supabase, id: string) {
  // All at once (one round trip): each read needs only the id, and row-level
  // security answers nothing for a client that is not the caller's to read.
  const [{ data: client, error }, quotes, history] = await Promise.all([
    supabase.from('contacts').select(DETAIL_SELECT).eq('id', id).maybeSingle(),
    supabase
      .from('quotes')
      .select(QUOTE_COLUMNS, { count: 'exact' })
      .eq('contact_id', id)
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(20),
    loadHistory(supabase, 'contact', id),
  ]);
  if (error) throw new Error(`client failed to load: ${error.message}`);
  if (!client) return null;
  if (quotes.error) console.error(`client quotes failed to load: ${quotes.error.message}`);
  return {
    client,
    quotes: { rows: quotes.data ?? [], total: quotes.count ?? 0, failed: quotes.error !== null },
    figures: figuresOf((client as { directory_figures?: unknown }).directory_figures),
    history,
  };
}

export type ClientDetail = NonNullable<Awaited<ReturnType<typeof loadClient>>>['client'];
export type ClientQuotesPage = NonNullable<Awaited<ReturnType<typeof loadClient>>>['quotes'];

export function updateClient(supabase: Supabase, id: string, client: EditedClient) {
  return supabase
    .from('contacts')
    .update({ ...clientValues(client), status: client.status })
    .eq('id', id)
    .select('id')
    .maybeSingle();
}

/** The database's refusal to delete a client that quotes still name (a foreign key). */
export const REFERENCED = '23503';

export function deleteClient(supabase: Supabase, id: string) {
  return supabase.from('contacts').delete().eq('id', id).select('id').maybeSingle();
}
