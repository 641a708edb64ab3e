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
import type { DbObject } from '../../scripts/db-schema/catalogue.ts';
import { catalogueFacts, differences } from '../../scripts/db-schema/compare.ts';
import { UNSORTED } from '../../scripts/db-schema/features.ts';
import { layout, readComments } from '../../scripts/db-schema/write.ts';
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

describe('npm run db:schema writing the files again', () => {
  const table: DbObject = {
    key: 'table public.notes', kind: 'table', relation: 'public.notes', name: 'public.notes', needs: [],
    sql: 'CREATE TABLE public.notes (\n  id uuid NOT NULL\n);',
  };
  const fn: DbObject = {
    key: 'function public.note_count()', kind: 'function', name: 'public.note_count', needs: ['table public.notes'],
    sql: "CREATE OR REPLACE FUNCTION public.note_count()\n RETURNS bigint\n LANGUAGE sql\nAS $function$\n  -- counted, not 'SELECTED'\n  SELECT count(*) FROM public.notes\n$function$;",
  };
  const current = [
    '-- What notes are.',
    '',
    'set check_function_bodies = false;',
    '',
    '-- ── public.notes ──',
    '',
    '-- Why a note has no text yet.',
    'create table public.notes (',
    '  id uuid not null',
    ');',
    '',
    'create or replace function public.note_count()',
    'as $function$',
    '  -- a comment of the body, not of a statement',
    '  select 1',
    '$function$;',
    '',
    '-- Said of a statement no longer made.',
    'create table public.gone (',
    ');',
  ].join('\n');

  it('keeps the file\'s opening comment and the comments above statements, and names those that lost theirs', () => {
    const kept = readComments([{ feature: UNSORTED, text: current }]);
    expect(kept.headers.get(UNSORTED)).toBe('-- What notes are.');
    expect([...kept.above.keys()]).toEqual(['create table public.notes (', 'create table public.gone (']);
    const { files, notes } = layout([fn, table], kept);
    expect(files).toHaveLength(1);
    expect(files[0].text).toContain('-- What notes are.\n\nset check_function_bodies = false;');
    expect(files[0].text).toContain('-- Why a note has no text yet.\ncreate table public.notes (');
    // Keywords in small letters, but not inside the body or a string.
    expect(files[0].text).toContain("$function$\n  -- counted, not 'SELECTED'\n  SELECT count(*) FROM public.notes\n$function$;");
    expect(files[0].text.indexOf('create table public.notes')).toBeLessThan(files[0].text.indexOf('create or replace function public.note_count()'));
    // What the person who ran it must look at: a table and a function no feature claims, an object moved, a comment orphaned.
    expect(notes).toEqual([
      'public.notes is in no feature of scripts/db-schema/features.ts: written to unsorted.sql',
      'function public.note_count() matches no feature\'s functions in scripts/db-schema/features.ts: written to foundations.sql',
      'function public.note_count(): written in unsorted.sql, not foundations.sql, after table public.notes',
      expect.stringContaining('a comment lost its statement (no longer made: "create table public.gone (")'),
    ]);
  });
});
