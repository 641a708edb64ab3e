// What the Shipments screens ask of the database (issue 36, decision 062): the
// page of shipments with the cards' counts (shipment_counts, one aggregate),
// one shipment with its tracking events and history, and the writes, all
// through the functions (create_shipment, add_tracking_event,
// mark_shipment_delivered) that keep the status moving only forward.
import type { Tables } from '~/lib/database.types';
import { searchText, type ListQuery } from '~/lib/list-query';
import { loadHistory } from '~/lib/record-history.server';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { parseDimensions, type NewShipment, type ShipmentStatus } from './schema';

const LIST_COLUMNS = 'id, tracking_number, carrier, origin, destination, status, estimated_delivery, weight, weight_unit, created_at';

export type ShipmentRow = Pick<
  Tables<'shipments'>,
  'id' | 'tracking_number' | 'carrier' | 'origin' | 'destination' | 'status' | 'estimated_delivery' | 'weight' | 'weight_unit' | 'created_at'
>;

export interface ShipmentCounts {
  total: number;
  processing: number;
  inTransit: number;
  delivered: number;
  exceptions: number;
}

/** The page of shipments, newest first, searched by tracking number, origin or destination and filtered by status. */
export async function loadShipments(supabase: Supabase, query: ListQuery<ShipmentStatus>) {
  const search = searchText(query.q);
  const matching = search
    ? supabase.rpc('search_shipments', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('shipments').select(LIST_COLUMNS, { count: 'exact' });
  const [countsResult, list] = await Promise.all([
    supabase.rpc('shipment_counts').maybeSingle(),
    readList<ShipmentRow, ShipmentStatus>(filterList(matching, query), query, 'shipments'),
  ]);
  if (countsResult.error) console.error(`shipment counts failed to load: ${countsResult.error.message}`);
  const row = countsResult.data;
  const counts: ShipmentCounts | null = row
    ? { total: row.total, processing: row.processing, inTransit: row.in_transit, delivered: row.delivered, exceptions: row.exceptions }
    : null;
  return { counts, list };
}

/** An absent value for a function argument the generated types call required: the function takes null. */
const absent = <T,>() => null as unknown as T;

export function insertShipment(supabase: Supabase, shipment: NewShipment) {
  const dimensions = shipment.dimensions ? parseDimensions(shipment.dimensions) : null;
  return supabase
    .rpc('create_shipment', {
      p_origin: shipment.origin,
      p_destination: shipment.destination,
      p_carrier: shipment.carrier,
      p_weight: shipment.weight,
      p_weight_unit: shipment.weight_unit,
      p_length: dimensions?.length ?? absent<number>(),
      p_width: dimensions?.width ?? absent<number>(),
      p_height: dimensions?.height ?? absent<number>(),
      p_dimension_unit: dimensions?.unit ?? absent<string>(),
      p_description: shipment.description,
      p_special_instructions: shipment.special_instructions ?? '',
    })
    .single();
}

/** One shipment of the caller's account with its tracking events (newest first) and its history; null when none it may read. */
export async function loadShipment(supabase: Supabase, id: string) {
  const [{ data: found, error }, history] = await Promise.all([
    supabase
      .from('shipments')
      .select('*, events:tracking_events(id, occurred_at, status, location, description, source, provider), purchase_order:purchase_orders(id, po_number)')
      .eq('id', id)
      .order('occurred_at', { referencedTable: 'tracking_events', ascending: false })
      .maybeSingle(),
    loadHistory(supabase, 'shipment', id),
  ]);
  if (error) console.error(`shipment failed to load: ${error.message}`);
  if (!found) return null;
  const { events, purchase_order, ...shipment } = found;
  return { shipment, events: events ?? [], purchaseOrder: purchase_order ?? null, history };
}

export function addTrackingEvent(
  supabase: Supabase,
  id: string,
  event: { status: string; occurred_at: string; location?: string; description: string },
  timezoneOffsetMinutes = 0,
) {
  // The form's local time is read as UTC unless the page says otherwise.
  const at = new Date(`${event.occurred_at.length === 16 ? `${event.occurred_at}:00` : event.occurred_at}Z`);
  at.setUTCMinutes(at.getUTCMinutes() + timezoneOffsetMinutes);
  return supabase
    .rpc('add_tracking_event', {
      p_shipment_id: id,
      p_occurred_at: at.toISOString(),
      p_status: event.status,
      p_location: event.location ?? '',
      p_description: event.description,
    })
    .maybeSingle();
}

export function markDelivered(supabase: Supabase, id: string) {
  return supabase.rpc('mark_shipment_delivered', { p_shipment_id: id }).single();
}
