// The demo account's "Company SMTP" integration (supabase/seed.sql) sends
// through the SMTP listener of the backend it lives in. The seed writes the
// default port (54325); a backend whose listener is elsewhere (SMTP_PORT, a
// test's free port) points the integration at its own port when it starts.
// Otherwise quote mails with live signing links went to whatever listened on
// 54325: another instance on the same machine (issue 30).
//
// Only the seeded integration as the seed made it (the demo account's
// 'Company SMTP', host 127.0.0.1) is touched: one that someone pointed at
// another host is theirs. The change goes through the table's triggers like
// any other write (secrets kept, an integration_updated audit row), and only
// when the port differs.
import type { Db } from './db.ts';

export const DEMO_SMTP_INTEGRATION = 'Company SMTP';
export const DEMO_ADMIN_EMAIL = 'demo@opshub.test';

const DEMO_ROW = `i.name = $1 and i.type = 'email' and i.config ->> 'smtp_host' = '127.0.0.1'
  and i.account_id = (select u.account_id from public.users u where u.email = $2)`;

/**
 * Points the demo integration at `port`. Should that write be refused (a rule
 * on integrations this code does not know), the integration is switched off
 * rather than left sending to another listener, and the reason is returned.
 * Returns 'pointed', 'unchanged' (already there, or no such integration), or
 * the refusal's message after switching it off.
 */
export async function pointDemoSmtpAt(db: Db, port: number): Promise<'pointed' | 'unchanged' | { deactivated: string }> {
  try {
    return (await setPort(db, port)) ? 'pointed' : 'unchanged';
  } catch (error) {
    await db.query(`update public.integrations i set is_active = false where ${DEMO_ROW} and i.is_active`, [DEMO_SMTP_INTEGRATION, DEMO_ADMIN_EMAIL]);
    return { deactivated: (error as Error).message };
  }
}

async function setPort(db: Db, port: number): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    `select to_regclass('public.integrations') is not null and to_regclass('public.users') is not null as present`,
  );
  if (!rows[0]?.present) return false; // a fixture schema without the app's tables
  const updated = await db.query(
    `update public.integrations i
        set config = jsonb_set(i.config, '{smtp_port}', to_jsonb($3::int))
      where ${DEMO_ROW} and i.config ->> 'smtp_port' is distinct from $3::text
      returning i.id`,
    [DEMO_SMTP_INTEGRATION, DEMO_ADMIN_EMAIL, port],
  );
  return updated.rows.length > 0;
}
