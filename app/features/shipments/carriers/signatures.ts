// The signature schemes of the two tracking aggregators whose webhooks we take
// (decision 061), on WebCrypto so they run in workerd as in Node:
// - EasyPost: `X-Hmac-Signature: hmac-sha256-hex=<hex HMAC-SHA256 of the raw
//   body>` keyed with the webhook secret normalised to NFKD (as the official
//   client library's validateWebhook does).
// - AfterShip Tracking: `aftership-hmac-sha256: <base64 HMAC-SHA256 of the raw
//   body>` keyed with the account's webhook secret.
// Neither scheme signs a time, so freshness is the event's own time (see
// isFresh): a replay of a captured body is refused once stale, and a replay
// inside the window is stored once (per provider event id).

export type CarrierProvider = 'easypost' | 'aftership';
export const CARRIER_PROVIDERS: readonly CarrierProvider[] = ['easypost', 'aftership'];

/** The most a carrier body may carry: larger posts are refused unread. */
export const MAX_CARRIER_BODY_BYTES = 1024 * 1024;
/** How old (or how far ahead) an event may be and still be taken. */
export const FRESHNESS_MS = 5 * 60 * 1000;

const encoder = new TextEncoder();

async function hmacSha256(secret: string, body: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, body));
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** Equal strings, compared in time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** The header value the provider sends for this body and secret. */
export async function signCarrierBody(provider: CarrierProvider, secret: string, body: Uint8Array<ArrayBuffer>): Promise<string> {
  if (provider === 'easypost') return `hmac-sha256-hex=${hex(await hmacSha256(secret.normalize('NFKD'), body))}`;
  return base64(await hmacSha256(secret, body));
}

/** The header each provider signs in (lower case, as Headers reads them). */
export const SIGNATURE_HEADER: Record<CarrierProvider, string> = {
  easypost: 'x-hmac-signature',
  aftership: 'aftership-hmac-sha256',
};

export async function verifyCarrierSignature(
  provider: CarrierProvider,
  secret: string,
  body: Uint8Array<ArrayBuffer>,
  headers: Headers,
): Promise<boolean> {
  const sent = headers.get(SIGNATURE_HEADER[provider]);
  if (!sent || !secret) return false;
  return sameText(sent.trim(), await signCarrierBody(provider, secret, body));
}

/** An event's time within FRESHNESS_MS of now. */
export function isFresh(at: Date, now = Date.now()): boolean {
  const time = at.getTime();
  return Number.isFinite(time) && Math.abs(now - time) <= FRESHNESS_MS;
}
