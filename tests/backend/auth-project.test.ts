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
  });
}
