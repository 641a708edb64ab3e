// The auth layer against the project's own migrations and seed: the app's
// triggers on auth.users see what sign-up and sign-in do, and the seeded demo
// users (bcrypt hashes made in SQL) sign in with their documented password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import type { Backend } from '../../supabase/local/index.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';

const serverUrl = process.env.TEST_POSTGRES_URL;
const databases = [
  { name: 'PGlite', postgresUrl: undefined, skip: false },
  { name: 'PostgreSQL (set TEST_POSTGRES_URL to run)', postgresUrl: serverUrl, skip: !serverUrl },
];

for (const database of databases) {
  describe.skipIf(database.skip)(`auth with the project's migrations on ${database.name}`, () => {
    let backend: Backend;
    beforeAll(async () => {
      backend = await startTestBackend({ postgresUrl: database.postgresUrl });
    });
    afterAll(async () => {
      await backend?.stop();
    });
    const client = () =>
      createClient(backend.url, backend.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });

    it('the seeded demo admin signs in with the documented password', async () => {
      const { data, error } = await client().auth.signInWithPassword({
        email: 'demo@opshub.test',
        password: 'demo1234',
      });
      expect(error).toBeNull();
      expect(data.user?.user_metadata).toMatchObject({ first_name: 'Dana', last_name: 'Demo' });
      const wrong = await client().auth.signInWithPassword({ email: 'demo@opshub.test', password: 'demo12345' });
      expect(wrong.error?.code).toBe('invalid_credentials');
    });

    /** What the app's /auth/confirm does with the link of the project's sign-up mail. */
    async function confirmThroughMail(email: string) {
      const mail = backend.outbox.list().filter((m) => m.to === email.toLowerCase()).at(-1)!;
      const link = new URL(/http\S+\/auth\/confirm\?\S+/.exec(mail.text)![0]);
      expect(link.searchParams.get('type')).toBe('email');
      const { data, error } = await client().auth.verifyOtp({ token_hash: link.searchParams.get('token_hash')!, type: 'email' });
      expect(error).toBeNull();
      return data;
    }

    it('sign-up needs the address confirmed: no session, sign-in refused, the mailed app link confirms and signs in', async () => {
      const email = `confirm-${Date.now()}@example.com`;
      const signUp = await client().auth.signUp({ email, password: 'confirm-secret' });
      expect(signUp.error).toBeNull();
      expect(signUp.data.session).toBeNull();
      const early = await client().auth.signInWithPassword({ email, password: 'confirm-secret' });
      expect(early.error?.code).toBe('email_not_confirmed');
      expect(early.error?.message).toBe('Email not confirmed');

      const mail = backend.outbox.list().find((m) => m.to === email)!;
      expect(mail.subject).toBe('Confirm your OpsHub Pro account');
      // The project's template links to the app, which verifies the token hash on the server.
      expect(mail.html).toContain(`${backend.ctx.siteUrl}/auth/confirm?token_hash=`);
      const confirmed = await confirmThroughMail(email);
      expect(confirmed.session?.user.email).toBe(email);
      expect(confirmed.session?.user.email_confirmed_at).toBeTruthy();
      expect((await client().auth.verifyOtp({ token_hash: new URL(/http\S+\/auth\/confirm\?\S+/.exec(mail.text)![0]).searchParams.get('token_hash')!, type: 'email' })).error?.code).toBe('otp_expired');
      expect((await client().auth.signInWithPassword({ email, password: 'confirm-secret' })).error).toBeNull();
    });

    it('sign-up of a registered address answers as for a new one', async () => {
      const taken = await client().auth.signUp({ email: 'demo@opshub.test', password: 'squatter-secret' });
      expect(taken.error).toBeNull();
      expect(taken.data.session).toBeNull();
      expect(backend.outbox.list().filter((m) => m.to === 'demo@opshub.test')).toEqual([]);
    });

    it("sign-up creates the app's user as the admin of a new account, and sign-in is recorded there", async () => {
      const email = `founder-${Date.now()}@example.com`;
      const signUp = await client().auth.signUp({
        email,
        password: 'founder-secret',
        options: { data: { first_name: 'Fay', last_name: 'Founder' } },
      });
      expect(signUp.error).toBeNull();
      expect(signUp.data.session).toBeNull();
      const userId = signUp.data.user!.id;
      const row = await backend.db.query<{ role: string; first_name: string; account_id: string | null }>(
        'select role, first_name, account_id from public.users where auth_user_id = $1',
        [userId],
      );
      expect(row.rows).toEqual([{ role: 'admin', first_name: 'Fay', account_id: expect.any(String) }]);

      await confirmThroughMail(email);
      await client().auth.signInWithPassword({ email, password: 'founder-secret' });
      const logins = await backend.db.query<{ last_login_at: Date | null; last_sign_in_at: Date }>(
        `select u.last_login_at, a.last_sign_in_at from public.users u join auth.users a on a.id = u.auth_user_id
         where u.auth_user_id = $1`,
        [userId],
      );
      expect(logins.rows[0].last_login_at?.getTime()).toBe(logins.rows[0].last_sign_in_at.getTime());
    });

    /** A confirmed user of their own new account, and a client signed in as them. */
    async function confirmedUser(label: string, password: string) {
      const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      expect((await client().auth.signUp({ email, password })).error).toBeNull();
      await confirmThroughMail(email);
      const signedIn = client();
      expect((await signedIn.auth.signInWithPassword({ email, password })).error).toBeNull();
      return { email, signedIn };
    }

    /** The app link (/auth/confirm?token_hash=...&type=...) of the last mail to `to` with this subject. */
    function appLinkIn(to: string, subject: string): URL {
      const mail = backend.outbox.list().filter((m) => m.to === to && m.subject === subject).at(-1);
      expect(mail, `a mail '${subject}' to ${to}`).toBeDefined();
      return new URL(/http\S+\/auth\/confirm\?\S+/.exec(mail!.text)![0]);
    }

    it("password recovery: the project's mail links to the app, whose token hash (type recovery) signs in once to set a new password", async () => {
      const { email } = await confirmedUser('recover', 'old-secret');
      const anonymous = client();
      expect((await anonymous.auth.resetPasswordForEmail(email, { redirectTo: `${backend.ctx.siteUrl}/auth/reset-password` })).error).toBeNull();
      const link = appLinkIn(email, 'Reset your OpsHub Pro password');
      expect(`${link.origin}${link.pathname}`).toBe(`${backend.ctx.siteUrl}/auth/confirm`);
      expect(link.searchParams.get('type')).toBe('recovery');
      const tokenHash = link.searchParams.get('token_hash')!;

      const verified = await anonymous.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
      expect(verified.error).toBeNull();
      expect(verified.data.session?.user.email).toBe(email);
      expect((await anonymous.auth.updateUser({ password: 'new-secret' })).error).toBeNull();
      expect((await client().auth.signInWithPassword({ email, password: 'old-secret' })).error?.code).toBe('invalid_credentials');
      expect((await client().auth.signInWithPassword({ email, password: 'new-secret' })).error).toBeNull();
      // The link works once.
      expect((await client().auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' })).error?.code).toBe('otp_expired');
    });

    it('password recovery for an unknown address answers the same and mails nothing', async () => {
      const email = `nobody-${Date.now()}@example.com`;
      expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
      expect(backend.outbox.list().filter((m) => m.to === email)).toEqual([]);
    });

    it("an e-mail change mails the project's link to both addresses; the second followed switches the address, in public.users too", async () => {
      const { email, signedIn } = await confirmedUser('mover', 'mover-secret');
      const next = `moved-${Date.now()}@example.com`;
      expect((await signedIn.auth.updateUser({ email: next })).error).toBeNull();
      const subject = 'Confirm your new OpsHub Pro email address';
      const toNew = appLinkIn(next, subject);
      const toCurrent = appLinkIn(email, subject);
      expect(toNew.searchParams.get('type')).toBe('email_change');
      const mail = backend.outbox.list().filter((m) => m.to === next).at(-1)!;
      expect(mail.text).toContain(`from ${email} to ${next}`);

      const first = await client().auth.verifyOtp({ token_hash: toCurrent.searchParams.get('token_hash')!, type: 'email_change' });
      expect(first.error).toBeNull();
      expect(first.data.session).toBeNull();
      const second = await client().auth.verifyOtp({ token_hash: toNew.searchParams.get('token_hash')!, type: 'email_change' });
      expect(second.error).toBeNull();
      expect(second.data.session?.user.email).toBe(next);
      const row = await backend.db.query<{ email: string }>(
        'select u.email from public.users u where u.auth_user_id = $1',
        [second.data.session!.user.id],
      );
      expect(row.rows).toEqual([{ email: next }]);
      expect((await client().auth.signInWithPassword({ email: next, password: 'mover-secret' })).error).toBeNull();
    });
  });
}
