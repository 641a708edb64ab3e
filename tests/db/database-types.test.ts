// app/lib/database.types.ts is what `npm run db:types` makes of the migrations
// today: a migration that changes the schema without regenerating it fails here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { allowedValues, generateDatabaseTypes } from '../../supabase/local/typegen.ts';
import type { Backend } from '../../supabase/local/index.ts';

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend({ seed: false });
});
afterAll(async () => backend?.stop());

describe('generated database types', () => {
  it('are up to date with the migrations (npm run db:types)', async () => {
    const checkedIn = readFileSync(new URL('../../app/lib/database.types.ts', import.meta.url), 'utf8');
    expect(await generateDatabaseTypes(backend.db), 'app/lib/database.types.ts is stale: run npm run db:types').toBe(checkedIn);
  });

  it('type a table, its insert defaults, its relationships and a function', async () => {
    const types = await generateDatabaseTypes(backend.db);
    expect(types).toMatch(/ {6}leads: \{\n {8}Row: \{[^}]*\n {10}email: string\n[^}]*phone_whatsapp: string \| null\n/);
    expect(types).toMatch(/ {8}Insert: \{[^}]*\n {10}id\?: string\n/);
    expect(types).toContain('foreignKeyName: "leads_account_id_fkey"');
    expect(types).toMatch(/create_quote:\n {8}\{ Args: \{ p_company: string; /);
  });

  it('read the allowed values of a check constraint as Postgres prints it', async () => {
    const { rows } = await backend.db.query<{ def: string }>(
      `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'public.leads'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%status%'`,
    );
    expect(rows.map((r) => allowedValues(r.def))).toContainEqual(['status', ['new', 'qualified', 'contacted', 'lost']]);
    expect(allowedValues("CHECK ((length(btrim(name)) > 0))")).toBeNull();
  });
});
