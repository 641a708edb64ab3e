// The database half of sign-in throttling: wrong passwords counted per
// address (10 within 15 minutes lock it), through three narrow functions;
// the table itself is out of every API role's reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { uniqueEmail } from '../support/accounts.ts';

let backend: TestBackend;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'lockout');
});
afterAll(async () => backend?.stop());

async function fail(email: string, times: number): Promise<number> {
  let lockedFor = 0;
  for (let i = 0; i < times; i++) {
    const { data, error } = await anonClient(backend).rpc('record_failed_sign_in', { p_email: email });
    expect(error).toBeNull();
    lockedFor = data as number;
  }
  return lockedFor;
}

const lockout = async (email: string) =>
  (await anonClient(backend).rpc('sign_in_lockout', { p_email: email })).data as number;

describe('sign-in lockout', () => {
  it('locks an address for about 15 minutes at its tenth wrong password, whatever the case', async () => {
    const email = uniqueEmail('target');
    expect(await fail(email, 9)).toBe(0);
    expect(await lockout(email)).toBe(0);
    const lockedFor = await fail(email.toUpperCase(), 1);
    expect(lockedFor).toBeGreaterThan(14 * 60);
    expect(lockedFor).toBeLessThanOrEqual(15 * 60);
    expect(await lockout(` ${email} `)).toBeGreaterThan(14 * 60);
    expect(await lockout(uniqueEmail('bystander'))).toBe(0);
  });

  it('keeps the count out of reach: no table over REST, nothing readable or writable directly', async () => {
    for (const name of ['failed_sign_ins', 'private.failed_sign_ins']) {
      const read = await admin.client.from(name).select('*');
      expect(read.error, name).not.toBeNull();
    }
    const cleared = await anonClient(backend).rpc('clear_failed_sign_ins');
    expect(cleared.error).not.toBeNull();
  });

  it('lets only the signed-in owner of an address clear its count', async () => {
    const other = uniqueEmail('other');
    await fail(admin.email, 10);
    await fail(other, 10);
    expect(await lockout(admin.email)).toBeGreaterThan(0);
    const { error } = await admin.client.rpc('clear_failed_sign_ins');
    expect(error).toBeNull();
    expect(await lockout(admin.email)).toBe(0);
    expect(await lockout(other)).toBeGreaterThan(0);
  });

  it('ignores absurd input instead of storing it', async () => {
    expect(await fail(`${'a'.repeat(300)}@example.test`, 12)).toBe(0);
  });
});
