// What the supplier portal reads and writes, as the signed-in supplier: RLS
// (decision 062) gives a supplier only the purchase orders addressed to them
// and those orders' shipments; each read also asks for orders past draft.
import type { Supabase } from '~/lib/supabase.server';
import { readListQuery, type ListPage } from '~/lib/list-query';
import { readList } from '~/lib/records.server';

export interface SupplierOrder {
  id: string;
  po_number: string;
  status: string;
  currency: string;
  total: number;
  expected_on: string | null;
  sent_at: string | null;
  created_at: string;
}

const COLUMNS = 'id, po_number, status, currency, total, expected_on, sent_at, created_at';

export function loadSupplierOrders(supabase: Supabase, url: URL): Promise<ListPage<SupplierOrder, never>> {
  const select = supabase.from('purchase_orders').select(COLUMNS).neq('status', 'draft').returns<SupplierOrder[]>();
  return readList<SupplierOrder, never>(select, readListQuery(url, []), 'supplier purchase orders');
}

/** One order addressed to the supplier, with its lines and shipments; null when none they may read. */
export async function loadSupplierOrder(supabase: Supabase, id: string) {
  const { data, error } = await supabase
    .from('purchase_orders')
    .select(
      'id, po_number, status, currency, total, expected_on, notes, sent_at, confirmed_at, items:purchase_order_items(id, position, description, qty, unit_price, total, received_qty), shipments(id, tracking_number, carrier, status, created_at)',
    )
    .eq('id', id)
    .neq('status', 'draft')
    .order('position', { referencedTable: 'purchase_order_items' })
    .order('created_at', { referencedTable: 'shipments' })
    .maybeSingle();
  if (error) console.error(`supplier purchase order failed to load: ${error.message}`);
  return data ?? null;
}
