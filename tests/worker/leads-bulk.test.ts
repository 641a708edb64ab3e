// The Leads list's bulk "Mark lost" (issue 32, decision 053), posted without
// JavaScript as the list's form posts it: a writer marks the ticked leads of
// its own account lost; an auditor, a client and a supplier change nothing;
// another account's lead among the ids is left alone (row-level security);
// an altered selection is a clear 400, never a 500.
import { describe, expect, it } from 'vitest';
import { pageText, signUpFreshAdmin } from './support/app';
import { freshTeam } from './support/settings';
import { accountOf, serviceClient } from './support/backend';

async function addLeads(accountId: string, names: string[]): Promise<string[]> {
  const { data, error } = await serviceClient()
    .from('leads')
    .insert(names.map((name, i) => ({ account_id: accountId, name, email: `l${i}@bulk.test`, company: 'Bulk Co', status: 'new' })))
    .select('id');
  if (error) throw error;
  return data.map((row) => row.id);
}

async function statusesOf(ids: string[]): Promise<string[]> {
  const { data, error } = await serviceClient().from('leads').select('id, status').in('id', ids);
  if (error) throw error;
  return ids.map((id) => data.find((row) => row.id === id)?.status ?? 'gone');
}

function bulkForm(ids: string[], extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('intent', 'mark-lost');
  form.append('returnTo', '/leads?sort=name&dir=asc');
  for (const id of ids) form.append('ids', id);
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  return form;
}

describe('/leads bulk mark lost', () => {
  it('marks only the ticked leads of the writer’s own account; other roles and accounts change nothing', async () => {
    const team = await freshTeam();
    const other = await signUpFreshAdmin();
    const otherAccount = (await accountOf(other.email)).accountId;
    const [a, b, kept] = await addLeads(team.accountId, ['Ann Bulk', 'Ben Bulk', 'Kim Kept']);
    const [theirs] = await addLeads(otherAccount, ['Their Lead']);

    for (const reader of [team.auditor, team.client, team.supplier]) {
      const response = await reader.visitor.post('/leads', bulkForm([a, b]));
      expect(response.status).not.toBe(500);
      expect(await statusesOf([a, b])).toEqual(['new', 'new']);
    }

    const response = await team.admin.visitor.post('/leads', bulkForm([a, b, theirs]));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/leads?sort=name&dir=asc');
    expect(await statusesOf([a, b, kept, theirs])).toEqual(['lost', 'lost', 'new', 'new']);
    expect(await pageText(await team.admin.visitor.follow(response))).toContain('2 leads marked lost');
  });

  it('answers an empty or altered selection with a clear 400', async () => {
    const team = await freshTeam();
    const [a] = await addLeads(team.accountId, ['Ann Bulk']);
    for (const form of [bulkForm([]), bulkForm(['not-a-uuid']), bulkForm([a], { returnTo: 'https://evil.test/' }), bulkForm(Array.from({ length: 21 }, () => a))]) {
      const response = await team.admin.visitor.post('/leads', form);
      expect(response.status).toBe(400);
      await pageText(response);
    }
    expect(await statusesOf([a])).toEqual(['new']);
  });
});
