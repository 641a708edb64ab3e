// Faults (issue 9): the built Worker under wrangler dev, talking to the local
// backend through a proxy that goes down, hangs or answers gateway errors.
// Every page must answer in bounded time with a clear page (never a hang or a
// stack), reads are retried on 502/503/504, writes never blindly, and the app
// recovers without a restart when the backend is back.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInCookie } from '../../bench/weight/measure.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { BackendProxy } from '../support/backend-proxy.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';

const UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';
// A hang detector, not a speed target: the app's own deadline is 8 s per attempt.
const NO_HANG = 30_000;

let proxy: BackendProxy;
let app: AppServer;
let cookie: string;

beforeAll(async () => {
  proxy = new BackendProxy(inject('backendUrl'));
  await proxy.up();
  app = await startAppServer({ SUPABASE_URL: proxy.url, SUPABASE_ANON_KEY: inject('anonKey') });
  cookie = await signInCookie(app.url, DEMO_ADMIN.email, DEMO_ADMIN.password);
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await proxy?.stop();
});

async function visit(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const response = await fetch(new URL(path, app.url), {
    ...init,
    headers: { cookie, ...(init.headers as Record<string, string> | undefined) },
    redirect: 'manual',
    signal: AbortSignal.timeout(NO_HANG),
  });
  return { status: response.status, body: await response.text() };
}

function expectClearErrorPage(page: { status: number; body: string }) {
  expect(page.status).toBe(503);
  expect(page.body).toContain(UNAVAILABLE);
  expect(page.body).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
}

describe('faults between the Worker and the backend', () => {
  it('serves the dashboard while the backend is up', async () => {
    const page = await visit('/dashboard');
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/Welcome( back)?, Dana/);
  });

  it('answers every signed-in page with a clear 503 while the backend is down, keeping the session', async () => {
    await proxy.down();
    for (const path of ['/dashboard', '/quotes', '/leads', '/settings/users']) {
      const page = await visit(path);
      expectClearErrorPage(page);
    }
    // The public pages still render, with the default site facts.
    expect((await fetch(new URL('/pricing', app.url), { signal: AbortSignal.timeout(NO_HANG) })).status).toBe(200);
  }, 4 * NO_HANG);

  it('answers within its deadline when the backend accepts but never answers', async () => {
    await proxy.up();
    proxy.hang();
    expectClearErrorPage(await visit('/dashboard'));
  }, NO_HANG * 2);

  it('recovers without a restart when the backend is back', async () => {
    await proxy.down();
    await proxy.up();
    const page = await visit('/dashboard');
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/Welcome( back)?, Dana/);
  });

  it('retries reads that get a gateway error, with backoff, and the page renders', async () => {
    // The users row (public.current_profile, read as a GET): the one read every
    // signed-in page makes (the session is verified without a request).
    const profile = /^\/rest\/v1\/rpc\/current_profile$/;
    const before = proxy.count('GET', profile);
    proxy.fail('GET', profile, 503, 2);
    const page = await visit('/dashboard');
    expect(page.status).toBe(200);
    expect(proxy.count('GET', profile) - before).toBe(3);
  });

  it('never repeats a write that got a gateway error', async () => {
    const before = proxy.count('POST', /^\/rest\/v1\/leads$/);
    proxy.fail('POST', /^\/rest\/v1\/leads$/, 503, 1);
    const email = `fault-${Date.now()}@example.test`;
    const page = await visit('/leads?new', {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Fault Lead', email, company: 'Fault Co', source: 'website' }),
    });
    expect(page.status).toBeGreaterThanOrEqual(400);
    expect(page.body).toContain('Fault Lead'); // the input is still in the form
    expect(proxy.count('POST', /^\/rest\/v1\/leads$/) - before).toBe(1);

    const serviceKey = inject('serviceRoleKey');
    const rows = await fetch(`${inject('backendUrl')}/rest/v1/leads?select=id&email=eq.${encodeURIComponent(email)}`, {
      headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}` },
    });
    expect(await rows.json()).toEqual([]);
  });
});
