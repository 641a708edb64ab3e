import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { refreshTokenFromCookie, serviceClient } from './support/backend';
import { confirmationLinkFor } from '../support/confirmation-mail';
import { confirmThroughMail, ORIGIN, pageText, signIn, signUpFreshAdmin, Visitor } from './support/app';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_CLIENT, DEMO_MEMBER, DEMO_NORTHWIND_ADMIN, uniqueEmail } from '../support/accounts';

const SIGNED_IN_ROUTES = [
  '/dashboard', '/leads', '/quotes', '/messages', '/invoices', '/bills', '/clients', '/shipments', '/documents', '/rfp',
  '/compliance', '/automations', '/analytics', '/settings/website', '/settings/modules', '/settings/templates',
  '/settings/integrations', '/settings/users', '/settings/account', '/settings/audit-logs', '/profile',
  '/portal', '/portal/invoices', '/portal/documents',
];

describe('signed-in routes', () => {
  it('send an anonymous visitor to /auth, remembering where they were going', async () => {
    const visitor = new Visitor();
    for (const path of SIGNED_IN_ROUTES) {
      const response = await visitor.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('Location'), path).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it('take a user back where they were going after sign-in, but never off-site', async () => {
    const visitor = new Visitor();
    const back = await visitor.post('/auth', { intent: 'signin', ...DEMO_ADMIN, redirectTo: '/quotes?page=2' });
    expect(back.headers.get('Location')).toBe('/quotes?page=2');
    const offsite = await new Visitor().post('/auth', { intent: 'signin', ...DEMO_ADMIN, redirectTo: '//evil.test/x' });
    expect(offsite.headers.get('Location')).toBe('/dashboard');
  });

  // Browsers drop tabs and newlines from a Location and read '\' as '/', so each
  // of these would send the user to evil.test after a successful sign-in.
  it.each([
    ['a tab', '/\t/evil.test/x'],
    ['a newline', '/\n/evil.test/x'],
    ['a carriage return', '/\r/evil.test/x'],
    ['a backslash', '/\\evil.test/x'],
    ['a NUL', '/\u0000/evil.test/x'],
    ['a DEL', '/\u007f/evil.test/x'],
    ['an escape in the middle', '/quotes\u001b/x'],
  ])('never redirect off-site through %s in redirectTo', async (_label, redirectTo) => {
    const response = await new Visitor().post('/auth', { intent: 'signin', ...DEMO_ADMIN, redirectTo });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/dashboard');
  });
});

describe('sign-up', () => {
  it("asks to check the email, signs in only through the mailed link, and reaches the dashboard of the company it named", async () => {
    const visitor = new Visitor();
    const email = uniqueEmail('signup');
    const response = await visitor.post('/auth?tab=signup', {
      intent: 'signup',
      company_name: '  Analytical Engines Ltd ',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email,
      password: 'secret-enough',
    });
    expect(response.status).toBe(200);
    const page = await pageText(response);
    expect(page).toContain('Check your email');
    expect(page).toContain('Please check your email for a confirmation link.');
    // No session (the PKCE code verifier cookie supabase-js keeps is not one).
    expect(response.headers.getSetCookie().some((c) => /^sb-.+-auth-token(\.\d+)?=/.test(c))).toBe(false);
    // The password is not enough before the address is confirmed.
    const early = await new Visitor().post('/auth', { intent: 'signin', email, password: 'secret-enough' });
    expect(early.status).toBe(400);
    expect(await pageText(early)).toContain('Email not confirmed');

    const confirmed = await confirmThroughMail(visitor, email);
    // The site root, which sends a signed-in visitor on to the dashboard.
    expect(confirmed.headers.get('Location')).toBe('/');
    const sessionCookies = confirmed.headers.getSetCookie().filter((c) => /^sb-.+-auth-token/.test(c));
    expect(sessionCookies.length).toBeGreaterThan(0);
    for (const cookie of sessionCookies) {
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i); // plain http on this test origin
    }
    expect((await visitor.get('/')).headers.get('Location')).toBe('/dashboard');
    const dashboard = await visitor.get('/dashboard');
    expect(dashboard.status).toBe(200);
    const html = await pageText(dashboard);
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain(email);
    expect(html).toContain('Admin Account'); // a plain sign-up makes the account's admin
    // The shell names the workspace; a first session is greeted as new.
    expect(html).toContain('Analytical Engines Ltd');
    expect(html).toContain('Welcome, Ada');
    expect(html).not.toContain('Welcome back');

    const { data } = await serviceClient().from('users').select('first_name, last_name, role, account:accounts(name)').eq('email', email).single();
    expect(data).toEqual({ first_name: 'Ada', last_name: 'Lovelace', role: 'admin', account: { name: 'Analytical Engines Ltd' } });

    // Signed out and in again: no longer a first visit.
    await visitor.post('/auth', { intent: 'signout' });
    const returning = new Visitor();
    expect((await returning.post('/auth', { intent: 'signin', email, password: 'secret-enough' })).status).toBe(302);
    expect(await pageText(await returning.get('/dashboard'))).toContain('Welcome back, Ada');
  });

  it('the confirmation link works once; a used, forged or incomplete one signs nobody in', async () => {
    const visitor = new Visitor();
    const email = uniqueEmail('once');
    await visitor.post('/auth?tab=signup', { intent: 'signup', company_name: 'Once Ltd', email, password: 'secret-enough' });
    const link = await confirmationLinkFor(env.SUPABASE_URL, email);
    await confirmThroughMail(visitor, email);
    for (const path of [
      `${link.pathname}${link.search}`,
      '/auth/confirm?token_hash=0000000000000000000000000000000000000000000000000000000&type=email',
      `/auth/confirm?token_hash=${link.searchParams.get('token_hash')}&type=recovery`,
      '/auth/confirm',
    ]) {
      const stranger = new Visitor();
      const response = await stranger.get(path);
      expect(response.status, path).toBe(302);
      // A failed reset link goes where a new one is asked for.
      expect(response.headers.get('Location'), path).toBe(path.includes('type=recovery') ? '/auth/forgot-password' : '/auth');
      expect(stranger.names().some((name) => name.includes('auth-token')), path).toBe(false);
      expect(await pageText(await stranger.follow(response)), path).toContain('Email link is invalid or has expired');
    }
  });

  it('answers invalid input with 400 and field errors, keeps what was typed, and creates nothing', async () => {
    const email = 'not-an-email';
    const response = await new Visitor().post('/auth?tab=signup', {
      intent: 'signup',
      company_name: '   ',
      first_name: 'Kept',
      email,
      password: '123',
    });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Company name is required');
    expect(html).toContain('Enter a valid email address');
    expect(html).toContain('Password must be at least 6 characters long');
    expect(html).toContain('value="Kept"');
    expect(html).toContain(`value="${email}"`);
    expect(html).not.toContain('value="123"');
  });

  it('answers a registered address exactly as a new one, so sign-up tells nobody who has an account', async () => {
    // Only the per-request CSP nonce differs between two renders of one page.
    const page = async (email: string) => {
      const response = await new Visitor().post('/auth?tab=signup', { intent: 'signup', company_name: 'Squatters Inc', email, password: 'squatter-pass' });
      return { status: response.status, html: (await pageText(response)).replace(/nonce="[^"]*"/g, '').replaceAll(email, '{email}') };
    };
    const registered = await page(DEMO_ADMIN.email);
    const fresh = await page(uniqueEmail('fresh'));
    expect(registered.status).toBe(200);
    expect(registered.html).toContain('Check your email');
    expect(registered.html).not.toContain('already registered');
    expect(registered).toEqual(fresh);
  });
});

describe('sign-in', () => {
  it('refuses a wrong password with the Sign in failed toast and keeps the email', async () => {
    const response = await new Visitor().post('/auth', { intent: 'signin', email: DEMO_ADMIN.email, password: 'wrong!' });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Sign in failed');
    expect(html).toContain('Invalid login credentials');
    expect(html).toContain(`value="${DEMO_ADMIN.email}"`);
    expect(html).not.toContain('value="wrong!"');
    expect(response.headers.getSetCookie().some((c) => /^sb-/.test(c))).toBe(false);
  });

  it('shows the reason beside the form too, focused on load and named by the form', async () => {
    const response = await new Visitor().post('/auth', { intent: 'signin', email: DEMO_ADMIN.email, password: 'wrong!' });
    const html = await pageText(response);
    const alert = /<div id="([^"]+)" role="alert" tabindex="-1" autofocus=""[^>]*><p class="font-semibold">Sign in failed<\/p><p>Invalid login credentials<\/p><\/div>/.exec(html);
    expect(alert, 'the form error box').not.toBeNull();
    // Inside the sign-in form, which points at it.
    expect(html).toMatch(new RegExp(`<form[^>]*aria-describedby="${alert![1]}"`));
  });

  it('requires email and password', async () => {
    const response = await new Visitor().post('/auth', { intent: 'signin', email: '', password: '' });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Email is required');
    expect(html).toContain('Password is required');
  });

  it('sends signed-in visitors of / and /auth to the dashboard', async () => {
    const visitor = await signIn(DEMO_ADMIN);
    for (const path of ['/', '/auth']) {
      const response = await visitor.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('Location'), path).toBe('/dashboard');
    }
  });
});

describe('sign-in throttling', () => {
  it('locks an address after 10 wrong passwords: even the right one then gets 429 and a wait, the email is kept', async () => {
    const { email, password } = await signUpFreshAdmin();
    const attempt = (pw: string) => new Visitor().post('/auth', { intent: 'signin', email, password: pw });
    for (let i = 1; i <= 9; i++) expect((await attempt(`wrong-${i}`)).status).toBe(400);
    const tenth = await attempt('wrong-10');
    expect(tenth.status).toBe(429);
    expect(await pageText(tenth)).toContain('Too many attempts, try again in 15 minutes');

    const right = await attempt(password);
    expect(right.status).toBe(429);
    const html = await pageText(right);
    expect(html).toContain('Sign in failed');
    expect(html).toMatch(/Too many attempts, try again in 1[45] minutes/);
    expect(html).toContain(`value="${email}"`);
    expect(html).not.toContain(`value="${password}"`);
    expect(right.headers.getSetCookie().some((c) => /^sb-/.test(c))).toBe(false);
  });

  it("a user's own successful sign-in starts their count again", async () => {
    const { email, password } = await signUpFreshAdmin();
    const attempt = (pw: string) => new Visitor().post('/auth', { intent: 'signin', email, password: pw });
    for (let i = 1; i <= 9; i++) await attempt(`wrong-${i}`);
    expect((await attempt(password)).status).toBe(302);
    for (let i = 1; i <= 9; i++) expect((await attempt(`again-${i}`)).status).toBe(400);
  });

  it('limits attempts per client IP over a minute, whichever addresses they try', async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const attempt = () =>
      new Visitor().post('/auth', { intent: 'signin', email: uniqueEmail('spray'), password: 'guess-1' }, { 'CF-Connecting-IP': ip });
    // The local limiter (miniflare's) counts in windows aligned to the clock's
    // minutes: when the burst crosses into the next minute its count starts
    // again, and the refusal comes after 30 to 60 attempts.
    const minute = () => Math.floor(Date.now() / 60_000);
    const startedIn = minute();
    let answered = 0;
    let throttled = await attempt();
    while (throttled.status !== 429 && answered < 60) {
      expect(throttled.status).toBe(400);
      answered += 1;
      throttled = await attempt();
    }
    if (minute() === startedIn) expect(answered).toBe(30);
    else expect(answered).toBeGreaterThanOrEqual(30);
    expect(throttled.status).toBe(429);
    expect(await pageText(throttled)).toContain('Too many attempts, try again in 1 minute');
    // Another client is not slowed by it.
    const other = await new Visitor().post('/auth', { intent: 'signin', ...DEMO_ADMIN }, { 'CF-Connecting-IP': '198.51.100.9' });
    expect(other.status).toBe(302);
  });
});

describe('the shell', () => {
  it('shows the Settings group to admins and auditors, the business screens to staff, and a client only its portal', async () => {
    const admin = await pageText(await (await signIn(DEMO_ADMIN)).get('/dashboard'));
    expect(admin).toContain('href="/settings/users"');
    expect(admin).toContain('Admin Account');
    const auditor = await pageText(await (await signIn(DEMO_AUDITOR)).get('/dashboard'));
    expect(auditor).toContain('href="/settings/users"');
    expect(auditor).toContain('Auditor Account');
    expect(auditor).toContain('href="/leads"');
    const member = await pageText(await (await signIn(DEMO_MEMBER)).get('/dashboard'));
    expect(member).not.toContain('href="/settings/users"');
    expect(member).toContain('Member Account');
    expect(member).toContain('href="/leads"');
    const client = await signIn(DEMO_CLIENT);
    expect((await client.get('/dashboard')).headers.get('Location')).toBe('/portal');
    const shell = await pageText(await client.get('/portal'));
    expect(shell).toContain('Your quotes');
    expect(shell).toContain('href="/portal/invoices"');
    expect(shell).not.toContain('href="/leads"');
    // The account's name is the company's own, shown to its staff; an outsider cannot read the account.
    expect(shell).not.toContain('Workspace: ');
  });

  it("names the workspace: the signed-in user's account", async () => {
    const northwind = await pageText(await (await signIn(DEMO_NORTHWIND_ADMIN)).get('/leads'));
    expect(northwind).toContain('<span class="sr-only">Workspace: </span>Northwind Traders');
    const member = await pageText(await (await signIn(DEMO_MEMBER)).get('/leads'));
    expect(member).toContain('<span class="sr-only">Workspace: </span>OpsHub Pro');
  });

  it('keeps the sidebar state in the sidebar:state cookie for 7 days, toggled by a plain form post', async () => {
    const visitor = await signIn(DEMO_ADMIN);
    expect(await pageText(await visitor.get('/leads'))).toContain('data-state="expanded"');
    const toggled = await visitor.post('/leads?sidebar=toggle', {});
    expect(toggled.status).toBe(302);
    expect(toggled.headers.get('Location')).toBe('/leads');
    const cookie = toggled.headers.getSetCookie().find((c) => c.startsWith('sidebar:state='));
    expect(cookie).toMatch(/^sidebar:state=false;/);
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(await pageText(await visitor.get('/leads'))).toContain('data-state="collapsed"');
    await visitor.post('/leads?sidebar=toggle', {});
    expect(await pageText(await visitor.get('/leads'))).toContain('data-state="expanded"');
  });

  it('marks the current section in the sidebar', async () => {
    const html = await pageText(await (await signIn(DEMO_ADMIN)).get('/settings/templates'));
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*href="\/settings\/templates"|<a[^>]*href="\/settings\/templates"[^>]*aria-current="page"/);
  });
});

describe('sign-out', () => {
  it('clears the session cookies and revokes the refresh token', async () => {
    const visitor = await signIn(DEMO_ADMIN);
    const sessionCookie = visitor.names().find((name) => /^sb-.+-auth-token$/.test(name));
    expect(sessionCookie).toBeDefined();
    const value = visitor.cookieHeader.split('; ').find((c) => c.startsWith(`${sessionCookie}=`))!.split('=').slice(1).join('=');
    const refreshToken = refreshTokenFromCookie(value);

    const response = await visitor.post('/auth', { intent: 'signout' });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/auth');
    expect(visitor.names().filter((n) => n.startsWith('sb-'))).toEqual([]);
    expect((await visitor.get('/dashboard')).status).toBe(302);

    const refresh = await fetch(`${env.SUPABASE_URL}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: env.SUPABASE_ANON_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    expect(refresh.status).toBe(400);
  });
});

describe('forms', () => {
  it('refuse a cross-origin POST with 403 and a clear message', async () => {
    const response = await new Visitor().post('/auth', { intent: 'signin', ...DEMO_ADMIN }, { Origin: 'http://evil.test' });
    expect(response.status).toBe(403);
    expect(await pageText(response)).toContain('This form was sent from another site and has been refused.');
    expect(response.headers.getSetCookie().some((c) => c.startsWith('sb-'))).toBe(false);
  });

  it('answer an oversized body, a wrong content type and an unknown intent with 400, never 500', async () => {
    const visitor = new Visitor();
    const huge = await visitor.post('/auth', { intent: 'signin', email: 'x@example.test', password: 'y'.repeat(200_000) });
    expect(huge.status).toBe(400);
    const json = await visitor.post('/auth', new FormData(), { 'Content-Type': 'application/json' });
    expect(json.status).toBe(400);
    const unknown = await visitor.post('/auth', { intent: 'drop-tables' });
    expect(unknown.status).toBe(400);
    for (const response of [huge, json, unknown]) expect(await pageText(response)).toContain('Sign In');
  });

  it('ignore a POST with a missing Origin and a foreign Referer', async () => {
    const response = await new Visitor().post('/auth', { intent: 'signin', ...DEMO_ADMIN }, { Origin: '', Referer: 'http://evil.test/' });
    expect(response.status).toBe(403);
  });

  it('accept a same-origin Referer when Origin is absent', async () => {
    const response = await new Visitor().post('/auth', { intent: 'signin', ...DEMO_ADMIN }, { Origin: '', Referer: `${ORIGIN}/auth` });
    expect(response.status).toBe(302);
  });
});
