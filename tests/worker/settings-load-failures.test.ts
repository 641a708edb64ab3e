// A settings screen whose read fails says so with the product's text ('Failed
// to fetch …') instead of an error page. The read is broken for real, and for
// one fresh account only: a restrictive policy that raises for its rows (a
// division by zero, evaluated per row), so other tests running meanwhile see
// nothing of it.
import { describe, expect, it } from 'vitest';
import { tokenHash } from '../../supabase/functions/_shared/token';
import { runSql, serviceClient } from './support/backend';
import { pageText } from './support/app';
import { freshTeam } from './support/settings';

async function withBrokenRead<T>(table: string, accountColumn: string, accountId: string, run: () => Promise<T>): Promise<T> {
  const policy = `test: reads of ${accountId} fail`;
  // random() keeps the planner from folding the division away.
  await runSql(
    `create policy "${policy}" on public.${table} as restrictive for select to authenticated
       using (${accountColumn} <> '${accountId}'::uuid or (1 / (random() * 0)::int) = 1)`,
  );
  try {
    return await run();
  } finally {
    await runSql(`drop policy "${policy}" on public.${table}`);
  }
}

/** The policy fails only on rows it reads: give the account one. */
async function withRowIn(table: string, accountId: string): Promise<void> {
  const service = serviceClient();
  if (table === 'templates') await service.from('templates').insert({ account_id: accountId, name: 'T', type: 'email', content: 'x' });
  if (table === 'integrations') await service.from('integrations').insert({ account_id: accountId, name: 'I', type: 'crm', config: {} });
  if (table === 'user_invitations') {
    await service.from('user_invitations').insert({
      account_id: accountId,
      email: `pending-${crypto.randomUUID()}@example.test`,
      token_hash: await tokenHash(crypto.randomUUID()),
    });
  }
  if (table === 'account_modules') {
    const { data } = await service.from('modules').select('id').limit(1).single();
    await service.from('account_modules').insert({ account_id: accountId, module_id: data!.id, status: 'active' });
  }
}

describe('settings screens when their read fails', () => {
  for (const [path, table, text] of [
    ['/settings/templates', 'templates', 'Failed to fetch templates'],
    ['/settings/integrations', 'integrations', 'Failed to fetch integrations'],
    ['/settings/modules', 'account_modules', 'Failed to fetch modules'],
    ['/settings/account', 'accounts', 'Failed to fetch account details'],
    ['/settings/audit-logs', 'audit_logs', 'Failed to fetch audit logs'],
    // The users row itself must stay readable (every page needs it): break the invitations beside it.
    ['/settings/users', 'user_invitations', 'Failed to fetch users'],
  ] as const) {
    it(`${path} shows '${text}' and recovers once the read works`, async () => {
      const team = await freshTeam();
      await withRowIn(table, team.accountId);
      const column = table === 'accounts' ? 'id' : 'account_id';
      const broken = await withBrokenRead(table, column, team.accountId, () => team.admin.visitor.get(path));
      expect(broken.status).toBe(200);
      expect(await pageText(broken)).toContain(text);
      expect(await pageText(await team.admin.visitor.get(path))).not.toContain(text);
    });
  }
});
