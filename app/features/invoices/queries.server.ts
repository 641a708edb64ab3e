// What the Invoices screens ask of the database: the page of the book with
// its four cards (invoice_summary reads rollups: flat cost whatever the size),
// one invoice with its items, payments and history, and the invoice
// functions (create_invoice, save_invoice_draft, record_payment, send_invoice,
// void_invoice).
import type { Tables } from '~/lib/database.types';
import { searchText, type ListQuery } from '~/lib/list-query';
import { readMoneySums, type MoneySum } from '~/lib/money';
import { loadHistory } from '~/lib/record-history.server';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { dayIn, type EditedInvoice, type InvoiceStatus, type NewInvoice, type PaymentForm } from './schema';

const LIST_COLUMNS = 'id, invoice_number, status, client_name, client_email, currency, total, amount_paid, due_date, created_at, quote_id';

export type InvoiceRow = Pick<
  Tables<'invoices'>,
  'id' | 'invoice_number' | 'status' | 'client_name' | 'client_email' | 'currency' | 'total' | 'amount_paid' | 'due_date' | 'created_at' | 'quote_id'
>;

/** The paid share of what was invoiced, per currency (never added across currencies). */
export interface Collection {
  currency: string;
  invoiced: number;
  paid: number;
}

export interface InvoiceSummary {
  count: number;
  outstanding: MoneySum[];
  paidThisMonth: MoneySum[];
  collection: Collection[];
}

function readCollection(json: unknown): Collection[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { currency, invoiced, paid } = item as Record<string, unknown>;
    if (typeof currency !== 'string') return [];
    return [{ currency, invoiced: Number(invoiced) || 0, paid: Number(paid) || 0 }];
  });
}

/**
 * The staff's page of invoices, newest first, searched by number, client name
 * or email and filtered by status. Only a search is counted; the unfiltered
 * total comes from the summary; a status filter alone is not counted.
 */
export async function loadInvoices(supabase: Supabase, query: ListQuery<InvoiceStatus>) {
  const search = searchText(query.q);
  // A search reads only the account's matches from its indexes (search_invoices).
  const matching = search
    ? supabase.rpc('search_invoices', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('invoices').select(LIST_COLUMNS);
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('invoice_summary').single(),
    readList<InvoiceRow, InvoiceStatus>(filterList(matching, query), query, 'invoices'),
  ]);
  // A summary that fails to load is logged and reads 0: the list below still works.
  if (summaryResult.error) console.error(`invoice summary failed to load: ${summaryResult.error.message}`);
  const row = summaryResult.data;
  const summary: InvoiceSummary = {
    count: Number(row?.total_count ?? 0),
    outstanding: readMoneySums(row?.outstanding),
    paidThisMonth: readMoneySums(row?.paid_this_month),
    collection: readCollection(row?.collection),
  };
  const unfiltered = !search && !query.status;
  return { summary, list: { ...list, total: unfiltered ? summary.count : list.total } };
}

/** One invoice of the caller's account with its items, payments and history; null when there is none it may read. */
export async function loadInvoice(supabase: Supabase, id: string) {
  // All at once (one round trip): each read needs only the id; the account's
  // time zone comes embedded (the database dates payments in it: the form's
  // "today" is that day).
  const [{ data: found, error }, items, payments, history] = await Promise.all([
    supabase.from('invoices').select('*, account:accounts(timezone)').eq('id', id).maybeSingle(),
    supabase.from('invoice_items').select('id, description, qty, unit_price, total').eq('invoice_id', id).order('position').order('created_at'),
    supabase.from('payments').select('id, amount, paid_on, method, reference, kind, created_at').eq('invoice_id', id).order('paid_on').order('created_at'),
    loadHistory(supabase, 'invoice', id),
  ]);
  if (error) console.error(`invoice failed to load: ${error.message}`);
  if (!found) return null;
  if (items.error) console.error(`invoice items failed to load: ${items.error.message}`);
  if (payments.error) console.error(`payments failed to load: ${payments.error.message}`);
  const { account, ...invoice } = found;
  return { invoice, items: items.data ?? [], payments: payments.data ?? [], history, today: dayIn(account?.timezone) };
}

/** A draft's edit page: the invoice and its lines in order; null when there is none the caller may read. */
export async function loadInvoiceDraft(supabase: Supabase, id: string) {
  const [{ data: invoice, error }, items] = await Promise.all([
    supabase.from('invoices').select('*').eq('id', id).maybeSingle(),
    supabase.from('invoice_items').select('description, qty, unit_price').eq('invoice_id', id).order('position').order('created_at'),
  ]);
  if (error) console.error(`invoice failed to load: ${error.message}`);
  if (!invoice) return null;
  if (items.error) throw new Error(`invoice items failed to load: ${items.error.message}`);
  return { invoice, items: items.data };
}

export type InvoiceDetail = NonNullable<Awaited<ReturnType<typeof loadInvoice>>>['invoice'];

/** The New Invoice dialog's draft (one line item; the contact matched or created by email). */
export function createInvoice(supabase: Supabase, invoice: NewInvoice) {
  return supabase
    .rpc('create_invoice', {
      p_client_name: invoice.client_name,
      p_client_email: invoice.client_email,
      p_description: invoice.description,
      p_unit_price: invoice.unit_price,
      p_quantity: invoice.quantity,
      p_currency: invoice.currency,
      p_due_date: invoice.due_date,
      p_notes: invoice.notes,
    })
    .select('id, invoice_number')
    .single();
}

export function recordPayment(supabase: Supabase, id: string, payment: PaymentForm) {
  return supabase.rpc('record_payment', {
    p_invoice_id: id,
    p_amount: payment.amount,
    p_paid_on: payment.paid_on,
    p_method: payment.method,
    p_reference: payment.reference,
    p_currency: payment.currency,
  });
}

/** Marks it sent and queues its mail; the mail's link is made by the jobs runner from SITE_URL alone. */
export function sendInvoice(supabase: Supabase, id: string) {
  return supabase.rpc('send_invoice', { p_invoice_id: id });
}

export function voidInvoice(supabase: Supabase, id: string) {
  return supabase.rpc('void_invoice', { p_invoice_id: id });
}

/** A draft saved whole (its lines in order replacing those it had); the database computes the amounts. */
export function saveInvoiceDraft(supabase: Supabase, id: string, invoice: EditedInvoice) {
  return supabase
    .rpc('save_invoice_draft', {
      p_invoice_id: id,
      p_due_date: invoice.due_date,
      p_notes: invoice.notes ?? '',
      p_tax_rate: invoice.tax_rate,
      p_discount: invoice.discount,
      p_items: invoice.items.map((item) => ({ description: item.description, qty: item.quantity, unit_price: item.unit_price })),
    })
    .select('id')
    .single();
}
