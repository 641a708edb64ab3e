// The database as people live in it: kept on disk and started again, as every
// second `npm start` does. The bootstrap once ran on each start and its
// "grant all ... to anon, authenticated" undid every revoke of the migrations:
// the anon key alone could take the jobs queue, issue a quote's signing link
// and read any account's SMTP password, and no test saw it, because every test
// started from a fresh snapshot (decision 038).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  addMember, anonClient, quoteArgs, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';
import { ROLES } from '../support/accounts.ts';

/** Schemas whose privileges are the project's (the platform's and the migrations'), not PostgreSQL's own. */
const OWN_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;

/** Every privilege the catalogue records, as sorted text lines: functions, relations, columns, schemas, default privileges. */
async function privileges(backend: TestBackend): Promise<string[]> {
  const sorted = (acl: string) => `coalesce(array(select unnest(${acl})::text order by 1)::text, 'default')`;
  const { rows } = await backend.db.query<{ line: string }>(`
    select 'function ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || ${sorted('p.proacl')} as line
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${OWN_SCHEMAS}
    union all
    select 'relation ' || n.nspname || '.' || c.relname || ' ' || ${sorted('c.relacl')}
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${OWN_SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
    union all
    select 'column ' || n.nspname || '.' || c.relname || '.' || a.attname || ' ' || ${sorted('a.attacl')}
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     where ${OWN_SCHEMAS} and a.attnum > 0 and not a.attisdropped and a.attacl is not null
    union all
    select 'schema ' || n.nspname || ' ' || ${sorted('n.nspacl')} from pg_namespace n where ${OWN_SCHEMAS}
    union all
    select 'default ' || coalesce(n.nspname, '*') || ' ' || d.defaclobjtype::text || ' ' || ${sorted('d.defaclacl')}
      from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace
    order by 1`);
  return rows.map((r) => r.line);
}

/** The functions of schema public that neither API role may execute: the service's own. */
async function serviceOnlyFunctions(backend: TestBackend): Promise<{ name: string; args: string[] }[]> {
  const { rows } = await backend.db.query<{ name: string; args: string[] | null }>(`
    select p.proname as name, array(select unnest(p.proargnames[1:p.pronargs])) as args
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.prokind = 'f'
       and not has_function_privilege('anon', p.oid, 'execute')
       and not has_function_privilege('authenticated', p.oid, 'execute')
     order by 1`);
  return rows.map((r) => ({ name: r.name, args: r.args ?? [] }));
}

const targets = [
  { name: 'PGlite', on: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`a restart on kept data on ${target.name}`, () => {
    let fresh: TestBackend;
    let restarted: TestBackend;
    let serviceOnly: { name: string; args: string[] }[];

    beforeAll(async () => {
      [fresh, restarted] = await Promise.all([
        startBackend({ on: target.on }),
        startBackend({ on: target.on, restarted: true }),
      ]);
      serviceOnly = await serviceOnlyFunctions(fresh);
    });
    afterAll(async () => {
      await Promise.all([fresh?.stop(), restarted?.stop()]);
    });

    it('leaves every privilege of the catalogue as a fresh migrate leaves it', async () => {
      const before = await privileges(fresh);
      const after = await privileges(restarted);
      expect(before.length).toBeGreaterThan(100);
      expect(after.filter((line) => !before.includes(line)), 'privileges a restart added or changed').toEqual([]);
      expect(before.filter((line) => !after.includes(line)), 'privileges a restart removed').toEqual([]);
    });

    describe('after the restart, the service-only functions answer no API caller', () => {
      const callers: Record<string, SupabaseClient> = {};

      beforeAll(async () => {
        callers.anon = anonClient(restarted);
        const admin = await signUpFreshAdmin(restarted, 'restart-admin');
        callers.admin = admin.client;
        for (const role of ROLES.filter((r) => r !== 'admin')) callers[role] = (await addMember(restarted, admin, role, `restart-${role}`)).client;
        callers['another account'] = (await signUpFreshAdmin(restarted, 'restart-other')).client;
      });

      it('knows the functions that must stay the service\'s', () => {
        const names = serviceOnly.map((f) => f.name);
        for (const name of ['claim_jobs', 'enqueue_job', 'finish_job', 'integration_credentials', 'issue_quote_link']) expect(names).toContain(name);
      });

      it('refuses each of them to anon, every role of the account and another account', async () => {
        const answered: string[] = [];
        for (const fn of serviceOnly) {
          // Every argument named (null), so the call reaches the function rather than failing to resolve it.
          const args = Object.fromEntries(fn.args.map((arg) => [arg, null]));
          for (const [caller, client] of Object.entries(callers)) {
            const { error } = await client.rpc(fn.name, args);
            if (error?.code !== '42501') answered.push(`${fn.name} as ${caller}: ${error ? `${error.code} ${error.message}` : 'ran'}`);
          }
        }
        expect(answered).toEqual([]);
      });
    });

    it('keeps a member from writing a quote\'s signing columns', async () => {
      const admin: Member = await signUpFreshAdmin(restarted, 'restart-quotes');
      const member = await addMember(restarted, admin, 'member', 'restart-quote-member');
      const quote = await admin.client.rpc('create_quote', quoteArgs(1000, 1)).single<{ id: string }>();
      if (quote.error) throw quote.error;
      const { data, error } = await member.client
        .from('quotes').update({ status: 'signed', signer_name: 'Anyone' }).eq('id', quote.data.id).select('id');
      expect(error?.code ?? (data?.length === 0 ? 'no rows' : 'updated')).not.toBe('updated');
      const { rows } = await restarted.db.query<{ status: string }>('select status from public.quotes where id = $1', [quote.data.id]);
      expect(rows[0].status).toBe('draft');
    });
  });
}
