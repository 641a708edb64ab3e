// The two providers' signature schemes (decision 061): a body signed as each
// provider documents is accepted; another secret, another body, the other
// provider's header or format, and a stale time are refused.
import { describe, expect, it } from 'vitest';
import { FRESHNESS_MS, isFresh, signCarrierBody, verifyCarrierSignature } from '../../app/features/shipments/carriers/signatures.ts';

const body = new TextEncoder().encode('{"id":"evt_1","description":"tracker.updated","result":{"weight":1.0}}');
const secret = 'ｓecret-with-fullwidth-s';

/** The HMAC-SHA256 of the body under `key`, computed here on its own (not through the module). */
async function hmac(key: string): Promise<number[]> {
  const imported = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return Array.from(new Uint8Array(await crypto.subtle.sign('HMAC', imported, body)));
}

describe('carrier webhook signatures', () => {
  it("EasyPost: hmac-sha256-hex= and the hex HMAC of the body under the NFKD secret, in X-Hmac-Signature", async () => {
    // Computed here as EasyPost's client library does: the NFKD secret, hex digest, prefixed.
    const expected = `hmac-sha256-hex=${(await hmac(secret.normalize('NFKD'))).map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    expect(expected).not.toBe(`hmac-sha256-hex=${(await hmac(secret)).map((b) => b.toString(16).padStart(2, '0')).join('')}`);
    expect(await signCarrierBody('easypost', secret, body)).toBe(expected);
    expect(await verifyCarrierSignature('easypost', secret, body, new Headers({ 'X-Hmac-Signature': expected }))).toBe(true);
    expect(await verifyCarrierSignature('easypost', 'other', body, new Headers({ 'X-Hmac-Signature': expected }))).toBe(false);
    expect(await verifyCarrierSignature('easypost', secret, new TextEncoder().encode('{}'), new Headers({ 'X-Hmac-Signature': expected }))).toBe(false);
    expect(await verifyCarrierSignature('easypost', secret, body, new Headers({ 'aftership-hmac-sha256': expected }))).toBe(false);
    expect(await verifyCarrierSignature('easypost', secret, body, new Headers())).toBe(false);
  });

  it('AfterShip: the base64 HMAC of the body under the secret, in aftership-hmac-sha256', async () => {
    const expected = btoa(String.fromCharCode(...(await hmac(secret))));
    expect(await signCarrierBody('aftership', secret, body)).toBe(expected);
    expect(await verifyCarrierSignature('aftership', secret, body, new Headers({ 'aftership-hmac-sha256': expected }))).toBe(true);
    expect(await verifyCarrierSignature('aftership', secret, body, new Headers({ 'aftership-hmac-sha256': expected.slice(1) }))).toBe(false);
    // EasyPost's format for the same body is not AfterShip's.
    const easypost = await signCarrierBody('easypost', secret, body);
    expect(await verifyCarrierSignature('aftership', secret, body, new Headers({ 'aftership-hmac-sha256': easypost }))).toBe(false);
  });

  it('takes an event within five minutes of now, and no older or later', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(isFresh(new Date(now - FRESHNESS_MS), now)).toBe(true);
    expect(isFresh(new Date(now - FRESHNESS_MS - 1), now)).toBe(false);
    expect(isFresh(new Date(now + FRESHNESS_MS + 1), now)).toBe(false);
    expect(isFresh(new Date('not a date'), now)).toBe(false);
  });
});
