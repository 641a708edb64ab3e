// The documented webhook bodies of the two aggregators (decision 061), read
// into one carrier event, and their statuses mapped onto ours:
// - EasyPost Event (object "Event", description "tracker.updated"/"tracker.created"),
//   result a Tracker: tracking_code, status, est_delivery_date, tracking_details[]
//   ({ message, status, datetime, tracking_location { city, state, country } }).
//   Event id: the Event's id (evt_…); its time: created_at.
// - AfterShip tracking webhook: { event: "tracking_update", event_id, ts (unix s),
//   msg: { tracking_number, tag, expected_delivery, checkpoints[] ({ checkpoint_time,
//   message, location, city, country_iso3, tag }) } }. Event id: event_id; its time: ts.
import type { CarrierProvider } from './signatures';

export type OurStatus = 'Processing' | 'In Transit' | 'Delivered' | 'Exception';

export interface CarrierEvent {
  eventId: string;
  /** When the provider sent it: checked for freshness. */
  sentAt: Date;
  trackingNumber: string;
  /** When the shipment's latest checkpoint happened (else sentAt). */
  occurredAt: Date;
  status: OurStatus;
  location: string;
  description: string;
  estimatedDelivery: string | null;
}

const EASYPOST_STATUS: Record<string, OurStatus> = {
  unknown: 'Processing',
  pre_transit: 'Processing',
  in_transit: 'In Transit',
  out_for_delivery: 'In Transit',
  available_for_pickup: 'In Transit',
  delivered: 'Delivered',
  return_to_sender: 'Exception',
  failure: 'Exception',
  cancelled: 'Exception',
  error: 'Exception',
};

const AFTERSHIP_STATUS: Record<string, OurStatus> = {
  Pending: 'Processing',
  InfoReceived: 'Processing',
  InTransit: 'In Transit',
  OutForDelivery: 'In Transit',
  AvailableForPickup: 'In Transit',
  AttemptFail: 'Exception',
  Exception: 'Exception',
  Expired: 'Exception',
  Delivered: 'Delivered',
};

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);
const str = (value: unknown, max = 1000): string | null => (typeof value === 'string' && value.length > 0 && value.length <= max ? value : null);
const day = (value: unknown): string | null => {
  const text = str(value, 40);
  return text && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null;
};
const time = (value: unknown): Date | null => {
  const text = str(value, 40);
  const at = text ? new Date(text) : null;
  return at && Number.isFinite(at.getTime()) ? at : null;
};

export class MalformedEvent extends Error {}

function easypost(body: Json): CarrierEvent | null {
  if (body.object !== 'Event') throw new MalformedEvent('Not an EasyPost Event');
  const description = str(body.description, 100);
  // Only tracker events concern us; others are acknowledged and ignored.
  if (description !== 'tracker.updated' && description !== 'tracker.created') return null;
  const tracker = obj(body.result);
  const eventId = str(body.id, 200);
  const sentAt = time(body.created_at);
  const trackingNumber = str(tracker?.tracking_code, 40);
  const status = EASYPOST_STATUS[str(tracker?.status, 40) ?? ''];
  if (!tracker || !eventId || !sentAt || !trackingNumber || !status) throw new MalformedEvent('An EasyPost tracker event needs id, created_at, result.tracking_code and result.status');
  const details = Array.isArray(tracker.tracking_details) ? tracker.tracking_details.slice(-500).map(obj).filter((d): d is Json => d !== null) : [];
  const last = details.at(-1);
  const place = obj(last?.tracking_location);
  const location = [str(place?.city, 100), str(place?.state, 100), str(place?.country, 100)].filter(Boolean).join(', ');
  return {
    eventId,
    sentAt,
    trackingNumber,
    occurredAt: time(last?.datetime) ?? sentAt,
    status,
    location,
    description: str(last?.message, 1000) ?? status,
    estimatedDelivery: day(tracker.est_delivery_date),
  };
}

function aftership(body: Json): CarrierEvent | null {
  if (body.event !== 'tracking_update') return null;
  const msg = obj(body.msg);
  const eventId = str(body.event_id, 200);
  const ts = typeof body.ts === 'number' && Number.isFinite(body.ts) ? new Date(body.ts * 1000) : null;
  const trackingNumber = str(msg?.tracking_number, 40);
  const status = AFTERSHIP_STATUS[str(msg?.tag, 40) ?? ''];
  if (!msg || !eventId || !ts || !trackingNumber || !status) throw new MalformedEvent('An AfterShip tracking_update needs event_id, ts, msg.tracking_number and msg.tag');
  const checkpoints = Array.isArray(msg.checkpoints) ? msg.checkpoints.slice(-500).map(obj).filter((c): c is Json => c !== null) : [];
  const last = checkpoints.at(-1);
  const location = str(last?.location, 200) ?? [str(last?.city, 100), str(last?.country_iso3, 10)].filter(Boolean).join(', ');
  return {
    eventId,
    sentAt: ts,
    trackingNumber,
    occurredAt: time(last?.checkpoint_time) ?? ts,
    status,
    location,
    description: str(last?.message, 1000) ?? status,
    estimatedDelivery: day(msg.expected_delivery),
  };
}

/** The event a body carries; null for an event kind we do not take (acknowledged, not stored). */
export function readCarrierEvent(provider: CarrierProvider, body: unknown): CarrierEvent | null {
  const json = obj(body);
  if (!json) throw new MalformedEvent('The body is not a JSON object');
  return provider === 'easypost' ? easypost(json) : aftership(json);
}
