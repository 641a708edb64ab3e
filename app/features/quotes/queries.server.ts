// What the Quotes screen asks of the database: the staff's page of the
// pipeline with its summary, and the create_quote RPC (a client's quotes are
// the portal's: app/features/portal).
import { searchFilter, searchText, type ListQuery } from '~/lib/list-query';
import { readMoneySums } from '~/lib/money';
import { filterList, isUuid, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { quoteHref } from './quote-href';
import type { NewQuote, QuoteStatus } from './schema';

const LIST_COLUMNS = 'id, quote_number, status, currency, total, created_at, expires_at, contact_name, contact_company';

/**
 * The staff's page of rows, newest first. A text search (number, notes,
 * contact name or company) goes through search_quotes, which reads only the
 * account's matches from its indexes, and counts them; the unfiltered total
 * comes from the summary; a status filter alone is not counted.
 */
export async function loadQuotes(supabase: Supabase, query: ListQuery<QuoteStatus>) {
  const search = searchText(query.q);
  const matching = search
    ? supabase.rpc('search_quotes', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('quote_list').select(LIST_COLUMNS);
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('quote_summary').single(),
    readList(filterList(matching, query), query, 'quotes'),
  ]);
  // A summary that fails to load is logged and reads 0: the list below still works.
  if (summaryResult.error) console.error(`quote summary failed to load: ${summaryResult.error.message}`);
  const summary = summaryResult.data;
  const count = Number(summary?.total_count ?? 0);
  const unfiltered = !search && !query.status;
  return {
    summary: {
      count,
      sent: Number(summary?.sent_count ?? 0),
      signed: Number(summary?.signed_count ?? 0),
      // One sum per currency present, summed by SQL: never euros counted as dollars.
      byCurrency: readMoneySums(summary?.by_currency),
    },
    list: { ...list, total: unfiltered ? count : list.total },
  };
}

/** A row of the staff's list: what a client sees of a quote, and its contact. */
export type QuoteRow = Awaited<ReturnType<typeof loadQuotes>>['list']['rows'][number];

/**
 * One RPC, one transaction: the draft quote and its line item, for the
 * existing client chosen, or together with a new contact (the account is the
 * caller's). Returns the quote, for the toast's link.
 */
export function createQuote(supabase: Supabase, quote: NewQuote) {
  const common = {
    p_description: quote.description,
    p_unit_price: quote.unit_price,
    p_quantity: quote.quantity,
    p_currency: quote.currency,
    p_expires_in_days: quote.expires_in_days,
    // Left out when empty: the function's default is null.
    p_notes: quote.notes,
  };
  if (quote.contact_id) {
    return supabase.rpc('create_client_quote', { p_contact_id: quote.contact_id, ...common }).select('id, quote_number').single();
  }
  return supabase
    .rpc('create_quote', {
      p_contact_name: quote.contact_name ?? '',
      p_contact_email: quote.contact_email ?? '',
      p_company: quote.company ?? '',
      ...common,
    })
    .select('id, quote_number')
    .single();
}

/** 'Quote Q-2026-0007 created' and its link, the toast after a create. */
export const quoteCreatedToast = (quote: { id: string; quote_number: string | null }) => ({
  message: quote.quote_number ? `Quote ${quote.quote_number} created` : 'Quote created',
  link: { href: quoteHref(quote), label: 'View quote' },
});

const PICKER_SIZE = 20;

/** A client as the picker lists it. */
export function clientChoice(row: ClientRow) {
  return { value: row.id, label: `${row.name} — ${row.company ?? row.email}` };
}

type ClientRow = { id: string; name: string; email: string; company: string | null };

/**
 * The clients the new-quote dialog offers: those matching the dialog's own
 * search (?client_q=, by name, email or company), else the newest, plus the
 * client the URL names (?client=, from a lead or a client's page) so it can be
 * chosen whatever the search.
 */
export async function loadClientChoices(supabase: Supabase, url: URL) {
  const q = (url.searchParams.get('client_q') ?? '').trim().slice(0, 100);
  const chosen = url.searchParams.get('client');
  let select = supabase.from('contacts').select('id, name, company, email');
  const search = searchFilter(q, ['name', 'email', 'company']);
  if (search) select = select.or(search);
  const [matches, named] = await Promise.all([
    select.order('name').order('id').limit(PICKER_SIZE),
    isUuid(chosen) ? supabase.from('contacts').select('id, name, company, email').eq('id', chosen).maybeSingle() : null,
  ]);
  if (matches.error) console.error(`client choices failed to load: ${matches.error.message}`);
  const choices = { query: q, selectedId: null as string | null, options: (matches.data ?? []).map(clientChoice) };
  return withClient(choices, named?.data ?? null);
}

/**
 * The choices with this client among them, chosen unless another already is
 * (the URL's ?client= on a quote's edit page wins over the quote's own).
 */
export function withClient(choices: ClientChoices, client: ClientRow | null): ClientChoices {
  if (!client) return choices;
  const listed = choices.options.some((option) => option.value === client.id);
  return {
    ...choices,
    selectedId: choices.selectedId ?? client.id,
    options: listed ? choices.options : [clientChoice(client), ...choices.options],
  };
}

export interface ClientChoices {
  query: string;
  selectedId: string | null;
  options: { value: string; label: string }[];
}
