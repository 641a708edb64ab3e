// Invitation tokens are credentials: the database keeps only their sha256, and
// nobody but the server functions reads even that. An admin who reads
// everything the API lets them read cannot accept an invitation in the
// invitee's name; existing tokens were hashed by the migration.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../supabase/local/migrate.ts';
import {
  anonClient, invitationTokenFor, invoke, PASSWORD, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';
import { createPglite, createPostgres, insertAuthUser, migrateBefore, one, postgresUrl } from './support/sql-db.ts';
import { uniqueEmail } from '../support/accounts.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let backend: TestBackend;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'token-admin');
});
afterAll(async () => backend?.stop());

async function invite(email: string): Promise<string> {
  expect((await invoke(admin.client, 'invite-user', { email, role: 'admin' })).status).toBe(201);
  return invitationTokenFor(backend, email);
}

describe('invitation tokens', () => {
  it('are stored only as the sha256 of the mailed token', async () => {
    const email = uniqueEmail('hashed');
    const token = await invite(email);
    const { data } = await serviceClient(backend).from('user_invitations').select('*').eq('email', email).single();
    expect(data).not.toHaveProperty('token');
    expect(data.token_hash).toBe(sha256(token));
  });

  it('are not readable over REST by the inviting admin, nor anyone else signed in or not', async () => {
    const email = uniqueEmail('secret');
    await invite(email);
    for (const columns of ['*', 'token_hash', 'token']) {
      const read = await admin.client.from('user_invitations').select(columns).eq('email', email);
      expect(read.error, columns).not.toBeNull();
      expect(read.data).toBeNull();
    }
    const anon = await anonClient(backend).from('user_invitations').select('*');
    expect(anon.error).not.toBeNull();
    // What the settings screen lists still reads fine.
    const listed = await admin.client.from('user_invitations').select('id, email, role, expires_at').eq('email', email);
    expect(listed.error).toBeNull();
    expect(listed.data).toHaveLength(1);
  });

  it('cannot be accepted by an admin from anything the table shows them', async () => {
    const email = uniqueEmail('victim');
    await invite(email);
    // Everything the admin can read of it: the whole row if the API allowed it, else the listed columns.
    const whole = await admin.client.from('user_invitations').select('*').eq('email', email).maybeSingle();
    const listed = await admin.client
      .from('user_invitations')
      .select('id, account_id, email, role, invited_by, expires_at, created_at')
      .eq('email', email)
      .single();
    const values = [...Object.values(whole.data ?? {}), ...Object.values(listed.data ?? {})].map(String);
    const guesses = [...new Set(values)];
    expect(guesses.length).toBeGreaterThan(3);
    for (const token of guesses) {
      const result = await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD });
      expect(result.status, token).toBeGreaterThanOrEqual(400);
    }
    const { data: users } = await serviceClient(backend).from('users').select('id').eq('email', email);
    expect(users).toEqual([]);
  });

  it('still open the invitation page and accept with the mailed token', async () => {
    const email = uniqueEmail('invitee');
    const token = await invite(email);
    const { data: open } = await anonClient(backend).rpc('get_open_invitation', { p_token: token });
    expect(open).toEqual([expect.objectContaining({ email, role: 'admin' })]);
    const { data: byHash } = await anonClient(backend).rpc('get_open_invitation', { p_token: sha256(token) });
    expect(byHash).toEqual([]);
    expect((await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD })).status).toBe(201);
  });
});

const HASHING_MIGRATION = '20261124200001';

for (const target of [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
]) {
  describe.skipIf(target.skip)(`the token-hashing migration on ${target.name}`, () => {
    it('hashes the tokens of existing invitations, which keep working', async () => {
      const { db, drop } = await target.create();
      try {
        await migrateBefore(db, HASHING_MIGRATION, { seed: false });
        const adminId = await insertAuthUser(db, 'old-admin@example.test');
        const token = 'f'.repeat(64);
        await db.query(
          `insert into public.user_invitations (account_id, email, role, token)
           select account_id, 'old-invitee@example.test', 'client', $1 from public.users where auth_user_id = $2`,
          [token, adminId],
        );
        await migrate(db, { seed: false });
        expect(await one(db, `select token_hash from public.user_invitations`)).toEqual({ token_hash: sha256(token) });
        expect(await one(db, `select count(*)::int as n from public.get_open_invitation($1)`, [token])).toEqual({ n: 1 });
      } finally {
        await drop();
      }
    });
  });
}
