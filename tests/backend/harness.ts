// Shared set-up of the backend tests: the fixture schema (fixtures/), one
// backend per test file and database kind, and supabase-js clients acting as
// the service role, the anonymous role, or a user with a minted JWT.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Backend } from '../../supabase/local/index.ts';
import { signJwt } from '../../supabase/local/keys.ts';
import { startTestBackend, type TestBackendOptions } from '../../supabase/local/testing.ts';

const fixtures = new URL('./fixtures/', import.meta.url).pathname;
export const FIXTURE_SCHEMA: TestBackendOptions = {
  migrationsDir: `${fixtures}migrations`,
  seedFile: `${fixtures}seed.sql`,
  functionsDir: `${fixtures}functions`,
};

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL;

export const DATABASES = [
  { kind: 'PGlite', postgresUrl: undefined, available: true },
  { kind: 'PostgreSQL', postgresUrl: POSTGRES_URL, available: Boolean(POSTGRES_URL) },
] as const;

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

export interface Fixture {
  backend: Backend;
  service: SupabaseClient;
  anon: SupabaseClient;
  /** A client signed in as this user id (a JWT minted with the backend's secret). */
  asUser(sub: string): Promise<SupabaseClient>;
  token(claims: Record<string, unknown>, expiresIn?: number): Promise<string>;
  /** A raw request to the backend with the anon key unless headers say otherwise. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

export function clientFor(backend: Backend, key: string, accessToken?: string): SupabaseClient {
  return createClient(backend.url, key, {
    auth: noSession,
    global: accessToken ? { headers: { Authorization: `Bearer ${accessToken}` } } : {},
  });
}

/**
 * Runs `body` once per available database (PGlite always; PostgreSQL when
 * TEST_POSTGRES_URL is set), each against a fresh backend on the fixture schema
 * (with `options` for the backend, e.g. the exposed schemas).
 */
export function describeOnEachDatabase(title: string, body: (fixture: () => Fixture) => void, options: TestBackendOptions = {}): void {
  for (const database of DATABASES) {
    describe.skipIf(!database.available)(`${title} on ${database.kind}${database.available ? '' : ' (set TEST_POSTGRES_URL to run)'}`, () => {
      let current: Fixture | null = null;
      beforeAll(async () => {
        const backend = await startTestBackend({ ...FIXTURE_SCHEMA, ...options, postgresUrl: database.postgresUrl });
        const token: Fixture['token'] = (claims, expiresIn = 3600) => signJwt(claims, backend.jwtSecret, expiresIn);
        current = {
          backend,
          service: clientFor(backend, backend.serviceRoleKey),
          anon: clientFor(backend, backend.anonKey),
          token,
          asUser: async (sub) => clientFor(backend, backend.anonKey, await token({ sub, role: 'authenticated', aud: 'authenticated' })),
          fetch: (path, init = {}) => {
            const headers = new Headers(init.headers);
            if (!headers.has('apikey')) headers.set('apikey', backend.anonKey);
            return fetch(`${backend.url}${path}`, { ...init, headers });
          },
        };
      });
      afterAll(async () => {
        await current?.backend.stop();
      });
      body(() => {
        if (!current) throw new Error('the backend did not start');
        return current;
      });
    });
  }
}

export const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
