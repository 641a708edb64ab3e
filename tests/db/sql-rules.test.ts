// The database rules checked directly in SQL, on PGlite and (with
// TEST_POSTGRES_URL) on PostgreSQL 15: the sign-up and invitation triggers,
// the one-time token under concurrency, quote numbering, the lockout on
// deactivation and the append-only audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../supabase/local/db.ts';
import {
  applySchema, asRole, asUser, createPglite, createPostgres, insertAuthUser, one, postgresUrl, type TestDatabase,
} from './support/sql-db.ts';

const targets = [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`database rules on ${target.name}`, () => {
    let handle: TestDatabase;
    let db: Db;

    beforeAll(async () => {
      handle = await target.create();
      db = handle.db;
      await applySchema(db);
    });
    afterAll(async () => handle?.drop());

    const newToken = () => randomBytes(32).toString('hex');
    const userRow = (authId: string) =>
      one<{ id: string; account_id: string; role: string; first_name: string | null }>(
        db, 'select id, account_id, role, first_name from public.users where auth_user_id = $1', [authId]);

    async function invite(accountId: string, email: string, role = 'supplier', expiresAt = "now() + interval '7 days'") {
      const token = newToken();
      await db.query(
        `insert into public.user_invitations (account_id, email, role, token_hash, expires_at)
         values ($1, $2, $3, encode(extensions.digest($4::text, 'sha256'), 'hex'), ${expiresAt})`,
        [accountId, email, role, token]);
      return token;
    }

    it('a plain sign-up creates a 14-day trial account in USD/UTC with its user as admin', async () => {
      const authId = await insertAuthUser(db, `founder-${newToken().slice(0, 8)}@x.test`, { meta: { first_name: 'Fay', last_name: 'Founder' } });
      const user = await userRow(authId);
      expect(user).toMatchObject({ role: 'admin', first_name: 'Fay' });
      const account = await one<Record<string, unknown>>(db,
        `select name, subscription_status, default_currency, timezone,
                trial_ends_at between now() + interval '14 days' - interval '1 minute' and now() + interval '14 days' + interval '1 minute' as fourteen_days
           from public.accounts where id = $1`, [user.account_id]);
      expect(account).toEqual({ name: "Fay Founder's Account", subscription_status: 'trial', default_currency: 'USD', timezone: 'UTC', fourteen_days: true });
    });

    it("a sign-up's company name names its account (trimmed, at most 200 characters); without one the old name stays", async () => {
      const named = await userRow(await insertAuthUser(db, `co-${newToken().slice(0, 8)}@x.test`, { meta: { first_name: 'Cy', company_name: '  Cy Works  ' } }));
      expect((await one<{ name: string }>(db, 'select name from public.accounts where id = $1', [named.account_id])).name).toBe('Cy Works');
      const long = await userRow(await insertAuthUser(db, `long-${newToken().slice(0, 8)}@x.test`, { meta: { company_name: 'L'.repeat(300) } }));
      expect((await one<{ name: string }>(db, 'select name from public.accounts where id = $1', [long.account_id])).name).toBe('L'.repeat(200));
      const blank = await userRow(await insertAuthUser(db, `blank-${newToken().slice(0, 8)}@x.test`, { meta: { first_name: 'Bo', company_name: '   ' } }));
      expect((await one<{ name: string }>(db, 'select name from public.accounts where id = $1', [blank.account_id])).name).toBe("Bo's Account");
    });

    it('an invitation token in app_metadata joins the invited account with the invited role, once', async () => {
      const admin = await userRow(await insertAuthUser(db, `admin-${newToken().slice(0, 8)}@x.test`));
      const email = `inv-${newToken().slice(0, 8)}@x.test`;
      const token = await invite(admin.account_id, email, 'auditor');
      const accounts = await one<{ n: number }>(db, 'select count(*)::int as n from public.accounts');

      const authId = await insertAuthUser(db, email, { meta: { first_name: 'Ivy' }, appMeta: { invitation_token: token } });
      expect(await userRow(authId)).toMatchObject({ account_id: admin.account_id, role: 'auditor', first_name: 'Ivy' });
      expect((await one<{ n: number }>(db, 'select count(*)::int as n from public.accounts')).n).toBe(accounts.n);
      const meta = await one<{ m: Record<string, unknown> }>(db, 'select raw_app_meta_data as m from auth.users where id = $1', [authId]);
      expect(meta.m).not.toHaveProperty('invitation_token');
      const invitation = await one<{ accepted: boolean }>(db, "select accepted_at is not null as accepted from public.user_invitations where token_hash = encode(extensions.digest($1::text, 'sha256'), 'hex')", [token]);
      expect(invitation.accepted).toBe(true);

      // The same token again, for another e-mail: refused, and nothing is created.
      await expect(insertAuthUser(db, `again-${email}`, { appMeta: { invitation_token: token } }))
        .rejects.toThrow(/invalid or has expired/);
    });

    it('hosted GoTrue order (insert, then app_metadata update) swaps the fresh account for the invitation', async () => {
      const admin = await userRow(await insertAuthUser(db, `admin-${newToken().slice(0, 8)}@x.test`));
      const email = `hosted-${newToken().slice(0, 8)}@x.test`;
      const token = await invite(admin.account_id, email, 'client');
      const before = await one<{ n: number }>(db, 'select count(*)::int as n from public.accounts');
      const authId = await db.transaction(async (tx) => {
        const id = await insertAuthUser(tx, email);
        await tx.query(`update auth.users set raw_app_meta_data = raw_app_meta_data || $2 where id = $1`,
          [id, JSON.stringify({ invitation_token: token })]);
        return id;
      });
      expect(await userRow(authId)).toMatchObject({ account_id: admin.account_id, role: 'client' });
      expect((await one<{ n: number }>(db, 'select count(*)::int as n from public.accounts')).n).toBe(before.n);
    });

    it('an expired, unknown or wrong-email token makes the auth user insert fail', async () => {
      const admin = await userRow(await insertAuthUser(db, `admin-${newToken().slice(0, 8)}@x.test`));
      const expired = await invite(admin.account_id, 'late@x.test', 'client', "now() - interval '1 minute'");
      await expect(insertAuthUser(db, 'late@x.test', { appMeta: { invitation_token: expired } })).rejects.toThrow(/invalid or has expired/);
      await expect(insertAuthUser(db, 'nobody@x.test', { appMeta: { invitation_token: newToken() } })).rejects.toThrow(/invalid or has expired/);
      const token = await invite(admin.account_id, 'right@x.test');
      await expect(insertAuthUser(db, 'wrong@x.test', { appMeta: { invitation_token: token } })).rejects.toThrow(/different email/);
      const left = await one<{ n: number }>(db, `select count(*)::int as n from auth.users where email in ('late@x.test', 'nobody@x.test', 'wrong@x.test')`);
      expect(left.n).toBe(0);
    });

    it('two concurrent acceptances of one token: exactly one succeeds', async () => {
      const admin = await userRow(await insertAuthUser(db, `admin-${newToken().slice(0, 8)}@x.test`));
      const token = await invite(admin.account_id, 'race@x.test');
      const results = await Promise.allSettled([
        db.transaction((tx) => insertAuthUser(tx, 'race@x.test', { appMeta: { invitation_token: token } })),
        db.transaction((tx) => insertAuthUser(tx, 'race@x.test', { appMeta: { invitation_token: token } })),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const joined = await one<{ n: number }>(db, `select count(*)::int as n from public.users where email = 'race@x.test'`);
      expect(joined.n).toBe(1);
    });

    it('a claim waits for a concurrent claim of the same token and then finds it used', async () => {
      // The second claimant uses another e-mail, so GoTrue's unique e-mail
      // cannot be what stops it: only the claim's row lock can. Had it read the
      // invitation before the first committed, it would fail on the e-mail instead.
      const admin = await userRow(await insertAuthUser(db, `admin-${newToken().slice(0, 8)}@x.test`));
      const token = await invite(admin.account_id, 'first@x.test');
      const first = db.transaction(async (tx) => {
        await insertAuthUser(tx, 'first@x.test', { appMeta: { invitation_token: token } });
        await new Promise((resolve) => setTimeout(resolve, 400));
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = db.transaction((tx) => insertAuthUser(tx, 'second@x.test', { appMeta: { invitation_token: token } }));
      const [a, b] = await Promise.allSettled([first, second]);
      expect(a.status).toBe('fulfilled');
      expect(b.status).toBe('rejected');
      expect(String((b as PromiseRejectedResult).reason)).toMatch(/invalid or has expired/);
    });

    it('quote numbers follow each account own sequence, Q-<year>-0001 onwards', async () => {
      const a = await insertAuthUser(db, `qa-${newToken().slice(0, 8)}@x.test`);
      const b = await insertAuthUser(db, `qb-${newToken().slice(0, 8)}@x.test`);
      const create = (authId: string) => asUser(db, authId, (tx) =>
        one<{ quote_number: string }>(tx, `select quote_number from public.create_quote('C', 'c@x.test', 'Co', 'Work', 100, 2, 'USD', 30, null)`));
      const year = new Date().getUTCFullYear();
      expect((await create(a)).quote_number).toBe(`Q-${year}-0001`);
      expect((await create(a)).quote_number).toBe(`Q-${year}-0002`);
      expect((await create(b)).quote_number).toBe(`Q-${year}-0001`);
      // A client-chosen number is overridden by the database.
      const forced = await asUser(db, a, (tx) => one<{ quote_number: string }>(tx,
        `insert into public.quotes (account_id, quote_number) values (public.current_account_id(), 'Q-HACK') returning quote_number`));
      expect(forced.quote_number).toBe(`Q-${year}-0003`);
    });

    it('audit logs cannot be changed or deleted, even by the service role or the table owner', async () => {
      const authId = await insertAuthUser(db, `audit-${newToken().slice(0, 8)}@x.test`);
      await asUser(db, authId, (tx) => tx.query(`insert into public.leads (account_id, name, email, company) values (public.current_account_id(), 'L', 'l@x.test', 'C')`));
      const { account_id } = await userRow(authId);
      await expect(asRole(db, 'service_role', { role: 'service_role' }, (tx) => tx.query(`update public.audit_logs set action = 'x' where account_id = $1`, [account_id]))).rejects.toThrow(/permission denied/);
      await expect(asRole(db, 'service_role', { role: 'service_role' }, (tx) => tx.query(`delete from public.audit_logs where account_id = $1`, [account_id]))).rejects.toThrow(/permission denied/);
      await expect(asRole(db, 'service_role', { role: 'service_role' }, (tx) => tx.query(`insert into public.audit_logs (account_id, action, resource_type) values ($1, 'forged', 'x')`, [account_id]))).rejects.toThrow(/permission denied/);
      await expect(db.query(`update public.audit_logs set action = 'x' where account_id = $1`, [account_id])).rejects.toThrow(/append-only/);
      await expect(db.query(`delete from public.audit_logs where account_id = $1`, [account_id])).rejects.toThrow(/append-only/);
      const log = await one<{ action: string }>(db, `select action from public.audit_logs where account_id = $1`, [account_id]);
      expect(log.action).toBe('lead_created');
    });

    it('deactivation bans the auth user and ends their sessions; reactivation lifts the ban', async () => {
      const adminId = await insertAuthUser(db, `boss-${newToken().slice(0, 8)}@x.test`);
      const admin = await userRow(adminId);
      const email = `staff-${newToken().slice(0, 8)}@x.test`;
      const staffId = await insertAuthUser(db, email, { appMeta: { invitation_token: await invite(admin.account_id, email) } });
      await db.query('insert into auth.sessions (user_id) values ($1)', [staffId]);
      await db.query(`update auth.users set last_sign_in_at = now() - interval '1 hour' where id = $1`, [staffId]);
      const login = await one<{ synced: boolean }>(db,
        `select u.last_login_at = a.last_sign_in_at as synced from public.users u join auth.users a on a.id = u.auth_user_id where a.id = $1`, [staffId]);
      expect(login.synced).toBe(true);

      await asUser(db, adminId, (tx) => tx.query('update public.users set is_active = false where auth_user_id = $1', [staffId]));
      const banned = await one<{ banned: boolean; sessions: number }>(db,
        `select banned_until > now() + interval '50 years' as banned, (select count(*)::int from auth.sessions where user_id = $1) as sessions from auth.users where id = $1`, [staffId]);
      expect(banned).toEqual({ banned: true, sessions: 0 });
      // An inactive user has no account: RLS gives them their own row (inactive) and nothing else.
      const seen = await asUser(db, staffId, (tx) =>
        one<{ n: number; active: number }>(tx, 'select count(*)::int as n, count(*) filter (where is_active)::int as active from public.users'));
      expect(seen).toEqual({ n: 1, active: 0 });

      await asUser(db, adminId, (tx) => tx.query('update public.users set is_active = true where auth_user_id = $1', [staffId]));
      const lifted = await one<{ banned_until: unknown }>(db, 'select banned_until from auth.users where id = $1', [staffId]);
      expect(lifted.banned_until).toBeNull();
    });

    it('internals in the private schema are out of reach of the API roles', async () => {
      const authId = await insertAuthUser(db, `priv-${newToken().slice(0, 8)}@x.test`);
      await expect(asUser(db, authId, (tx) => tx.query(
        `select private.write_audit(public.current_account_id(), 'forged', 'x', null, null, null)`))).rejects.toThrow(/permission denied/);
      await expect(asRole(db, 'anon', { role: 'anon' }, (tx) => tx.query('select * from public.accounts'))).rejects.toThrow(/permission denied/);
      const site = await asRole(db, 'anon', { role: 'anon' }, (tx) => tx.query('select * from public.get_public_site_info()'));
      expect(site.fields.map((f) => f.name)).toEqual(['name', 'contact_email', 'description']);
      expect(site.rows).toHaveLength(1);
    });
  });
}
