// The client's IP and user agent, passed to the database for its audit rows
// in a header only this Worker can sign (decision 014). The browser cannot
// forge it: the key (AUDIT_SIGNING_SECRET, a Worker secret) is shared only
// with the database (private.audit_signing_key), which checks the HMAC and
// the time and stores null for anything else.
//
//   x-opshub-client: <unix seconds>.<base64 of {"ip","ua"}>.<hex HMAC-SHA256 of "<seconds>.<base64>">

export const AUDIT_CLIENT_HEADER = 'x-opshub-client';

const MAX_IP = 64;
const MAX_USER_AGENT = 512;
// What CF-Connecting-IP holds: an IPv4 or IPv6 address.
const IP_ADDRESS = /^[0-9A-Fa-f:.]{2,64}$/;

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keys.set(secret, key);
  }
  return key;
}

function base64(text: string): string {
  let binary = '';
  for (const byte of encoder.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex(bytes: ArrayBuffer): string {
  let out = '';
  for (const byte of new Uint8Array(bytes)) out += HEX_DIGITS[byte];
  return out;
}

/** What the request says of its client: Cloudflare's CF-Connecting-IP, and the User-Agent. */
export function clientOf(request: Request): { ip: string | null; ua: string | null } {
  const ip = request.headers.get('CF-Connecting-IP')?.trim() ?? '';
  const ua = request.headers.get('User-Agent') ?? '';
  return {
    ip: IP_ADDRESS.test(ip) ? ip.slice(0, MAX_IP) : null,
    ua: ua ? ua.slice(0, MAX_USER_AGENT) : null,
  };
}

/** The signed header's value, or null without a key (the database then stores null). */
export async function signedClientHeader(
  client: { ip: string | null; ua: string | null },
  secret: string | undefined,
  now = Date.now(),
): Promise<string | null> {
  if (!secret) return null;
  const signed = `${Math.floor(now / 1000)}.${base64(JSON.stringify(client))}`;
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(signed));
  return `${signed}.${hex(signature)}`;
}

/** A fetch that adds the signed client header to every call it makes. */
export function fetchSigningClient(
  fetcher: typeof fetch,
  client: { ip: string | null; ua: string | null },
  secret: string | undefined,
): typeof fetch {
  // The value changes only with the second: a page's reads share one signature.
  let signed: { second: number; value: Promise<string | null> } | undefined;
  return async (input, init) => {
    const second = Math.floor(Date.now() / 1000);
    if (signed?.second !== second) signed = { second, value: signedClientHeader(client, secret, second * 1000) };
    const value = await signed.value;
    if (value === null) return fetcher(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set(AUDIT_CLIENT_HEADER, value);
    return fetcher(input, { ...init, headers });
  };
}
