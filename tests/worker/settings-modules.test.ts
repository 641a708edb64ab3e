import { describe, expect, it } from 'vitest';
import { serviceClient } from './support/backend';
import { pageText, signIn } from './support/app';
import { freshTeam, toastIn } from './support/settings';
import { DEMO_ADMIN } from '../support/accounts';

async function catalogue(): Promise<{ id: string; key: string; name: string }[]> {
  const { data, error } = await serviceClient().from('modules').select('id, key, name').order('sort_order');
  if (error) throw error;
  return data;
}

async function statusOf(accountId: string, moduleId: string): Promise<string | null> {
  const { data, error } = await serviceClient()
    .from('account_modules')
    .select('status')
    .eq('account_id', accountId)
    .eq('module_id', moduleId)
    .maybeSingle();
  if (error) throw error;
  return (data?.status as string | undefined) ?? null;
}

async function subscribe(accountId: string, moduleId: string, status: string): Promise<void> {
  const { error } = await serviceClient().from('account_modules').insert({ account_id: accountId, module_id: moduleId, status });
  if (error) throw error;
}

describe('/settings/modules loader', () => {
  it("lists the whole catalogue with the account's own status, to admins and (without buttons) auditors", async () => {
    const team = await freshTeam();
    const modules = await catalogue();
    expect(modules).toHaveLength(6);
    await subscribe(team.accountId, modules[0].id, 'active');
    await subscribe(team.accountId, modules[1].id, 'trial');
    for (const visitor of [team.admin.visitor, team.auditor.visitor]) {
      const response = await visitor.get('/settings/modules');
      expect(response.status).toBe(200);
      const html = await pageText(response);
      for (const module of modules) expect(html).toContain(module.name);
      // Activating and pausing (billing) is the admin's alone.
      const buttons = visitor === team.admin.visitor;
      expect(html.includes(`aria-label="Pause ${modules[0].name}"`)).toBe(buttons);
      expect(html.includes(`aria-label="Activate ${modules[1].name}"`)).toBe(buttons);
      expect(html.includes(`aria-label="Activate ${modules[2].name}"`)).toBe(buttons);
      expect(html).toMatch(/data-status="active"/);
      expect(html).toMatch(/data-status="trial"/);
      expect(html).toContain('Not subscribed');
    }
  });

  it("shows the demo account's statuses, not another account's", async () => {
    const html = await pageText(await (await signIn(DEMO_ADMIN)).get('/settings/modules'));
    const modules = await catalogue();
    const name = (key: string) => modules.find((m) => m.key === key)?.name;
    expect(html).toContain(`aria-label="Pause ${name('cpq')}"`);
    expect(html).toContain(`aria-label="Pause ${name('logistics')}"`);
    expect(html).toContain(`aria-label="Activate ${name('helpdesk')}"`);
  });
});

describe('toggling a module', () => {
  it('moves active to paused and anything else to active, with the spec toasts', async () => {
    const team = await freshTeam();
    const [first, second, third] = await catalogue();
    await subscribe(team.accountId, first.id, 'active');
    await subscribe(team.accountId, second.id, 'cancelled');
    const visitor = team.admin.visitor;

    const paused = await visitor.post('/settings/modules', { intent: 'toggle', module_id: first.id, status: 'paused' });
    expect(paused.status).toBe(302);
    expect(paused.headers.get('Location')).toBe('/settings/modules');
    expect(toastIn(await pageText(await visitor.follow(paused)))).toContain('Module paused successfully');
    expect(await statusOf(team.accountId, first.id)).toBe('paused');

    const reactivated = await visitor.post('/settings/modules', { intent: 'toggle', module_id: first.id, status: 'active' });
    expect(toastIn(await pageText(await visitor.follow(reactivated)))).toContain('Module activated successfully');
    expect(await statusOf(team.accountId, first.id)).toBe('active');

    const fromCancelled = await visitor.post('/settings/modules', { intent: 'toggle', module_id: second.id, status: 'active' });
    expect(toastIn(await pageText(await visitor.follow(fromCancelled)))).toContain('Module activated successfully');
    expect(await statusOf(team.accountId, second.id)).toBe('active');

    // Not subscribed yet: activating starts the subscription.
    const subscribed = await visitor.post('/settings/modules', { intent: 'toggle', module_id: third.id, status: 'active' });
    expect(subscribed.status).toBe(302);
    expect(await statusOf(team.accountId, third.id)).toBe('active');
  });

  it("answers a bad request with 'Failed to update module status' and changes nothing", async () => {
    const team = await freshTeam();
    const [first] = await catalogue();
    await subscribe(team.accountId, first.id, 'active');
    for (const fields of [
      { intent: 'toggle', module_id: first.id, status: 'cancelled' },
      { intent: 'toggle', module_id: 'not-a-uuid', status: 'paused' },
      { intent: 'toggle', module_id: crypto.randomUUID(), status: 'active' },
    ]) {
      const response = await team.admin.visitor.post('/settings/modules', fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(toastIn(await pageText(response))).toContain('Failed to update module status');
    }
    expect(await statusOf(team.accountId, first.id)).toBe('active');
  });

  it("never touches another account's subscription", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const [first] = await catalogue();
    await subscribe(other.accountId, first.id, 'active');
    const response = await team.admin.visitor.post('/settings/modules', { intent: 'toggle', module_id: first.id, status: 'paused' });
    expect(response.status).toBe(302);
    expect(await statusOf(other.accountId, first.id)).toBe('active');
    expect(await statusOf(team.accountId, first.id)).toBe('paused');
  });
});

describe('activating a module that costs money', () => {
  it('asks first, with its price, as a page of its own (no JavaScript needed); pausing does not ask', async () => {
    const team = await freshTeam();
    const [first, second] = await catalogue();
    await subscribe(team.accountId, first.id, 'active');
    const visitor = team.admin.visitor;
    const list = await pageText(await visitor.get('/settings/modules'));
    // Activate is a link to the confirmation; Pause posts at once.
    expect(list).toMatch(new RegExp(`<a[^>]*aria-label="Activate ${second.name}"[^>]*href="/settings/modules\\?activate=${second.id}"`));
    expect(list).toMatch(new RegExp(`<button[^>]*aria-label="Pause ${first.name}"`));

    const confirm = await visitor.get(`/settings/modules?activate=${second.id}`);
    expect(confirm.status).toBe(200);
    const html = await pageText(confirm);
    expect(html).toContain('Activate Module');
    expect(html).toContain(`Activate ${second.name} for $299.00/month, plus a one-time setup fee of $300.00?`);
    expect(html).toMatch(/<input type="hidden" name="status" value="active"\/>/);
    expect(await statusOf(team.accountId, second.id)).toBeNull();

    const activated = await visitor.post('/settings/modules', { intent: 'toggle', module_id: second.id, status: 'active' });
    expect(activated.status).toBe(302);
    expect(await statusOf(team.accountId, second.id)).toBe('active');
  });

  it('shows no confirmation to an auditor, nor for a module already active', async () => {
    const team = await freshTeam();
    const [first, second] = await catalogue();
    await subscribe(team.accountId, first.id, 'active');
    expect(await pageText(await team.auditor.visitor.get(`/settings/modules?activate=${second.id}`))).not.toContain('Activate Module');
    expect(await pageText(await team.admin.visitor.get(`/settings/modules?activate=${first.id}`))).not.toContain('Activate Module');
  });
});

