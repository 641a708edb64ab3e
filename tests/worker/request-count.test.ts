// What one signed-in page view costs the backend: the Worker reaches the local
// backend through global-setup's proxy (tests/support/backend-proxy.ts), which
// files every request under the user agent the Worker signs into it; each page
// view here has a user agent of its own, so its requests are read back exactly,
// whatever other files run meanwhile. The users row is read once per request
// (app/lib/auth.server.ts); the session is verified without asking the auth
// server (the access token is ES256, checked with the project's public key,
// decision 024), unless it is HS256, then once. The other requests are pinned
// as they are today, so an extra round trip fails.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin, Visitor } from './support/app';
import { decodeJwt, readSession, resignHs256, writeSession } from './support/session-cookie';

/** The backend requests (as "METHOD /path?query") made for the page views sent with this user agent. */
async function requestsOf(userAgent: string): Promise<string[]> {
  const response = await fetch(`${env.SUPABASE_URL}/_requests?client=${encodeURIComponent(userAgent)}`);
  if (!response.ok) throw new Error(`the request log answered ${response.status}`);
  return (await response.json()) as string[];
}

/** A backend request's kind: "METHOD /path". */
function kindOf(request: string): string {
  return request.split('?')[0];
}

/** How many requests of each kind, keys sorted. */
function tally(requests: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of requests.map(kindOf).sort()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** The signed-in user's users row, with their account's name and whether the session is live: read once per request (app/lib/auth.server.ts). */
const USERS_ROW = 'GET /rest/v1/rpc/current_profile';
/** The session verified by the auth server: only for an HS256 token (app/lib/supabase.server.ts getUser, memoised per request). */
const AUTH_USER = 'GET /auth/v1/user';
/** The signing keys, fetched once per isolate and then kept (auth-js's JWKS cache). */
const JWKS = 'GET /auth/v1/.well-known/jwks.json';
/** What every signed-in page view costs before its own reads. */
const SIGNED_IN = { [USERS_ROW]: 1 };

// The requests of each page view today, by kind: a new round trip (a second
// users read, a session check, a count that used to be a look-ahead)
// fails here; when a screen rightly reads something new, change its line.
const PAGES: Record<string, Record<string, number>> = {
  // My tasks (decision 080) is the overview's key my_tasks: one call.
  '/dashboard': { ...SIGNED_IN, 'POST /rest/v1/rpc/dashboard_overview': 1 },
  '/leads': { ...SIGNED_IN, 'POST /rest/v1/rpc/lead_summary': 1, 'GET /rest/v1/leads': 1 },
  '/quotes': { ...SIGNED_IN, 'POST /rest/v1/rpc/quote_summary': 1, 'GET /rest/v1/quote_list': 1 },
  '/clients': { ...SIGNED_IN, 'POST /rest/v1/rpc/client_summary': 1, 'GET /rest/v1/contacts': 1 },
  '/settings/account': { ...SIGNED_IN, 'GET /rest/v1/accounts': 1 },
  '/settings/users': { ...SIGNED_IN, 'GET /rest/v1/users': 1, 'GET /rest/v1/user_invitations': 1 },
};

let visitor: Visitor;
beforeAll(async () => {
  ({ visitor } = await signUpFreshAdmin());
  // The isolate's first verification fetches the signing keys; the counts below are of the pages after it.
  expect((await visitor.get('/dashboard')).status).toBe(200);
});

/** One page view (the whole document, or the JavaScript client's `.data` request) with a user agent of its own. */
async function view(path: string, as: Visitor = visitor): Promise<Record<string, number>> {
  const userAgent = `request-count ${crypto.randomUUID()}`;
  const response = await as.get(path, { 'User-Agent': userAgent });
  expect(response.status, path).toBe(200);
  await response.arrayBuffer();
  return tally(await requestsOf(userAgent));
}

/** A second browser holding the same cookies. */
function copyOf(original: Visitor): Visitor {
  const copy = new Visitor();
  for (const name of original.names()) copy.set(name, original.value(name));
  return copy;
}

const sorted = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));

describe('backend requests per signed-in page view', () => {
  it('holds an ES256 access token with the signing key id in its header', () => {
    const { header } = decodeJwt(readSession(visitor).access_token);
    expect(header).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
  });

  it('refuses an ES256 token whose claims were changed (the Worker checks the signature itself)', async () => {
    const other = await signUpFreshAdmin();
    const tampered = copyOf(visitor);
    const session = readSession(tampered);
    const [header, , signature] = session.access_token.split('.');
    const theirClaims = readSession(other.visitor).access_token.split('.')[1];
    writeSession(tampered, { ...session, access_token: `${header}.${theirClaims}.${signature}` });
    const response = await tampered.get('/dashboard');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toMatch(/^\/auth/);
  });

  it.each(Object.keys(PAGES))('%s reads the users row once, never asks the auth server, and makes no other round trip than today', async (path) => {
    const counts = await view(path);
    expect(counts[USERS_ROW], JSON.stringify(counts)).toBe(1);
    expect(counts[AUTH_USER], JSON.stringify(counts)).toBeUndefined();
    expect(counts[JWKS], JSON.stringify(counts)).toBeUndefined();
    expect(sorted(counts)).toEqual(sorted(PAGES[path]));
  });

  // A navigation in the browser asks for the same loaders' data (`<path>.data`): the same requests.
  it.each(Object.keys(PAGES))('%s.data (a client-side navigation) costs the same', async (path) => {
    const counts = await view(`${path}.data`);
    expect(counts[USERS_ROW], JSON.stringify(counts)).toBe(1);
    expect(counts[AUTH_USER], JSON.stringify(counts)).toBeUndefined();
    expect(sorted(counts)).toEqual(sorted(PAGES[path]));
  });
});

// A project still on the legacy JWT secret (or a token issued before the
// project had a signing key) hands out HS256 tokens: the Worker cannot check
// those itself (it does not hold the secret), so it asks the auth server once.
describe('a session whose access token is HS256', () => {
  let legacy: Visitor;
  beforeAll(async () => {
    ({ visitor: legacy } = await signUpFreshAdmin());
    const session = readSession(legacy);
    writeSession(legacy, { ...session, access_token: await resignHs256(session.access_token) });
  });

  it.each(Object.keys(PAGES))('%s renders, verified by the auth server once, and costs what it did before', async (path) => {
    const counts = await view(path, legacy);
    expect(counts[AUTH_USER], JSON.stringify(counts)).toBe(1);
    expect(sorted(counts)).toEqual(sorted({ ...PAGES[path], [AUTH_USER]: 1 }));
  });

  it('signs out a forged HS256 token (the auth server refuses it)', async () => {
    const forged = copyOf(legacy);
    const session = readSession(forged);
    const [header, claims] = session.access_token.split('.');
    writeSession(forged, { ...session, access_token: `${header}.${claims}.${'A'.repeat(43)}` });
    const response = await forged.get('/dashboard');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toMatch(/^\/auth/);
  });
});
