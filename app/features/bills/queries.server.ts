// What the Bills screens ask of the database (decision 048): the page of
// bills with their totals per currency (bill_totals; never added across
// currencies), one bill with its history, and the writes: an edit or delete
// of a bill to pay (row-level security and column grants keep a paid bill as
// it was) and mark_bill_paid.
import type { Tables } from '~/lib/database.types';
import { searchText, type ListQuery } from '~/lib/list-query';
import { loadHistory } from '~/lib/record-history.server';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import type { BillStatus, EditedBill } from './schema';

const LIST_COLUMNS = 'id, supplier_name, number, status, currency, total, issue_date, due_date, paid_on, created_at';

export type BillRow = Pick<
  Tables<'bills'>,
  'id' | 'supplier_name' | 'number' | 'status' | 'currency' | 'total' | 'issue_date' | 'due_date' | 'paid_on' | 'created_at'
>;

export interface BillTotal {
  currency: string;
  toPay: number;
  toPayCount: number;
  paid: number;
  paidCount: number;
}

/** The page of bills, newest first, searched by supplier or number (search_bills) and filtered by status. */
export async function loadBills(supabase: Supabase, query: ListQuery<BillStatus>) {
  const search = searchText(query.q);
  const matching = search
    ? supabase.rpc('search_bills', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('bills').select(LIST_COLUMNS, { count: 'exact' });
  const [totalsResult, list] = await Promise.all([
    supabase.rpc('bill_totals'),
    readList<BillRow, BillStatus>(filterList(matching, query), query, 'bills'),
  ]);
  // Totals that fail to load are logged and left out: the list below still works.
  if (totalsResult.error) console.error(`bill totals failed to load: ${totalsResult.error.message}`);
  const totals: BillTotal[] = (totalsResult.data ?? []).map((row) => ({
    currency: row.currency,
    toPay: Number(row.to_pay),
    toPayCount: row.to_pay_count,
    paid: Number(row.paid),
    paidCount: row.paid_count,
  }));
  return { totals, totalsFailed: totalsResult.error !== null, list };
}

/** One bill of the caller's account with its history and its document's title; null when there is none it may read. */
export async function loadBill(supabase: Supabase, id: string) {
  // One round trip: the document it was recorded from comes embedded, the history alongside.
  const [{ data: found, error }, history] = await Promise.all([
    supabase.from('bills').select('*, document:documents(id, title)').eq('id', id).maybeSingle(),
    loadHistory(supabase, 'bill', id),
  ]);
  if (error) console.error(`bill failed to load: ${error.message}`);
  if (!found) return null;
  const { document, ...bill } = found;
  return { bill, history, document: document ?? null };
}

export function updateBill(supabase: Supabase, id: string, bill: EditedBill) {
  const { intent: _intent, ...values } = bill;
  return supabase.from('bills').update(values).eq('id', id).select('id').maybeSingle();
}

export function deleteBill(supabase: Supabase, id: string) {
  return supabase.from('bills').delete().eq('id', id).select('id').maybeSingle();
}

export function markBillPaid(supabase: Supabase, id: string, paidOn: string) {
  return supabase.rpc('mark_bill_paid', { p_bill_id: id, p_paid_on: paidOn }).single();
}
