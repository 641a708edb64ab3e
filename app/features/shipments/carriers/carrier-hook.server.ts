// POST /hooks/carriers/<provider>/<account hook token> (issue 36, decision 061):
// a tracking aggregator's webhook, answered by the Worker before React Router
// (a provider sends no Origin; its signature is its check).
// 413 over 1 MB (unread), 401 an unknown token or a wrong signature (the same
// answer: nothing to learn by guessing), 400 not the provider's format, 401 a
// stale event, 404 a tracking number the account does not have (nothing
// stored), 200 stored or a replay (stored once).
import { serviceClient } from '~/jobs/runner.server';
import { readCapped } from '~/features/helpdesk/inbound/receive.server';
import { MalformedEvent, readCarrierEvent } from './formats';
import { CARRIER_PROVIDERS, isFresh, MAX_CARRIER_BODY_BYTES, verifyCarrierSignature, type CarrierProvider } from './signatures';

const HOOK_PATH = /^\/hooks\/carriers\/([a-z]+)\/([A-Za-z0-9]{1,64})$/;

export const isCarrierHookPath = (pathname: string) => pathname.startsWith('/hooks/carriers/');

const answer = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
const refuse = (status: number, error: string) => answer(status, { error });

export async function handleCarrierHook(request: Request, env: Env, now = Date.now()): Promise<Response> {
  const match = HOOK_PATH.exec(new URL(request.url).pathname);
  const provider = match?.[1] as CarrierProvider | undefined;
  if (!match || !provider || !CARRIER_PROVIDERS.includes(provider)) return refuse(404, 'Not found');
  if (request.method !== 'POST') return refuse(405, 'Use POST');
  const token = match[2];
  if (Number(request.headers.get('Content-Length') ?? '0') > MAX_CARRIER_BODY_BYTES) return refuse(413, 'The body is larger than 1 MB');
  const binary = await readCapped(request.body, MAX_CARRIER_BODY_BYTES);
  if (binary === null) return refuse(413, 'The body is larger than 1 MB');
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));

  const admin = serviceClient(env);
  if (!admin) return refuse(503, 'Carrier hooks are not set up (no service role key)');
  const { data: secret, error } = await admin.rpc('carrier_hook_secret', { p_token: token });
  if (error) throw new Error(`reading the carrier hook failed: ${error.message}`);
  if (typeof secret !== 'string' || !(await verifyCarrierSignature(provider, secret, bytes, request.headers))) {
    return refuse(401, 'Wrong signature');
  }

  let event;
  try {
    event = readCarrierEvent(provider, JSON.parse(new TextDecoder().decode(bytes)));
  } catch (caught) {
    if (caught instanceof SyntaxError || caught instanceof MalformedEvent) return refuse(400, caught instanceof MalformedEvent ? caught.message : 'The body is not JSON');
    throw caught;
  }
  if (!event) return answer(200, { stored: false, ignored: true });
  // Neither scheme signs a time: the event's own, within 5 minutes, keeps a captured body from being replayed later.
  if (!isFresh(event.sentAt, now)) return refuse(401, 'The event is more than 5 minutes old');

  const { data: stored, error: writeError } = await admin.rpc('record_carrier_event', {
    p_token: token,
    p_provider: provider,
    p_tracking_number: event.trackingNumber,
    p_event_id: event.eventId,
    p_occurred_at: event.occurredAt.toISOString(),
    p_status: event.status,
    p_location: event.location,
    p_description: event.description,
    p_estimated_delivery: event.estimatedDelivery as string,
  });
  if (writeError?.code === 'P0002') return refuse(404, 'Unknown tracking number');
  if (writeError?.code === '22023' || writeError?.code === '23514') return refuse(400, writeError.message);
  if (writeError) throw new Error(`recording a carrier event failed: ${writeError.message}`);
  return answer(200, { stored: stored !== null, duplicate: stored === null });
}
