// Access tokens as Supabase's asymmetric signing keys issue them (decision
// 024): ES256 with a kid, the public key at /auth/v1/.well-known/jwks.json, so
// supabase-js's getClaims() verifies a session without asking the auth server;
// PostgREST and GoTrue accept them, and still HS256 (the API keys, tokens of a
// project on the legacy secret). With jwtAlgorithm 'HS256' the backend is such
// a project: no public keys, and getClaims() asks the auth server.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../supabase/local/index.ts';
import { loadOrCreateSigningKey, signJwt } from '../../supabase/local/keys.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';

const DEMO = { email: 'demo@opshub.test', password: 'demo1234' };

/** A client whose every request is noted as "METHOD /path". */
function countingClient(backend: Backend) {
  const requests: string[] = [];
  const client = createClient(backend.url, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: {
      fetch: (input, init) => {
        const request = new Request(input, init);
        requests.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
    },
  });
  return { client, requests };
}

function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function ownRow(backend: Backend, token: string) {
  return fetch(`${backend.url}/rest/v1/users?select=email`, { headers: { apikey: backend.anonKey, Authorization: `Bearer ${token}` } });
}

describe('an ES256 project (the default)', () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startTestBackend();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('publishes the signing key as a JWKS, and signs access tokens with it (kid in the header)', async () => {
    const response = await fetch(`${backend.url}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', key_ops: ['verify'], kid: backend.signingKey!.kid });
    expect(keys[0]).not.toHaveProperty('d');

    const { client } = countingClient(backend);
    const { data } = await client.auth.signInWithPassword(DEMO);
    expect(headerOf(data.session!.access_token)).toEqual({ alg: 'ES256', typ: 'JWT', kid: backend.signingKey!.kid });
  });

  it('getClaims() verifies the session with the public key: after the keys, no request to the auth server', async () => {
    const { client, requests } = countingClient(backend);
    const { data: signedIn } = await client.auth.signInWithPassword(DEMO);
    requests.length = 0;
    const first = await client.auth.getClaims();
    expect(first.error).toBeNull();
    expect(first.data?.claims).toMatchObject({ sub: signedIn.user!.id, email: DEMO.email, role: 'authenticated' });
    expect(requests).toEqual(['GET /auth/v1/.well-known/jwks.json']);
    requests.length = 0;
    expect((await client.auth.getClaims()).error).toBeNull();
    expect(requests).toEqual([]);
  });

  it('getClaims() refuses an ES256 token whose claims were changed', async () => {
    const { client } = countingClient(backend);
    const { data } = await client.auth.signInWithPassword(DEMO);
    const [header, claims, signature] = data.session!.access_token.split('.');
    const changed = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')), role: 'service_role' }),
    ).toString('base64url');
    const result = await client.auth.getClaims(`${header}.${changed}.${signature}`);
    expect(result.error?.message).toBe('Invalid JWT signature');
  });

  it('PostgREST and GoTrue take the ES256 token, refuse one signed by another key, and still take HS256 tokens', async () => {
    const { client } = countingClient(backend);
    const { data } = await client.auth.signInWithPassword(DEMO);
    const token = data.session!.access_token;
    const mine = await ownRow(backend, token);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toContainEqual({ email: DEMO.email });
    const user = await fetch(`${backend.url}/auth/v1/user`, { headers: { apikey: backend.anonKey, Authorization: `Bearer ${token}` } });
    expect(user.status).toBe(200);

    // Another key with the same kid: the signature does not match.
    const other = await loadOrCreateSigningKey();
    const { SignJWT } = await import('jose');
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
    const foreign = await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: backend.signingKey!.kid }).sign(other.privateKey);
    const refused = await ownRow(backend, foreign);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('PGRST301');
    const refusedUser = await fetch(`${backend.url}/auth/v1/user`, { headers: { apikey: backend.anonKey, Authorization: `Bearer ${foreign}` } });
    expect(refusedUser.status).toBe(403);

    // A token issued with the shared secret (before the project had a signing key) still works.
    const legacy = await signJwt(payload, backend.jwtSecret, 600);
    expect((await ownRow(backend, legacy)).status).toBe(200);
  });
});

describe('an HS256 project (jwtAlgorithm: HS256)', () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startTestBackend({ jwtAlgorithm: 'HS256' });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('publishes no keys, signs with the secret, and getClaims() asks the auth server each time', async () => {
    const jwks = (await (await fetch(`${backend.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    expect(jwks.keys).toEqual([]);
    const { client, requests } = countingClient(backend);
    const { data } = await client.auth.signInWithPassword(DEMO);
    expect(headerOf(data.session!.access_token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    requests.length = 0;
    const result = await client.auth.getClaims();
    expect(result.error).toBeNull();
    expect(result.data?.claims.email).toBe(DEMO.email);
    expect(requests).toEqual(['GET /auth/v1/user']);
    expect((await ownRow(backend, data.session!.access_token)).status).toBe(200);
  });
});

describe('the signing key file', () => {
  it('is made once, readable by its owner only, and gives the same key on every start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signing-key-'));
    try {
      const file = join(dir, 'nested', 'auth-signing-key.json');
      const made = await loadOrCreateSigningKey(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const again = await loadOrCreateSigningKey(file);
      expect(again.kid).toBe(made.kid);
      expect(again.publicJwk).toEqual(made.publicJwk);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
