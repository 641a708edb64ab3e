// What the Purchase orders screens ask of the database (issue 36, decision
// 062): the page of orders (searched by number or supplier, filtered by
// status), one order with its lines and history, and the writes, all through
// the functions of 20261204100001_logistics.sql (numbers, totals and status
// are never typed).
import type { Tables } from '~/lib/database.types';
import { searchText, type ListQuery } from '~/lib/list-query';
import { loadHistory } from '~/lib/record-history.server';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import type { NewPurchaseOrder, PoStatus } from './schema';

const LIST_COLUMNS = 'id, po_number, supplier_name, status, currency, total, expected_on, created_at';

export type PurchaseOrderRow = Pick<
  Tables<'purchase_orders'>,
  'id' | 'po_number' | 'supplier_name' | 'status' | 'currency' | 'total' | 'expected_on' | 'created_at'
>;

export function loadPurchaseOrders(supabase: Supabase, query: ListQuery<PoStatus>) {
  const search = searchText(query.q);
  const matching = search
    ? supabase.rpc('search_purchase_orders', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('purchase_orders').select(LIST_COLUMNS, { count: 'exact' });
  return readList<PurchaseOrderRow, PoStatus>(filterList(matching, query), query, 'purchase_orders');
}

/** An absent value for a function argument the generated types call required: the function takes null. */
const absent = <T,>() => null as unknown as T;

export function insertPurchaseOrder(supabase: Supabase, po: NewPurchaseOrder) {
  return supabase
    .rpc('create_purchase_order', {
      p_supplier_name: po.supplier_name,
      p_supplier_email: po.supplier_email ?? '',
      p_currency: po.currency,
      p_expected_on: po.expected_on ?? absent<string>(),
      p_notes: po.notes ?? '',
      p_items: po.items.map((item) => ({ description: item.description, qty: item.quantity, unit_price: item.unit_price })),
      ...(po.supplier_user_id ? { p_supplier_user_id: po.supplier_user_id } : {}),
    })
    .single();
}

export type SupplierLogin = { id: string; email: string; first_name: string | null; last_name: string | null };

/** The account's active supplier logins, offered on the New Purchase Order form (staff read the account's users). */
export async function loadSupplierLogins(supabase: Supabase): Promise<SupplierLogin[]> {
  const { data, error } = await supabase
    .from('users')
    .select('id, email, first_name, last_name')
    .eq('role', 'supplier')
    .eq('is_active', true)
    .order('email')
    .limit(200);
  if (error) throw new Error(`reading the supplier logins failed: ${error.message}`);
  return data ?? [];
}

/** One order of the caller's account with its lines, its shipments and its history; null when none it may read. */
export async function loadPurchaseOrder(supabase: Supabase, id: string) {
  const [{ data: found, error }, history] = await Promise.all([
    supabase
      .from('purchase_orders')
      .select('*, items:purchase_order_items(id, position, description, qty, unit_price, total, received_qty), shipments(id, tracking_number, status, direction, created_at)')
      .eq('id', id)
      .order('position', { referencedTable: 'purchase_order_items' })
      .maybeSingle(),
    loadHistory(supabase, 'purchase_order', id),
  ]);
  if (error) console.error(`purchase order failed to load: ${error.message}`);
  if (!found) return null;
  const { items, shipments, ...po } = found;
  return { po, items: items ?? [], shipments: shipments ?? [], history };
}

export function changePurchaseOrder(supabase: Supabase, id: string, intent: 'send' | 'confirm' | 'cancel') {
  const fn = ({ send: 'send_purchase_order', confirm: 'confirm_purchase_order', cancel: 'cancel_purchase_order' } as const)[intent];
  return supabase.rpc(fn, { p_id: id }).single();
}

/** Everything outstanding (null) or the part that arrived per line. */
export function receivePurchaseOrder(supabase: Supabase, id: string, received: Record<string, number> | null) {
  return supabase.rpc('receive_purchase_order', { p_id: id, ...(received ? { p_received: received } : {}) }).single();
}
