import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { refreshTokenFromCookie, serviceClient } from './support/backend';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_CLIENT, DEMO_MEMBER, ORIGIN, pageText, signIn, uniqueEmail, Visitor } from './support/app';

const SIGNED_IN_ROUTES = [
  '/dashboard', '/leads', '/quotes', '/messages', '/invoices', '/clients', '/shipments', '/documents', '/rfp',
  '/compliance', '/automations', '/analytics', '/settings/website', '/settings/modules', '/settings/templates',
  '/settings/integrations', '/settings/users', '/settings/account', '/settings/audit-logs',
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
});

describe('sign-up', () => {
  it('creates an account, sets HttpOnly SameSite=Lax session cookies and reaches the dashboard', async () => {
    const visitor = new Visitor();
    const email = uniqueEmail('signup');
    const response = await visitor.post('/auth?tab=signup', {
      intent: 'signup',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email,
      password: 'secret-enough',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/dashboard');
    const sessionCookies = response.headers.getSetCookie().filter((c) => /^sb-.+-auth-token/.test(c));
    expect(sessionCookies.length).toBeGreaterThan(0);
    for (const cookie of sessionCookies) {
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i); // plain http on this test origin
    }
    const dashboard = await visitor.get('/dashboard');
    expect(dashboard.status).toBe(200);
    const html = await pageText(dashboard);
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain(email);
    expect(html).toContain('Admin Account'); // a plain sign-up makes the account's admin

    const { data } = await serviceClient().from('users').select('first_name, last_name, role').eq('email', email).single();
    expect(data).toEqual({ first_name: 'Ada', last_name: 'Lovelace', role: 'admin' });
  });

  it('answers invalid input with 400 and field errors, keeps what was typed, and creates nothing', async () => {
    const email = 'not-an-email';
    const response = await new Visitor().post('/auth?tab=signup', {
      intent: 'signup',
      first_name: 'Kept',
      email,
      password: '123',
    });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Enter a valid email address');
    expect(html).toContain('Password must be at least 6 characters long');
    expect(html).toContain('value="Kept"');
    expect(html).toContain(`value="${email}"`);
    expect(html).not.toContain('value="123"');
  });

  it('reports a duplicate email with the server message', async () => {
    const response = await new Visitor().post('/auth?tab=signup', { intent: 'signup', ...DEMO_ADMIN });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Sign up failed');
    expect(html).toContain('User already registered');
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

describe('the shell', () => {
  it('shows the Settings group to admins and auditors, the business screens to staff, and a client only My quotes', async () => {
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
    expect((await client.get('/dashboard')).headers.get('Location')).toBe('/quotes');
    const shell = await pageText(await client.get('/quotes'));
    expect(shell).toContain('My quotes');
    expect(shell).not.toContain('href="/leads"');
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
