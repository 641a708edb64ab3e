// A database made before issue 15's fixes: the migrations move the secrets it
// holds out of the readable config, and correct the audit rows that recorded
// them (the old redaction missed smtp_pass and nested keys) or copied a huge
// value, on both databases.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { DEFAULT_MIGRATIONS_DIR, listMigrations, migrate } from '../../supabase/local/migrate.ts';
import { createPglite, createPostgres, insertAuthUser, one, postgresUrl, type TestDatabase } from './support/sql-db.ts';

const FIRST_FIX = '20261124300001';

const targets = [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`moving existing secrets on ${target.name}`, () => {
    let handle: TestDatabase;
    let db: Db;
    let before: string;

    beforeAll(async () => {
      handle = await target.create();
      db = handle.db;
      // The schema as it was before the move.
      before = mkdtempSync(join(tmpdir(), 'migrations-before-'));
      for (const m of listMigrations(DEFAULT_MIGRATIONS_DIR).filter((m) => m.version < FIRST_FIX)) {
        copyFileSync(m.file, join(before, `${m.version}_${m.name}.sql`));
      }
      await migrate(db, { migrationsDir: before, seed: false });
    });
    afterAll(async () => {
      rmSync(before, { recursive: true, force: true });
      await handle?.drop();
    });

    it('blanks the secrets in the config, keeps the rest, stores them for the service role, and scrubs the log', async () => {
      await insertAuthUser(db, 'owner@migrate.test');
      await db.query(
        `insert into public.leads (account_id, name, email, company, notes)
         select account_id, 'Long', 'long@migrate.test', 'Long Co', repeat('n', 100000) from public.users where email = 'owner@migrate.test'`,
      );
      const { id } = await one<{ id: string }>(
        db,
        `insert into public.integrations (account_id, name, type, config)
         select account_id, 'Mailer', 'email', $1::jsonb from public.users where email = 'owner@migrate.test'
         returning id`,
        [JSON.stringify({ smtp_host: 'smtp.test', smtp_pass: 'old-pass', nested: { api_key: 'sk_old' }, smtp_port: 587 })],
      );

      await migrate(db, { seed: false });

      expect(await one(db, 'select config, secrets_set from public.integrations where id = $1', [id])).toEqual({
        config: { smtp_host: 'smtp.test', smtp_pass: '', nested: { api_key: '' }, smtp_port: 587 },
        secrets_set: { smtp_pass: true, nested: { api_key: true } },
      });
      expect(await one(db, 'select public.integration_credentials($1) as config', [id])).toEqual({
        config: { smtp_host: 'smtp.test', smtp_pass: 'old-pass', nested: { api_key: 'sk_old' }, smtp_port: 587 },
      });
      const audit = await one<{ text: string }>(db, `select string_agg(coalesce(old_values::text, '') || new_values::text, ' ') as text from public.audit_logs where resource_id = $1`, [id]);
      expect(audit.text).not.toContain('old-pass');
      expect(audit.text).not.toContain('sk_old');
      expect(audit.text).toContain('"smtp_pass": "[redacted]"');
      const lead = await one<{ notes: unknown }>(db, `select new_values -> 'notes' as notes from public.audit_logs where action = 'lead_created'`);
      expect(lead.notes).toMatchObject({ truncated: true, length: 100000 });
    });
  });
}
