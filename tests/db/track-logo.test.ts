// The seller's logo on the public tracking page (issue 36): track_shipment_logo
// answers, to anyone holding a tracking number (anon included), the logo path of
// that shipment's own account and no other; a number that names no shipment
// answers null (a path outside the account's own folder cannot be stored:
// accounts_logo_path_own);
// track_shipment says only whether there is a logo, never where it is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let seller: Member;
let other: Member;
let bare: Member;

const setLogo = (member: Member, path: string | null) =>
  backend.db.query('update public.accounts set logo_path = $2 where id = $1', [member.accountId, path]);

async function shipment(member: Member): Promise<string> {
  const { data, error } = await member.client
    .rpc('create_shipment', {
      p_origin: 'Berlin', p_destination: 'Paris', p_carrier: 'dhl', p_weight: 2, p_weight_unit: 'kg',
      p_length: null, p_width: null, p_height: null, p_dimension_unit: null, p_description: 'Parts', p_special_instructions: null,
    })
    .single<{ tracking_number: string }>();
  if (error) throw error;
  return data.tracking_number;
}

beforeAll(async () => {
  backend = await startBackend({ on: 'pglite' });
  seller = await signUpFreshAdmin(backend, 'track-logo-seller');
  other = await signUpFreshAdmin(backend, 'track-logo-other');
  bare = await signUpFreshAdmin(backend, 'track-logo-bare');
  await setLogo(seller, `${seller.accountId}/logo.png`);
  await setLogo(other, `${other.accountId}/logo.jpg`);
}, 120_000);
afterAll(async () => backend?.stop());

describe('the logo a tracking number may show', () => {
  it("answers exactly the shipment's account's logo to anyone with the number, any case; has_logo on the page, no path", async () => {
    const [mine, theirs] = [await shipment(seller), await shipment(other)];
    for (const [who, client] of [['anon', anonClient(backend)], ['another account', other.client], ['the seller', seller.client]] as const) {
      expect((await client.rpc('track_shipment_logo', { p_tracking_number: mine })).data, who).toEqual({ logo_path: `${seller.accountId}/logo.png` });
      expect((await client.rpc('track_shipment_logo', { p_tracking_number: mine.toLowerCase() })).data, who).toEqual({ logo_path: `${seller.accountId}/logo.png` });
      expect((await client.rpc('track_shipment_logo', { p_tracking_number: theirs })).data, who).toEqual({ logo_path: `${other.accountId}/logo.jpg` });
    }
    const page = (await anonClient(backend).rpc('track_shipment', { p_tracking_number: mine })).data as Record<string, unknown>;
    expect(page.has_logo).toBe(true);
    expect(JSON.stringify(page)).not.toContain(seller.accountId);
  });

  it('a wrong or malformed number answers null; an account without a logo answers none and has_logo false', async () => {
    const anon = anonClient(backend);
    for (const wrong of ['SHP-NOSUCHNUMBER9', '<script>', '', 'x'.repeat(41)]) {
      const { data, error } = await anon.rpc('track_shipment_logo', { p_tracking_number: wrong });
      expect(error, wrong).toBeNull();
      expect(data, wrong).toBeNull();
    }
    const number = await shipment(bare);
    expect((await anon.rpc('track_shipment_logo', { p_tracking_number: number })).data).toEqual({ logo_path: null });
    expect(((await anon.rpc('track_shipment', { p_tracking_number: number })).data as { has_logo: boolean }).has_logo).toBe(false);
  });
});
