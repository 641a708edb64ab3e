// The migrations runner: versions recorded like the Supabase CLI, each applied
// once, the seed only on a fresh database, data kept across restarts.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../supabase/local/db.ts';
import { type Backend, startBackend } from '../../supabase/local/index.ts';
import { UnknownMigrationsError } from '../../supabase/local/migrate.ts';
import { FIXTURE_SCHEMA, POSTGRES_URL } from './harness.ts';

const SLOW = 180_000;

interface Where {
  dataDir?: string;
  databaseUrl?: string;
}

async function startOn(where: Where, migrationsDir: string): Promise<Backend> {
  return startBackend({ ...where, port: 0, quiet: true, migrationsDir, seedFile: FIXTURE_SCHEMA.seedFile });
}

async function versions(backend: Backend) {
  return (
    await backend.db.query<{ version: string; name: string; applied_at: unknown }>(
      'select version, name, applied_at::text as applied_at from supabase_migrations.schema_migrations order by version',
    )
  ).rows;
}

const count = async (backend: Backend, table: string) =>
  Number((await backend.db.query<{ n: number }>(`select count(*)::int as n from public.${table}`)).rows[0].n);

async function checkRunner(where: Where) {
  const migrationsDir = mkdtempSync(join(tmpdir(), 'ops-hub-migrations-'));
  cpSync(FIXTURE_SCHEMA.migrationsDir!, migrationsDir, { recursive: true });
  try {
    const first = await startOn(where, migrationsDir);
    const recorded = await versions(first);
    expect(recorded.map((v) => `${v.version}_${v.name}`)).toEqual(['20240101000001_library', '20240101000002_notes_rls', '20240101000003_functions', '20240101000004_counted_calls', '20240101000005_postgrest_parity']);
    expect(await count(first, 'books')).toBe(7);
    await first.db.query("insert into public.tags (label) values ('kept across restarts')");
    await first.stop();

    const second = await startOn(where, migrationsDir);
    expect(await versions(second)).toEqual(recorded);
    expect(await count(second, 'books')).toBe(7); // the seed did not run again
    expect((await second.db.query("select 1 from public.tags where label = 'kept across restarts'")).rows).toHaveLength(1);
    await second.stop();

    writeFileSync(join(migrationsDir, '20240101000099_shelves.sql'), 'create table public.shelves (id serial primary key, name text);');
    const third = await startOn(where, migrationsDir);
    const after = await versions(third);
    expect(after).toHaveLength(recorded.length + 1);
    expect(after.slice(0, recorded.length)).toEqual(recorded);
    expect(after.at(-1)).toMatchObject({ version: '20240101000099', name: 'shelves' });
    // The REST layer sees the new table.
    const response = await fetch(`${third.url}/rest/v1/shelves`, { headers: { apikey: third.anonKey } });
    expect(await response.json()).toEqual([]);
    await third.stop();
  } finally {
    rmSync(migrationsDir, { recursive: true, force: true });
  }
}

describe('the migrations runner', () => {
  it('on PGlite: records versions, applies each once, seeds once, keeps data', { timeout: SLOW }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-hub-pglite-'));
    try {
      await checkRunner({ dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('rolls back a failing migration and reports which one', { timeout: SLOW }, async () => {
    const migrationsDir = mkdtempSync(join(tmpdir(), 'ops-hub-migrations-'));
    writeFileSync(join(migrationsDir, '20240101000001_good.sql'), 'create table public.good (id int);');
    writeFileSync(join(migrationsDir, '20240101000002_bad.sql'), 'create table public.half (id int); select * from missing_table;');
    try {
      await expect(startBackend({ port: 0, quiet: true, migrationsDir, seed: false })).rejects.toThrow(/20240101000002_bad/);
    } finally {
      rmSync(migrationsDir, { recursive: true, force: true });
    }
  });

  it('refuses a database made by a newer checkout (migrations it does not have), as supabase db push does', { timeout: SLOW }, async () => {
    const newer = mkdtempSync(join(tmpdir(), 'ops-hub-migrations-'));
    const older = mkdtempSync(join(tmpdir(), 'ops-hub-migrations-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-hub-pglite-'));
    writeFileSync(join(newer, '20240101000001_first.sql'), 'create table public.first (id int);');
    writeFileSync(join(newer, '20240101000002_second.sql'), 'create table public.second (id int);');
    writeFileSync(join(older, '20240101000001_first.sql'), 'create table public.first (id int);');
    try {
      await (await startBackend({ port: 0, quiet: true, dataDir, migrationsDir: newer, seed: false })).stop();
      const refused = startBackend({ port: 0, quiet: true, dataDir, migrationsDir: older, seed: false });
      await expect(refused).rejects.toBeInstanceOf(UnknownMigrationsError);
      await expect(refused).rejects.toThrow('the database has migrations this checkout does not have (20240101000002)');
    } finally {
      for (const dir of [newer, older, dataDir]) rmSync(dir, { recursive: true, force: true });
    }
  });

  describe.skipIf(!POSTGRES_URL)('on PostgreSQL (set TEST_POSTGRES_URL to run)', () => {
    it('records versions, applies each once, seeds once, keeps data', { timeout: SLOW }, async () => {
      const server = await openPostgres(POSTGRES_URL!);
      const name = `ops_migrate_${randomBytes(6).toString('hex')}`;
      await server.exec(`create database ${name}`);
      try {
        const url = new URL(POSTGRES_URL!);
        url.pathname = `/${name}`;
        await checkRunner({ databaseUrl: url.toString() });
      } finally {
        await server.exec(`drop database if exists ${name} with (force)`);
        await server.close();
      }
    });
  });
});
