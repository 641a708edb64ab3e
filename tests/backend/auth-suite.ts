// The GoTrue layer's behaviour, driven by the real supabase-js auth client over
// HTTP. Shared by the PGlite and PostgreSQL test files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAuthSessionMissingError, isAuthWeakPasswordError } from '@supabase/supabase-js';
import { signJwt } from '../../supabase/local/keys.ts';
import { type AuthHarness, decodeJwt, SITE_URL } from './auth-harness.ts';

const PASSWORD = 'correct horse 1';

export function describeAuth(name: string, open: () => Promise<AuthHarness>) {
  describe(name, () => {
    let h: AuthHarness;
    beforeAll(async () => {
      h = await open();
    });
    afterAll(async () => {
      await h?.close();
    });

    /** Signs a fresh user up through /signup and returns the signed-in client and session. */
    async function signUpFresh(label: string, data: Record<string, unknown> = { first_name: 'Ada' }) {
      const email = h.uniqueEmail(label);
      const supabase = h.client();
      const { data: result, error } = await supabase.auth.signUp({ email, password: PASSWORD, options: { data } });
      expect(error).toBeNull();
      return { email, supabase, session: result.session!, user: result.user! };
    }

    describe('sign-up', () => {
      it('returns a session and stores the metadata, which the auth.users triggers see', async () => {
        const email = h.uniqueEmail('Signup');
        const { data, error } = await h.client().auth.signUp({
          email,
          password: PASSWORD,
          options: { data: { first_name: 'Grace', last_name: 'Hopper' } },
        });
        expect(error).toBeNull();
        expect(data.session?.token_type).toBe('bearer');
        expect(data.session?.refresh_token.length).toBeGreaterThanOrEqual(12);
        expect(data.user?.email).toBe(email.toLowerCase());
        expect(data.user?.user_metadata).toEqual({ first_name: 'Grace', last_name: 'Hopper' });
        expect(data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
        expect(data.user?.identities?.[0]).toMatchObject({ provider: 'email', user_id: data.user?.id });
        expect(data.user?.email_confirmed_at).toBeTruthy();
        expect(data.user?.last_sign_in_at).toBeTruthy();

        const claims = decodeJwt(data.session!.access_token);
        expect(claims).toMatchObject({
          sub: data.user!.id,
          aud: 'authenticated',
          role: 'authenticated',
          iss: `${h.base.url}/auth/v1`,
          email: email.toLowerCase(),
          aal: 'aal1',
          is_anonymous: false,
          user_metadata: { first_name: 'Grace', last_name: 'Hopper' },
          app_metadata: { provider: 'email', providers: ['email'] },
        });
        expect(claims.session_id).toEqual(expect.any(String));
        expect((claims.amr as { method: string }[])[0].method).toBe('password');
        expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);

        const profile = await h.db.query<{ first_name: string; last_sign_in_at: Date | null }>(
          'select first_name, last_sign_in_at from public.auth_test_profiles where user_id = $1',
          [data.user!.id],
        );
        expect(profile.rows).toEqual([{ first_name: 'Grace', last_sign_in_at: expect.any(Date) }]);
        const stored = await h.db.query<{ encrypted_password: string }>(
          'select encrypted_password from auth.users where id = $1',
          [data.user!.id],
        );
        expect(stored.rows[0].encrypted_password).toMatch(/^\$2[ab]\$10\$/);
      });

      it('refuses an address that is already registered, whatever its case', async () => {
        const { email } = await signUpFresh('dup');
        const { data, error } = await h.client().auth.signUp({ email: email.toUpperCase(), password: PASSWORD });
        expect(error?.status).toBe(422);
        expect(error?.code).toBe('user_already_exists');
        expect(error?.message).toBe('User already registered');
        expect(data.session).toBeNull();
      });

      it('two sign-ups racing for one address: one wins, the other is told it is taken', async () => {
        const email = h.uniqueEmail('race-signup');
        const results = await Promise.all(
          [1, 2].map(() => h.client().auth.signUp({ email, password: PASSWORD })),
        );
        const codes = results.map((r) => r.error?.code ?? 'ok').sort();
        expect(codes).toEqual(['ok', 'user_already_exists']);
      });

      it('refuses a password shorter than six characters as weak', async () => {
        const { error } = await h.client().auth.signUp({ email: h.uniqueEmail('weak'), password: '12345' });
        expect(isAuthWeakPasswordError(error)).toBe(true);
        expect(error?.status).toBe(422);
        expect(error?.code).toBe('weak_password');
        expect(error?.message).toBe('Password should be at least 6 characters.');
        expect(isAuthWeakPasswordError(error) && error.reasons).toEqual(['length']);
      });

      it('refuses a malformed address', async () => {
        const { error } = await h.client().auth.signUp({ email: 'not-an-address', password: PASSWORD });
        expect(error?.status).toBe(400);
        expect(error?.code).toBe('validation_failed');
        expect(error?.message).toBe('Unable to validate email address: invalid format');
      });

      it("fails with GoTrue's database error when a trigger refuses the user, leaving no user behind", async () => {
        const email = h.uniqueEmail('refused');
        const { error } = await h.client().auth.signUp({
          email,
          password: PASSWORD,
          options: { data: { first_name: 'Refused' } },
        });
        expect(error?.status).toBe(500);
        expect(error?.message).toBe('Database error saving new user');
        const left = await h.db.query('select 1 from auth.users where email = $1', [email]);
        expect(left.rows).toHaveLength(0);
      });
    });

    describe('password sign-in', () => {
      it('signs in with the right password and records the sign-in', async () => {
        const { email, user } = await signUpFresh('signin');
        const before = await h.db.query<{ last_sign_in_at: Date }>(
          'select last_sign_in_at from auth.users where id = $1',
          [user.id],
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
        const { data, error } = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
        expect(error).toBeNull();
        expect(data.user?.id).toBe(user.id);
        expect(data.session?.access_token).toBeTruthy();
        const after = await h.db.query<{ last_sign_in_at: Date }>(
          'select last_sign_in_at from public.auth_test_profiles where user_id = $1',
          [user.id],
        );
        expect(after.rows[0].last_sign_in_at.getTime()).toBeGreaterThan(before.rows[0].last_sign_in_at.getTime());
        const sessions = await h.db.query('select id from auth.sessions where user_id = $1', [user.id]);
        expect(sessions.rows).toHaveLength(2);
      });

      it('refuses a wrong password and an unknown address alike', async () => {
        const { email } = await signUpFresh('wrongpw');
        for (const attempt of [
          { email, password: 'not the password' },
          { email: h.uniqueEmail('nobody'), password: PASSWORD },
        ]) {
          const { data, error } = await h.client().auth.signInWithPassword(attempt);
          expect(error?.status).toBe(400);
          expect(error?.code).toBe('invalid_credentials');
          expect(error?.message).toBe('Invalid login credentials');
          expect(data.session).toBeNull();
        }
      });
    });

    describe('refresh tokens', () => {
      it('rotate: the old token is revoked and a new one issued in the same session', async () => {
        const { supabase, session } = await signUpFresh('rotate');
        const { data, error } = await supabase.auth.refreshSession({ refresh_token: session.refresh_token });
        expect(error).toBeNull();
        expect(data.session!.refresh_token).not.toBe(session.refresh_token);
        expect(decodeJwt(data.session!.access_token).session_id).toBe(decodeJwt(session.access_token).session_id);
        const rows = await h.db.query<{ token: string; revoked: boolean; parent: string | null }>(
          'select token, revoked, parent from auth.refresh_tokens where token = any($1) order by id',
          [[session.refresh_token, data.session!.refresh_token]],
        );
        expect(rows.rows).toEqual([
          { token: session.refresh_token, revoked: true, parent: null },
          { token: data.session!.refresh_token, revoked: false, parent: session.refresh_token },
        ]);
        const again = await h.client().auth.refreshSession({ refresh_token: data.session!.refresh_token });
        expect(again.error).toBeNull();
      });

      it('a retried refresh (the active token\'s parent) gets the active token again, even late', async () => {
        const ctx = await h.context({ authSettings: { refreshTokenReuseInterval: 0 } });
        const { session } = await signUpFresh('reuse-parent');
        const first = await h.client(ctx).auth.refreshSession({ refresh_token: session.refresh_token });
        await new Promise((resolve) => setTimeout(resolve, 20));
        const retry = await h.client(ctx).auth.refreshSession({ refresh_token: session.refresh_token });
        expect(retry.error).toBeNull();
        expect(retry.data.session!.refresh_token).toBe(first.data.session!.refresh_token);
      });

      it('an older revoked token reused within the reuse interval still gets a session', async () => {
        const { session } = await signUpFresh('reuse-ok');
        const first = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
        await h.client().auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
        const reuse = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
        expect(reuse.error).toBeNull();
        expect(decodeJwt(reuse.data.session!.access_token).session_id).toBe(decodeJwt(session.access_token).session_id);
      });

      it('an older revoked token reused after the reuse interval is refused and its session revoked', async () => {
        const ctx = await h.context({ authSettings: { refreshTokenReuseInterval: 0 } });
        const { session } = await signUpFresh('reuse-late');
        const first = await h.client(ctx).auth.refreshSession({ refresh_token: session.refresh_token });
        const second = await h.client(ctx).auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
        expect(second.error).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 20));
        const reuse = await h.client(ctx).auth.refreshSession({ refresh_token: session.refresh_token });
        expect(reuse.error?.status).toBe(400);
        expect(reuse.error?.code).toBe('refresh_token_already_used');
        expect(reuse.error?.message).toBe('Invalid Refresh Token: Already Used');
        expect(reuse.data.session).toBeNull();
        // The whole family is revoked: the legitimate holder's newest token is dead too.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const newest = await h.client(ctx).auth.refreshSession({ refresh_token: second.data.session!.refresh_token });
        expect(newest.error?.code).toBe('refresh_token_already_used');
      });

      it('two refreshes racing with one token both get the same new token', async () => {
        const { session } = await signUpFresh('race-refresh');
        const results = await Promise.all(
          [1, 2].map(() => h.client().auth.refreshSession({ refresh_token: session.refresh_token })),
        );
        expect(results.map((r) => r.error)).toEqual([null, null]);
        expect(results[0].data.session!.refresh_token).toBe(results[1].data.session!.refresh_token);
      });

      it('an unknown token is refused', async () => {
        const { error } = await h.client().auth.refreshSession({ refresh_token: 'no-such-token-anywhere' });
        expect(error?.status).toBe(400);
        expect(error?.code).toBe('refresh_token_not_found');
        expect(error?.message).toBe('Invalid Refresh Token: Refresh Token Not Found');
      });
    });

    describe('sign-out', () => {
      it('local: ends this session only; its refresh token and access token stop working', async () => {
        const { email, supabase, session } = await signUpFresh('logout-local');
        const other = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
        const { error } = await supabase.auth.signOut({ scope: 'local' });
        expect(error).toBeNull();

        const refresh = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
        expect(refresh.error?.code).toBe('refresh_token_not_found');
        const user = await h.client().auth.getUser(session.access_token);
        expect(isAuthSessionMissingError(user.error)).toBe(true);
        const raw = await h.call('/user', { headers: { authorization: `Bearer ${session.access_token}` } });
        expect(raw.status).toBe(403);
        expect(await raw.json()).toMatchObject({ error_code: 'session_not_found' });

        const stillIn = await h.client().auth.refreshSession({ refresh_token: other.data.session!.refresh_token });
        expect(stillIn.error).toBeNull();
      });

      it('global: ends every session of the user', async () => {
        const { email, supabase, session } = await signUpFresh('logout-global');
        const other = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
        expect((await supabase.auth.signOut()).error).toBeNull();
        for (const token of [session.refresh_token, other.data.session!.refresh_token]) {
          const { error } = await h.client().auth.refreshSession({ refresh_token: token });
          expect(error?.code).toBe('refresh_token_not_found');
        }
        const user = await h.client().auth.getUser(other.data.session!.access_token);
        expect(isAuthSessionMissingError(user.error)).toBe(true);
      });

      it('others: keeps this session and ends the rest', async () => {
        const { email, supabase, session } = await signUpFresh('logout-others');
        const other = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
        expect((await supabase.auth.signOut({ scope: 'others' })).error).toBeNull();
        expect((await h.client().auth.getUser(session.access_token)).error).toBeNull();
        const gone = await h.client().auth.refreshSession({ refresh_token: other.data.session!.refresh_token });
        expect(gone.error?.code).toBe('refresh_token_not_found');
      });
    });

    describe('the signed-in user', () => {
      it('reads and updates their metadata (merged, null removes a key)', async () => {
        const { supabase, user } = await signUpFresh('update', { first_name: 'Ada', last_name: 'King' });
        const read = await supabase.auth.getUser();
        expect(read.data.user?.id).toBe(user.id);
        const { data, error } = await supabase.auth.updateUser({ data: { last_name: null, team: 'ops' } });
        expect(error).toBeNull();
        expect(data.user?.user_metadata).toEqual({ first_name: 'Ada', team: 'ops' });
      });

      it('changes the password: the old one stops working, other sessions end', async () => {
        const { email, supabase } = await signUpFresh('newpw');
        const other = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
        const same = await supabase.auth.updateUser({ password: PASSWORD });
        expect(same.error?.code).toBe('same_password');
        const { error } = await supabase.auth.updateUser({ password: 'a brand new secret' });
        expect(error).toBeNull();
        expect((await h.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
          'invalid_credentials',
        );
        expect((await h.client().auth.signInWithPassword({ email, password: 'a brand new secret' })).error).toBeNull();
        const ended = await h.client().auth.refreshSession({ refresh_token: other.data.session!.refresh_token });
        expect(ended.error?.code).toBe('refresh_token_not_found');
        expect((await supabase.auth.getUser()).error).toBeNull();
      });

      it('changes the e-mail address at once when confirmation is off', async () => {
        const { supabase } = await signUpFresh('change-me');
        const next = h.uniqueEmail('changed');
        const { data, error } = await supabase.auth.updateUser({ email: next });
        expect(error).toBeNull();
        expect(data.user?.email).toBe(next.toLowerCase());
        const { email: taken } = await signUpFresh('taken');
        const clash = await supabase.auth.updateUser({ email: taken });
        expect(clash.error?.code).toBe('email_exists');
      });

      it('with confirmation on, a new address takes over only once the links to it and to the old one are followed', async () => {
        const ctx = await h.context({ confirmEmail: true });
        const { email, user } = await signUpFresh('change-confirm');
        const supabase = h.client(ctx);
        await supabase.auth.signInWithPassword({ email, password: PASSWORD });
        const next = h.uniqueEmail('confirmed-change');
        const { data, error } = await supabase.auth.updateUser({ email: next });
        expect(error).toBeNull();
        expect(data.user?.email).toBe(email.toLowerCase());
        expect(data.user?.new_email).toBe(next.toLowerCase());
        const linkTo = (address: string) =>
          /http\S+\/auth\/v1\/verify\?\S+/.exec(ctx.outbox.list().find((m) => m.to === address.toLowerCase())!.text)![0];
        const emailNow = async () => (await h.admin().auth.admin.getUserById(user.id)).data.user?.email;

        // The new address's link alone does not move the account (a squatter cannot read the old mail).
        const first = await h.openLink(linkTo(next));
        expect(first.status).toBe(303);
        const message = new URLSearchParams(new URL(first.headers.get('location')!).hash.slice(1)).get('message');
        expect(message).toBe('Confirmation link accepted. Please proceed to confirm link sent to the other email');
        expect(await emailNow()).toBe(email.toLowerCase());
        // Followed again, the same link counts for nothing.
        await h.openLink(linkTo(next));
        expect(await emailNow()).toBe(email.toLowerCase());

        expect((await h.openLink(linkTo(email))).status).toBe(303);
        expect(await emailNow()).toBe(next.toLowerCase());
      });

      it('with confirmation on, the token-hash form of the links (verifyOtp) needs both as well', async () => {
        const ctx = await h.context({ confirmEmail: true });
        const { email, user } = await signUpFresh('change-otp');
        const supabase = h.client(ctx);
        await supabase.auth.signInWithPassword({ email, password: PASSWORD });
        const next = h.uniqueEmail('otp-change');
        expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
        const tokenFor = (address: string) =>
          new URL(/http\S+\/auth\/v1\/verify\?\S+/.exec(ctx.outbox.list().find((m) => m.to === address.toLowerCase())!.text)![0]).searchParams.get('token')!;
        const first = await h.call('/verify', { method: 'POST', body: JSON.stringify({ type: 'email_change', token_hash: tokenFor(next) }) }, ctx);
        expect(first.status).toBe(200);
        expect(await first.json()).toMatchObject({ msg: expect.stringMatching(/^Confirmation link accepted/) });
        expect((await h.admin().auth.admin.getUserById(user.id)).data.user?.email).toBe(email.toLowerCase());
        const second = await h.client(ctx).auth.verifyOtp({ type: 'email_change', token_hash: tokenFor(email) });
        expect(second.error).toBeNull();
        expect(second.data.user?.email).toBe(next.toLowerCase());
      });

      it('an access token stops working once it expires', async () => {
        // Claims count whole seconds, so a token of one second may already be
        // expired when read back a few milliseconds later; three seconds leaves
        // at least two for the first read.
        const ctx = await h.context({ jwtExpiry: 3 });
        const email = h.uniqueEmail('expiry');
        const { data } = await h.client(ctx).auth.signUp({ email, password: PASSWORD });
        expect(data.session?.expires_in).toBe(3);
        expect((await h.client(ctx).auth.getUser(data.session!.access_token)).error).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 4100));
        const { data: after, error } = await h.client(ctx).auth.getUser(data.session!.access_token);
        expect(after.user).toBeNull();
        expect(error?.status).toBe(403);
        expect(error?.code).toBe('bad_jwt');
        expect(error?.message).toMatch(/token is expired/);
        // The refresh token still gets a fresh one.
        const refreshed = await h.client(ctx).auth.refreshSession({ refresh_token: data.session!.refresh_token });
        expect(refreshed.error).toBeNull();
      });
    });

    describe('admin', () => {
      it('creates, lists, reads, updates and deletes users with the service role', async () => {
        const admin = h.admin().auth.admin;
        const email = h.uniqueEmail('admin-made');
        const created = await admin.createUser({
          email,
          password: PASSWORD,
          email_confirm: true,
          user_metadata: { first_name: 'Made' },
          app_metadata: { invitation_token: 'abc' },
        });
        expect(created.error).toBeNull();
        const id = created.data.user!.id;
        expect(created.data.user).toMatchObject({
          email: email.toLowerCase(),
          user_metadata: { first_name: 'Made' },
          app_metadata: { provider: 'email', providers: ['email'], invitation_token: 'abc' },
        });
        expect(created.data.user?.email_confirmed_at).toBeTruthy();
        const profile = await h.db.query('select first_name from public.auth_test_profiles where user_id = $1', [id]);
        expect(profile.rows).toEqual([{ first_name: 'Made' }]);

        const duplicate = await admin.createUser({ email, password: PASSWORD });
        expect(duplicate.error?.status).toBe(422);
        expect(duplicate.error?.code).toBe('email_exists');

        const signedIn = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
        expect(signedIn.error).toBeNull();

        const page = await admin.listUsers({ page: 1, perPage: 1 });
        if (page.error) throw page.error;
        expect(page.data.users).toHaveLength(1);
        expect(page.data.total).toBeGreaterThanOrEqual(2);
        expect(page.data.nextPage).toBe(2);
        const raw = await h.call('/admin/users?page=1&per_page=1', {
          headers: { apikey: h.base.serviceRoleKey, authorization: `Bearer ${h.base.serviceRoleKey}` },
        });
        expect(raw.headers.get('x-total-count')).toBe(String(page.data.total));
        expect(raw.headers.get('link')).toBe(
          `</auth/v1/admin/users?page=2&per_page=1>; rel="next", </auth/v1/admin/users?page=${page.data.total}&per_page=1>; rel="last"`,
        );
        const all = await admin.listUsers({ perPage: 1000 });
        expect(all.data.users.map((u) => u.id)).toContain(id);

        expect((await admin.getUserById(id)).data.user?.email).toBe(email.toLowerCase());

        const updated = await admin.updateUserById(id, { user_metadata: { last_name: 'User' } });
        expect(updated.data.user?.user_metadata).toEqual({ first_name: 'Made', last_name: 'User' });

        const deleted = await admin.deleteUser(id);
        expect(deleted.error).toBeNull();
        const gone = await admin.getUserById(id);
        expect(gone.error?.status).toBe(404);
        expect(gone.error?.code).toBe('user_not_found');
        expect((await h.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
          'invalid_credentials',
        );
        expect((await h.client().auth.getUser(signedIn.data.session!.access_token)).error?.code).toBe(
          'user_not_found',
        );
      });

      it('a banned user can neither sign in nor refresh, until the ban is lifted', async () => {
        const { email, user, session } = await signUpFresh('banned');
        const admin = h.admin().auth.admin;
        const banned = await admin.updateUserById(user.id, { ban_duration: '876000h' });
        expect(banned.error).toBeNull();
        expect(new Date(banned.data.user!.banned_until!).getFullYear()).toBeGreaterThan(2100);

        const signIn = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
        expect(signIn.error?.status).toBe(400);
        expect(signIn.error?.code).toBe('user_banned');
        expect(signIn.error?.message).toBe('User is banned');
        const refresh = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
        expect(refresh.error?.status).toBe(400);
        expect(refresh.error?.code).toBe('user_banned');
        expect(refresh.data.session).toBeNull();
        const withOldToken = await h.client().auth.getUser(session.access_token);
        expect(withOldToken.error?.status).toBe(403);
        expect(withOldToken.error?.code).toBe('user_banned');

        expect((await admin.updateUserById(user.id, { ban_duration: 'none' })).data.user?.banned_until).toBeFalsy();
        expect((await h.client().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
        expect((await h.client().auth.getUser(session.access_token)).error).toBeNull();
      });

      it('soft-deletes a user: the row stays, but the user can no longer sign in', async () => {
        const { email, user } = await signUpFresh('soft');
        const { error } = await h.admin().auth.admin.deleteUser(user.id, true);
        expect(error).toBeNull();
        const row = await h.db.query<{ deleted_at: Date | null; email: string | null }>(
          'select deleted_at, email from auth.users where id = $1',
          [user.id],
        );
        expect(row.rows[0].deleted_at).toBeInstanceOf(Date);
        expect(row.rows[0].email).toBeNull();
        expect((await h.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
          'invalid_credentials',
        );
      });

      it('refuses callers without the service role', async () => {
        const { session } = await signUpFresh('not-admin');
        const asAnon = await h.client().auth.admin.listUsers();
        expect(asAnon.error?.status).toBe(403);
        expect(asAnon.error?.code).toBe('not_admin');
        expect(asAnon.error?.message).toBe('User not allowed');
        const asUser = await h.call('/admin/users', { headers: { authorization: `Bearer ${session.access_token}` } });
        expect(asUser.status).toBe(403);
        expect(await asUser.json()).toEqual({ code: 403, error_code: 'not_admin', msg: 'User not allowed' });
        const create = await h.client().auth.admin.createUser({ email: h.uniqueEmail('sneaky'), password: PASSWORD });
        expect(create.error?.code).toBe('not_admin');
      });
    });

    describe('e-mail confirmation', () => {
      it('sends a link; the link confirms the address and signs in, then passwords work', async () => {
        const ctx = await h.context({ confirmEmail: true });
        const email = h.uniqueEmail('confirm');
        const signUp = await h.client(ctx).auth.signUp({
          email,
          password: PASSWORD,
          options: { emailRedirectTo: `${SITE_URL}/welcome` },
        });
        expect(signUp.error).toBeNull();
        expect(signUp.data.session).toBeNull();
        expect(signUp.data.user?.email_confirmed_at).toBeFalsy();

        const early = await h.client(ctx).auth.signInWithPassword({ email, password: PASSWORD });
        expect(early.error?.code).toBe('email_not_confirmed');
        expect(early.error?.message).toBe('Email not confirmed');

        const mails = ctx.outbox.list();
        expect(mails).toHaveLength(1);
        expect(mails[0].to).toBe(email.toLowerCase());
        const link = /http\S+\/auth\/v1\/verify\?\S+/.exec(mails[0].text)![0];
        expect(new URL(link).searchParams.get('type')).toBe('signup');

        // Opened by a browser: no apikey.
        const opened = await h.openLink(link);
        expect(opened.status).toBe(303);
        const location = new URL(opened.headers.get('location')!);
        expect(`${location.origin}${location.pathname}`).toBe(`${SITE_URL}/welcome`);
        const fragment = new URLSearchParams(location.hash.slice(1));
        expect(fragment.get('type')).toBe('signup');
        const fromLink = await h.client(ctx).auth.getUser(fragment.get('access_token')!);
        expect(fromLink.data.user?.email_confirmed_at).toBeTruthy();

        expect((await h.client(ctx).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
        const reopened = new URL((await h.openLink(link)).headers.get('location')!);
        expect(new URLSearchParams(reopened.hash.slice(1)).get('error_code')).toBe('otp_expired');
      });

      it('answers a sign-up of a registered address like a new one: no error, no session, no mail', async () => {
        const ctx = await h.context({ confirmEmail: true });
        const { email, user } = await signUpFresh('registered');
        const fresh = await h.client(ctx).auth.signUp({ email: h.uniqueEmail('newcomer'), password: PASSWORD });
        const again = await h.client(ctx).auth.signUp({ email, password: 'another secret' });
        expect(again.error).toBeNull();
        expect(again.data.session).toBeNull();
        expect(Object.keys(again.data.user!).sort()).toEqual(Object.keys(fresh.data.user!).sort());
        // A made-up user: not the real one's id, and nothing mailed to the owner.
        expect(again.data.user?.id).not.toBe(user.id);
        expect(again.data.user?.email_confirmed_at).toBeFalsy();
        expect(ctx.outbox.list().filter((m) => m.to === email.toLowerCase())).toEqual([]);
        // The owner's password still works; the one just typed does not.
        expect((await h.client(ctx).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
        expect((await h.client(ctx).auth.signInWithPassword({ email, password: 'another secret' })).error?.code).toBe(
          'invalid_credentials',
        );
      });

      it('a PKCE sign-up gets a code from the link, exchanged for a session', async () => {
        const ctx = await h.context({ confirmEmail: true });
        const supabase = h.client(ctx, { flowType: 'pkce' });
        const email = h.uniqueEmail('pkce');
        const { error } = await supabase.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: SITE_URL } });
        expect(error).toBeNull();
        const link = /http\S+\/auth\/v1\/verify\?\S+/.exec(ctx.outbox.list()[0].text)![0];
        const location = new URL((await h.openLink(link)).headers.get('location')!);
        const code = location.searchParams.get('code');
        expect(code).toBeTruthy();
        const exchanged = await supabase.auth.exchangeCodeForSession(code!);
        expect(exchanged.error).toBeNull();
        expect(exchanged.data.user?.email).toBe(email.toLowerCase());
        const again = await supabase.auth.exchangeCodeForSession(code!);
        expect(again.error).not.toBeNull();
      });

      it('sends unknown redirect targets to the site URL', async () => {
        const ctx = await h.context({ confirmEmail: true });
        await h.client(ctx).auth.signUp({
          email: h.uniqueEmail('redirect'),
          password: PASSWORD,
          options: { emailRedirectTo: 'https://evil.example.net/steal' },
        });
        const link = /http\S+\/auth\/v1\/verify\?\S+/.exec(ctx.outbox.list()[0].text)![0];
        const location = new URL((await h.openLink(link)).headers.get('location')!);
        expect(location.origin).toBe(new URL(SITE_URL).origin);
      });
    });

    describe('password recovery', () => {
      it('mails a link that signs the user in to set a new password', async () => {
        const { email } = await signUpFresh('recover');
        const ctx = await h.context();
        const supabase = h.client(ctx);
        expect((await supabase.auth.resetPasswordForEmail(email, { redirectTo: SITE_URL })).error).toBeNull();
        const link = /http\S+\/auth\/v1\/verify\?\S+/.exec(ctx.outbox.list()[0].text)![0];
        const fragment = new URLSearchParams(new URL((await h.openLink(link)).headers.get('location')!).hash.slice(1));
        expect(fragment.get('type')).toBe('recovery');
        await supabase.auth.setSession({
          access_token: fragment.get('access_token')!,
          refresh_token: fragment.get('refresh_token')!,
        });
        expect((await supabase.auth.updateUser({ password: 'recovered secret' })).error).toBeNull();
        expect((await h.client().auth.signInWithPassword({ email, password: 'recovered secret' })).error).toBeNull();
      });
    });

    describe('links on request', () => {
      it('resends the sign-up link to an unconfirmed address; the newest link confirms', async () => {
        const ctx = await h.context({ confirmEmail: true });
        const email = h.uniqueEmail('resend');
        await h.client(ctx).auth.signUp({ email, password: PASSWORD });
        const { error } = await h.client(ctx).auth.resend({ type: 'signup', email });
        expect(error).toBeNull();
        const mails = ctx.outbox.list();
        expect(mails).toHaveLength(2);
        const [firstLink, secondLink] = mails.map((m) => /http\S+\/auth\/v1\/verify\?\S+/.exec(m.text)![0]);
        const stale = new URL((await h.openLink(firstLink)).headers.get('location')!);
        expect(new URLSearchParams(stale.hash.slice(1)).get('error_code')).toBe('otp_expired');
        const fresh = new URL((await h.openLink(secondLink)).headers.get('location')!);
        expect(new URLSearchParams(fresh.hash.slice(1)).get('access_token')).toBeTruthy();
      });

      it('generate_link gives the service role working links without mail', async () => {
        const admin = h.admin().auth.admin;
        const email = h.uniqueEmail('generated');
        const signup = await admin.generateLink({ type: 'signup', email, password: PASSWORD });
        expect(signup.error).toBeNull();
        expect(signup.data.user?.email).toBe(email.toLowerCase());
        expect(signup.data.user?.email_confirmed_at).toBeFalsy();
        const confirmed = await h.openLink(signup.data.properties!.action_link);
        expect(new URL(confirmed.headers.get('location')!).hash).toContain('access_token=');

        const magic = await admin.generateLink({ type: 'magiclink', email });
        expect(magic.data.properties?.verification_type).toBe('magiclink');
        const verified = await h.client().auth.verifyOtp({ type: 'magiclink', token_hash: magic.data.properties!.hashed_token });
        expect(verified.error).toBeNull();
        expect(verified.data.user?.email).toBe(email.toLowerCase());
        const again = await h.client().auth.verifyOtp({ type: 'magiclink', token_hash: magic.data.properties!.hashed_token });
        expect(again.error?.code).toBe('otp_expired');

        const unknown = await admin.generateLink({ type: 'recovery', email: h.uniqueEmail('nobody') });
        expect(unknown.error?.status).toBe(404);
        const refused = await h.client().auth.admin.generateLink({ type: 'recovery', email });
        expect(refused.error?.code).toBe('not_admin');
      });

      it('a PKCE password reset hands the app a code for a session', async () => {
        const { email } = await signUpFresh('pkce-recover');
        const ctx = await h.context();
        const supabase = h.client(ctx, { flowType: 'pkce' });
        await supabase.auth.resetPasswordForEmail(email, { redirectTo: `${SITE_URL}/reset` });
        const link = /http\S+\/auth\/v1\/verify\?\S+/.exec(ctx.outbox.list()[0].text)![0];
        const code = new URL((await h.openLink(link)).headers.get('location')!).searchParams.get('code');
        expect(code).toBeTruthy();
        const { data, error } = await supabase.auth.exchangeCodeForSession(code!);
        expect(error).toBeNull();
        expect(data.user?.email).toBe(email.toLowerCase());
      });
    });

    describe('keys and tokens', () => {
      it('refuses requests without an apikey, or with a forged one', async () => {
        const missing = await h.call('/settings', { headers: { apikey: '' } });
        expect(missing.status).toBe(401);
        expect(await missing.json()).toMatchObject({ message: 'No API key found in request' });
        const forged = await signJwt({ role: 'anon' }, 'some-other-secret-that-is-long-enough-to-sign', 60);
        const { error } = await h.client(h.base, { key: forged }).auth.signInWithPassword({
          email: h.uniqueEmail('x'),
          password: PASSWORD,
        });
        expect(error?.status).toBe(401);
        expect(error?.message).toBe('Invalid API key');
      });

      it('refuses malformed and wrongly signed bearer tokens with bad_jwt', async () => {
        const malformed = await h.client().auth.getUser('not-a-jwt');
        expect(malformed.error?.status).toBe(403);
        expect(malformed.error?.code).toBe('bad_jwt');
        const { user } = await signUpFresh('forged');
        const forged = await signJwt({ sub: user.id, role: 'authenticated' }, 'another-secret-long-enough-to-be-used!!', 60);
        const forgedUser = await h.client().auth.getUser(forged);
        expect(forgedUser.error?.code).toBe('bad_jwt');
        const none = await h.call('/user');
        expect(none.status).toBe(401);
        expect(await none.json()).toMatchObject({ error_code: 'no_authorization' });
      });

      it('answers settings, health, unknown paths and bad input in JSON', async () => {
        const settings = await h.call('/settings');
        expect(await settings.json()).toMatchObject({
          external: { email: true, phone: false },
          disable_signup: false,
          mailer_autoconfirm: true,
        });
        expect((await h.call('/health')).status).toBe(200);
        const unknown = await h.call('/nope');
        expect(unknown.status).toBe(404);
        expect(await unknown.json()).toMatchObject({ code: 404 });
        const badJson = await h.call('/token?grant_type=password', { method: 'POST', body: '{oops' });
        expect(badJson.status).toBe(400);
        expect(await badJson.json()).toMatchObject({ error_code: 'bad_json' });
        const badGrant = await h.call('/token?grant_type=magic', { method: 'POST', body: '{}' });
        expect(badGrant.status).toBe(400);
        const badId = await h.call('/admin/users/not-a-uuid', { headers: { authorization: `Bearer ${h.base.serviceRoleKey}` } });
        expect(badId.status).toBe(404);
      });
    });
  });
}
