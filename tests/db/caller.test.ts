// Who the caller is (private.caller behind session_user_id, current_user_id,
// current_account_id, current_user_role and is_account_admin) is worked out
// once per transaction and kept for it. These check that what is kept is never
// stale where it matters: a change to the caller's users row or session made
// earlier in the same transaction, other claims in the same transaction, and
// the next transaction after another one's change. And current_profile, the
// page's one read of the signed-in user, for every kind of caller. On PGlite
// and (with TEST_POSTGRES_URL) PostgreSQL 15.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../supabase/local/db.ts';
import { applySchema, asUser, createPglite, createPostgres, insertAuthUser, one, postgresUrl, type TestDatabase } from './support/sql-db.ts';
import { ROLES } from '../support/accounts.ts';

const targets = [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
];

interface Facts {
  session_user: string | null;
  user_id: string | null;
  account_id: string | null;
  role: string | null;
  admin: boolean;
}

const FACTS = `select public.session_user_id() as session_user, public.current_user_id() as user_id,
                      public.current_account_id() as account_id, public.current_user_role() as role,
                      public.is_account_admin() as admin`;
const facts = (tx: Queryable) => one<Facts>(tx, FACTS);

/**
 * A write by the service (the connection's own role, service-role claims: as
 * the jobs runner or an admin's RPC would make it), then the same end user
 * again, in the same transaction.
 */
async function asService(tx: Queryable, sql: string, params: unknown[] = []): Promise<void> {
  const { claims } = await one<{ claims: string }>(tx, `select current_setting('request.jwt.claims') as claims`);
  await tx.exec('reset role');
  await tx.query(`select set_config('request.jwt.claims', '{"role": "service_role"}', true)`);
  await tx.query(sql, params);
  await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
  await tx.exec('set local role authenticated');
}

for (const target of targets) {
  describe.skipIf(target.skip)(`the caller, once per transaction, on ${target.name}`, () => {
    let handle: TestDatabase;
    let db: Db;
    let adminAuth: string;
    let admin: { id: string; account_id: string };
    const members: Record<string, { auth: string; id: string }> = {};

    beforeAll(async () => {
      handle = await target.create();
      db = handle.db;
      await applySchema(db);
      adminAuth = await insertAuthUser(db, `caller-admin-${target.name}@example.test`, { meta: { company_name: 'Caller Co' } });
      admin = await one(db, 'select id, account_id from public.users where auth_user_id = $1', [adminAuth]);
      for (const role of ROLES.filter((r) => r !== 'admin')) {
        const auth = await insertAuthUser(db, `caller-${role}-${target.name}@example.test`);
        // Moved into the admin's account with the role, as an accepted invitation leaves them.
        const row = await one<{ id: string }>(
          db, 'update public.users set account_id = $2, role = $3 where auth_user_id = $1 returning id', [auth, admin.account_id, role]);
        members[role] = { auth, id: row.id };
      }
    });
    afterAll(async () => handle?.drop());

    it('answers for an active admin, and the same again later in the transaction', async () => {
      await asUser(db, adminAuth, async (tx) => {
        const expected = { session_user: adminAuth, user_id: admin.id, account_id: admin.account_id, role: 'admin', admin: true };
        expect(await facts(tx)).toEqual(expected);
        expect(await facts(tx)).toEqual(expected);
      });
    });

    it("sees a change to the caller's users row made earlier in the same transaction", async () => {
      const member = members.member;
      await asUser(db, member.auth, async (tx) => {
        expect(await facts(tx)).toMatchObject({ role: 'member', admin: false, account_id: admin.account_id });
        await asService(tx, `update public.users set role = 'admin' where id = $1`, [member.id]);
        expect(await facts(tx)).toMatchObject({ role: 'admin', admin: true });
        await asService(tx, 'update public.users set is_active = false where id = $1', [member.id]);
        // The session is still live; an inactive row speaks for no one.
        expect(await facts(tx)).toEqual({ session_user: member.auth, user_id: null, account_id: null, role: null, admin: false });
        throw new Rollback();
      }).catch(ignoreRollback);
      // Rolled back: the member again.
      await asUser(db, member.auth, async (tx) => expect(await facts(tx)).toMatchObject({ role: 'member', user_id: member.id }));
    });

    it('sees a session ended earlier in the same transaction', async () => {
      const auditor = members.auditor;
      const session = await one<{ id: string }>(db, 'insert into auth.sessions (user_id) values ($1) returning id', [auditor.auth]);
      const claims = { sub: auditor.auth, role: 'authenticated', session_id: session.id };
      await db.transaction(async (tx) => {
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
        await tx.exec('set local role authenticated');
        expect(await facts(tx)).toMatchObject({ session_user: auditor.auth, role: 'auditor' });
        await asService(tx, 'delete from auth.sessions where id = $1', [session.id]);
        expect(await facts(tx)).toEqual({ session_user: null, user_id: null, account_id: null, role: null, admin: false });
      });
    });

    it('answers for whoever the claims name when they change within a transaction', async () => {
      await asUser(db, adminAuth, async (tx) => {
        expect((await facts(tx)).role).toBe('admin');
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: members.client.auth, role: 'authenticated' })]);
        expect(await facts(tx)).toMatchObject({ session_user: members.client.auth, role: 'client', admin: false });
      });
    });

    it("sees another transaction's committed change from its next transaction", async () => {
      const supplier = members.supplier;
      await asUser(db, supplier.auth, async (tx) => expect((await facts(tx)).role).toBe('supplier'));
      await db.query(`update public.users set role = 'member' where id = $1`, [supplier.id]);
      try {
        await asUser(db, supplier.auth, async (tx) => expect((await facts(tx)).role).toBe('member'));
      } finally {
        await db.query(`update public.users set role = 'supplier' where id = $1`, [supplier.id]);
      }
    });

    describe('current_profile', () => {
      const profileOf = (authId: string, claims?: object) =>
        asUser(db, authId, async (tx) => {
          if (claims) await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
          return (await one<{ answer: { signed_in: boolean; profile: Record<string, unknown> | null } }>(
            tx, 'select public.current_profile() as answer')).answer;
        });

      for (const role of ROLES) {
        const staff = role === 'admin' || role === 'member' || role === 'auditor';
        it(`gives a ${role} their own row${staff ? " and the account's name" : ', without the account (outsiders cannot read it)'}`, async () => {
          const authId = role === 'admin' ? adminAuth : members[role].auth;
          const answer = await profileOf(authId);
          expect(answer.signed_in).toBe(true);
          expect(answer.profile).toMatchObject({ auth_user_id: authId, role, is_active: true, account_id: admin.account_id });
          expect(answer.profile?.account).toEqual(staff ? { name: 'Caller Co' } : null);
        });
      }

      it('gives a deactivated user their row, inactive and without the account', async () => {
        const member = members.member;
        await db.query('update public.users set is_active = false where id = $1', [member.id]);
        try {
          const answer = await profileOf(member.auth);
          expect(answer).toMatchObject({ signed_in: true, profile: { id: member.id, is_active: false, account: null } });
        } finally {
          await db.query('update public.users set is_active = true where id = $1', [member.id]);
        }
      });

      it('says a signed-out session is signed out, and shows it no row', async () => {
        const answer = await profileOf(adminAuth, { sub: adminAuth, role: 'authenticated', session_id: crypto.randomUUID() });
        expect(answer).toEqual({ signed_in: false, profile: null });
      });

      it('tells a live session without a users row apart from a signed-out one', async () => {
        const orphan = await insertAuthUser(db, `caller-orphan-${target.name}@example.test`);
        await db.query('delete from public.users where auth_user_id = $1', [orphan]);
        expect(await profileOf(orphan)).toEqual({ signed_in: true, profile: null });
      });

      it('is not open to anonymous callers', async () => {
        await expect(
          db.transaction(async (tx) => {
            await tx.exec('set local role anon');
            await tx.query('select public.current_profile()');
          }),
        ).rejects.toThrow(/permission denied/);
      });
    });
  });
}

class Rollback extends Error {}
function ignoreRollback(error: unknown): void {
  if (!(error instanceof Rollback)) throw error;
}
