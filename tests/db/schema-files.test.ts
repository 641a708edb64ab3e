// The schema files (supabase/schemas, docs/schema-files.md) say what the
// migrations make: a database built from the bootstrap and the files has the
// catalogue of one built from the bootstrap and the migrations (tables,
// columns, constraints, indexes, policies, functions, triggers, views, types,
// extensions and every grant), on PGlite and on PostgreSQL 15. When this
// fails, run `npm run db:schema` (a migration changed the schema) or write the
// migration the edited schema file asks for.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { catalogueFacts, differences } from '../../scripts/db-schema/compare.ts';
import { applySchemaFiles, NO_MIGRATIONS, SCHEMAS_DIR, schemaFiles } from '../../scripts/db-schema/files.ts';
import { postgresUrl } from './support/sql-db.ts';

it('every schema file is in schema_paths, so none is left out of the database they describe', () => {
  const listed = schemaFiles().map((file) => file.replace(/^supabase\/schemas\//, '')).sort();
  expect(readdirSync(SCHEMAS_DIR).filter((file) => file.endsWith('.sql')).sort()).toEqual(listed);
});

const targets = [
  { name: 'PGlite', postgres: false, skip: false },
  { name: 'PostgreSQL', postgres: true, skip: !postgresUrl },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`the schema files on ${target.name}`, () => {
    let migrated: { db: Db; stop(): Promise<void> };
    let fromFiles: { db: Db; stop(): Promise<void> };

    beforeAll(async () => {
      // Both start from a copy of a kept database (snapshot on PGlite, template on PostgreSQL):
      // the migrated one every test copies, and one with only the bootstrap, which the files then build on.
      const postgres = target.postgres ? postgresUrl : undefined;
      [migrated, fromFiles] = await Promise.all([
        startTestBackend({ quiet: true, postgresUrl: postgres }) as Promise<{ db: Db; stop(): Promise<void> }>,
        startTestBackend({ quiet: true, postgresUrl: postgres, migrationsDir: NO_MIGRATIONS, seed: false }) as Promise<{ db: Db; stop(): Promise<void> }>,
      ]);
      await applySchemaFiles(fromFiles.db);
    });
    afterAll(async () => {
      await Promise.all([migrated?.stop(), fromFiles?.stop()]);
    });

    it('make the catalogue the migrations make', async () => {
      const [fromMigrations, fromSchemaFiles] = await Promise.all([catalogueFacts(migrated.db), catalogueFacts(fromFiles.db)]);
      expect(fromMigrations.size).toBeGreaterThan(500);
      expect(
        differences(fromMigrations, fromSchemaFiles),
        'objects the schema files and the migrations make differently: run npm run db:schema, or write the migration',
      ).toEqual([]);
    });

    it('the comparison names each object that differs', async () => {
      const before = await catalogueFacts(fromFiles.db);
      // As a schema file edited without its migration would leave them (run last: the database is not used again).
      await fromFiles.db.exec(`
        alter table public.contacts alter column phone set default 'none';
        drop policy "business writers add contacts" on public.contacts;
        grant execute on function public.claim_jobs(p_runner text, p_limit integer) to anon;
        create index contacts_phone_idx on public.contacts (phone);`);
      const found = differences(before, await catalogueFacts(fromFiles.db));
      expect(found).toEqual([
        expect.stringMatching(/^column public\.contacts\.phone: the migrations make .* null; the schema files make .* null default 'none'::text$/),
        expect.stringMatching(/^function public\.claim_jobs\(p_runner text, p_limit integer\): the migrations make .*; the schema files make .*anon:execute/),
        expect.stringMatching(/^index public\.contacts_phone_idx: only the schema files make it/),
        expect.stringMatching(/^policy public\.contacts business writers add contacts: only the migrations make it/),
      ]);
    });
  });
}
