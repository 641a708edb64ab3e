import { describe, expect, it } from 'vitest';
import { serviceClient } from './support/backend';
import { pageText, signIn } from './support/app';
import { freshTeam, joinAs, profileOf } from './support/settings';
import { DEMO_AUDITOR } from '../support/accounts';

/** A team whose log holds an invitation, a role change, a deactivation and a template, made through the screens. */
async function teamWithHistory() {
  const team = await freshTeam();
  const client = await profileOf(team.client.email);
  const supplier = await profileOf(team.supplier.email);
  const admin = team.admin.visitor;
  expect((await admin.post('/settings/users', { intent: 'update', id: client.id, role: 'auditor' })).status).toBe(302);
  expect((await admin.post('/settings/users', { intent: 'set-active', id: supplier.id, active: 'false' })).status).toBe(302);
  expect(
    (await admin.post('/settings/templates', { intent: 'save', name: 'Logged', type: 'quote', content: 'Body' })).status,
  ).toBe(302);
  return { team, client, supplier };
}

/** The audit entries on a page (the table's rows), in order: [action, badge classes, text with single spaces]. */
function entriesIn(html: string): { action: string; classes: string; text: string }[] {
  const list = html.slice(html.indexOf('>Audit entries</caption>'));
  return [...list.matchAll(/<tr class="[^"]*" data-row="[^"]+">([\s\S]*?)<\/tr>/g)].map(([, item]) => {
    const badge = /<span class="([^"]*)" data-action="([^"]+)">/.exec(item);
    const text = item.replace(/<[^>]+>/g, ' ').replaceAll('&gt;', '>').replace(/\s+/g, ' ');
    return { action: badge?.[2] ?? '', classes: badge?.[1] ?? '', text };
  });
}

describe('/settings/audit-logs access', () => {
  it('shows auditors the log and its CSV, as admins see them', async () => {
    const team = await freshTeam();
    // Filtered to the one action both accounts have: the demo account's first page
    // fills with whatever other test files did there.
    for (const visitor of [await signIn(DEMO_AUDITOR), team.auditor.visitor]) {
      const html = await pageText(await visitor.get('/settings/audit-logs?action=invitation_accepted'));
      expect(html).not.toContain('Access Restricted');
      expect(html).toContain('>Audit entries</caption>');
      expect(html).toContain('data-action="invitation_accepted"');
      const csv = await visitor.get('/settings/audit-logs.csv?action=invitation_accepted');
      expect(csv.status).toBe(200);
      expect(await csv.text()).toContain('invitation_accepted');
    }
  });

  it("shows 'Only administrators can view audit logs' to members, and refuses the CSV to members and outsiders", async () => {
    const team = await freshTeam();
    const member = await joinAs(team.accountId, 'member');
    const html = await pageText(await member.visitor.get('/settings/audit-logs'));
    expect(html).toContain('Access Restricted');
    expect(html).toContain('Only administrators can view audit logs');
    expect(html).not.toContain('aria-label="Audit entries"');
    for (const visitor of [member.visitor, team.supplier.visitor, team.client.visitor]) {
      const csv = await visitor.get('/settings/audit-logs.csv');
      expect(csv.status).toBe(403);
      expect(await csv.text()).toBe('Only administrators can view audit logs');
    }
  });
});

describe('/settings/audit-logs list', () => {
  it('shows the entries newest first with the acting user, title-cased actions in the spec colours, each record by name and its changes before → after', async () => {
    const { team, client } = await teamWithHistory();
    const html = await pageText(await team.admin.visitor.get('/settings/audit-logs'));
    const entries = entriesIn(html);
    const actions = entries.map((entry) => entry.action);
    expect(actions.slice(0, 3)).toEqual(['template_created', 'user_deactivated', 'user_role_updated']);
    expect(actions.filter((a) => a === 'user_invited')).toHaveLength(3);
    expect(actions.filter((a) => a === 'invitation_accepted')).toHaveLength(3);

    const byAction = (action: string) => entries.find((entry) => entry.action === action)!;
    expect(byAction('user_invited').classes).toContain('bg-green-100');
    expect(byAction('invitation_accepted').classes).toContain('bg-green-100');
    expect(byAction('user_role_updated').classes).toContain('bg-blue-100');
    expect(byAction('user_deactivated').classes).toContain('bg-red-100');
    expect(byAction('template_created').classes).toContain('border-border');
    expect(html).toContain('>User Role Updated<');
    expect(html).toContain('>Invitation Accepted<');

    const roleChange = byAction('user_role_updated');
    expect(roleChange.text).toContain('Test Admin');
    expect(roleChange.text).toContain(team.admin.email);
    // The record by kind and name, the change as before → after per field (the unchanged email left out).
    expect(roleChange.text).toMatch(/ user \S/);
    expect(roleChange.text).not.toContain(client.id);
    expect(roleChange.text).toContain(' role : client → auditor ');
    expect(roleChange.text).not.toContain('email :');
    expect(byAction('template_created').text).toContain(' template Logged ');
    expect(byAction('template_created').text).toContain(' content : — → Body ');
  });

  it('searches by action, resource type or user name, and filters by action, through the URL', async () => {
    const { team } = await teamWithHistory();
    const visitor = team.admin.visitor;
    const byRole = entriesIn(await pageText(await visitor.get('/settings/audit-logs?q=role')));
    expect(byRole.map((e) => e.action)).toEqual(['user_role_updated']);
    const byTitleCase = entriesIn(await pageText(await visitor.get('/settings/audit-logs?q=User+Deactivated')));
    expect(byTitleCase.map((e) => e.action)).toEqual(['user_deactivated']);
    const byResource = entriesIn(await pageText(await visitor.get('/settings/audit-logs?q=template')));
    expect(byResource.map((e) => e.action)).toEqual(['template_created']);
    const byUser = entriesIn(await pageText(await visitor.get('/settings/audit-logs?q=test+admin')));
    expect(byUser.map((e) => e.action)).toEqual(['template_created', 'user_deactivated', 'user_role_updated']);

    const page = await pageText(await visitor.get('/settings/audit-logs?action=user_invited'));
    expect(entriesIn(page).map((e) => e.action)).toEqual(['user_invited', 'user_invited', 'user_invited']);
    expect(page).toMatch(/<option value="user_invited" selected="">User Invited<\/option>/);
    expect(page).toContain('href="/settings/audit-logs.csv?action=user_invited"');

    const none = await pageText(await visitor.get('/settings/audit-logs?q=%25%25nothing-like-this'));
    expect(none).toContain('No entries match your search');
  });

  it("never shows another account's entries", async () => {
    const { team } = await teamWithHistory();
    const other = await freshTeam();
    const html = await pageText(await other.admin.visitor.get('/settings/audit-logs'));
    expect(entriesIn(html).map((e) => e.action)).not.toContain('user_role_updated');
    expect(html).not.toContain(team.client.email);
  });

  it('shows 50 entries a page and pages beyond the latest 100, keeping the search', async () => {
    const team = await freshTeam();
    const rows = Array.from({ length: 110 }, (_, i) => ({ account_id: team.accountId, name: `T${i}`, type: 'email', content: 'x' }));
    expect((await serviceClient().from('templates').insert(rows)).error).toBeNull();
    const visitor = team.admin.visitor;
    const first = await pageText(await visitor.get('/settings/audit-logs?q=template'));
    expect(entriesIn(first)).toHaveLength(50);
    expect(first).toContain('Showing 1–50 entries');
    expect(first).toContain('href="/settings/audit-logs?q=template&amp;page=2"');
    const third = await pageText(await visitor.get('/settings/audit-logs?q=template&page=3'));
    expect(entriesIn(third)).toHaveLength(10);
    expect(third).toContain('Showing 101–110 entries');
    expect(third).toContain('href="/settings/audit-logs?q=template&amp;page=2"');
    expect(third).not.toContain('page=4');
    // Every template appears once across the pages.
    const second = await pageText(await visitor.get('/settings/audit-logs?q=template&page=2'));
    const names = [first, second, third].flatMap(entriesIn).map((entry) => / template (T\d+) /.exec(entry.text)?.[1]);
    expect(new Set(names).size).toBe(110);
    expect(await pageText(await visitor.get('/settings/audit-logs?page=40'))).toContain('No more entries');
  });
});

describe('/settings/audit-logs.csv', () => {
  it('exports the filtered entries as CSV, with names, emails and values', async () => {
    const { team, client } = await teamWithHistory();
    const response = await team.admin.visitor.get('/settings/audit-logs.csv?q=role');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="audit-logs-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('created_at,action,resource_type,resource_id,user_name,user_email,ip_address,user_agent,old_values,new_values');
    expect(lines).toHaveLength(2);
    const row = lines[1];
    expect(row).toContain(',user_role_updated,user,');
    expect(row).toContain(client.id);
    expect(row).toContain(`,Test Admin,${team.admin.email},`);
    expect(row).toContain(`"{""role"":""client"",""email"":""${team.client.email}""}"`);
    expect(row).toContain(`"{""role"":""auditor"",""email"":""${team.client.email}""}"`);

    const all = (await (await team.admin.visitor.get('/settings/audit-logs.csv')).text()).trimEnd().split('\r\n');
    const page = entriesIn(await pageText(await team.admin.visitor.get('/settings/audit-logs')));
    expect(all).toHaveLength(page.length + 1);
  });
});
