// Twilio's request signature (decision 076), as Twilio documents it
// (https://www.twilio.com/docs/usage/security#validating-requests): the full
// URL Twilio called (scheme, host, path, query), then each POST parameter's
// name and value, sorted by name, appended with no separators; HMAC-SHA1 of
// that with the account's Auth Token as the key, base64-encoded; sent as
// X-Twilio-Signature. Web Crypto only: runs in workerd and in Node.

export const TWILIO_SIGNATURE_HEADER = 'X-Twilio-Signature';

/** The POST parameters in Twilio's order: by name, then by value for a repeated name. */
function signedText(url: string, params: [string, string][]): string {
  const sorted = [...params].sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return url + sorted.map(([key, value]) => key + value).join('');
}

export async function twilioSignature(authToken: string, url: string, params: [string, string][]): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(authToken), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(signedText(url, params))));
  let binary = '';
  for (const byte of mac) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export async function isTwilioSigned(authToken: string, url: string, params: [string, string][], signature: string | null): Promise<boolean> {
  if (!authToken || !signature) return false;
  return equalInConstantTime(await twilioSignature(authToken, url, params), signature);
}
