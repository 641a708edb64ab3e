import { describe, expect, it } from 'vitest';
import { serviceClient } from './support/backend';
import { pageText, signIn } from './support/app';
import { freshTeam, toastIn } from './support/settings';
import { DEMO_ADMIN, DEMO_NORTHWIND_ADMIN } from '../support/accounts';

async function accountRow(id: string) {
  const { data, error } = await serviceClient()
    .from('accounts')
    .select('name, billing_email, default_currency, timezone, country, subscription_status, trial_ends_at')
    .eq('id', id)
    .single();
  if (error) throw error;
  return data;
}

const VALID = {
  intent: 'save',
  name: 'Renamed Ltd',
  billing_email: 'billing@renamed.test',
  default_currency: 'CAD',
  timezone: 'America/Chicago',
  country: 'Canada',
};

describe('/settings/account loader', () => {
  it("shows the own account's details with the product guide's account lists, to admins and auditors", async () => {
    const team = await freshTeam();
    await serviceClient().from('accounts').update({ name: 'Team Account', billing_email: 'pay@team.test', country: 'Norway' }).eq('id', team.accountId);
    for (const visitor of [team.admin.visitor, team.auditor.visitor]) {
      const response = await visitor.get('/settings/account');
      expect(response.status).toBe(200);
      const html = await pageText(response);
      expect(html).toContain('value="Team Account"');
      expect(html).toContain('value="pay@team.test"');
      expect(html).toContain('value="Norway"');
      for (const [value, label] of [
        ['UTC', 'UTC'],
        ['America/New_York', 'New York'],
        ['America/Chicago', 'Chicago'],
        ['America/Denver', 'Denver'],
        ['America/Los_Angeles', 'Los Angeles'],
        ['Europe/London', 'London'],
        ['Europe/Paris', 'Paris'],
        ['Asia/Tokyo', 'Tokyo'],
      ]) {
        expect(html).toMatch(new RegExp(`<option value="${value}"[^>]*>${label}</option>`));
      }
      // The product's one list (decision 046), as quotes and invoices take it.
      for (const currency of ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'JPY', 'AED', 'INR', 'PLN']) expect(html).toContain(`<option value="${currency}"`);
    }
    const adminPage = await pageText(await team.admin.visitor.get('/settings/account'));
    expect(adminPage).toContain('Save Changes');
    const auditorPage = await pageText(await team.auditor.visitor.get('/settings/account'));
    expect(auditorPage).not.toContain('Save Changes');
    expect(auditorPage).toContain('Only administrators can change the account settings.');
  });

  it('shows a trial account its trial end date and an upgrade prompt', async () => {
    const html = await pageText(await (await signIn(DEMO_NORTHWIND_ADMIN)).get('/settings/account'));
    expect(html).toContain('value="Northwind Traders"');
    expect(html).toContain('data-status="trial"');
    expect(html).toMatch(/Your free trial ends on <time dateTime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}<\/time>/);
    expect(html).toMatch(/href="\/settings\/modules"[^>]*>Upgrade Now</);
  });

  it('shows an active account no trial prompt', async () => {
    const html = await pageText(await (await signIn(DEMO_ADMIN)).get('/settings/account'));
    expect(html).toContain('data-status="active"');
    expect(html).not.toContain('Upgrade Now');
  });
});

describe('saving the account settings', () => {
  it('shows a flash toast once, from its own cookie only', async () => {
    const team = await freshTeam();
    const visitor = team.admin.visitor;
    const saved = await visitor.post('/settings/account', VALID);
    const toastCookie = visitor.value('toast-session');
    expect(toastCookie).toBeTruthy();
    // A cookie whose name merely ends in the toast's is not the toast.
    visitor.set('toast-session', undefined);
    visitor.set('xtoast-session', toastCookie);
    expect(toastIn(await pageText(await visitor.follow(saved)))).toBeNull();
    visitor.set('xtoast-session', undefined);
    visitor.set('toast-session', toastCookie);
    const shown = await visitor.follow(saved);
    expect(toastIn(await pageText(shown))).toContain('Account settings updated successfully');
    // Read once, and the cookie deleted rather than left behind empty.
    expect(visitor.has('toast-session')).toBe(false);
    const next = await visitor.get('/settings/account');
    expect(toastIn(await pageText(next))).toBeNull();
    expect(next.headers.getSetCookie()).toEqual([]);
  });

  it("saves name, billing email, currency, timezone and country, with the spec toast", async () => {
    const team = await freshTeam();
    const response = await team.admin.visitor.post('/settings/account', VALID);
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/settings/account');
    const page = await pageText(await team.admin.visitor.follow(response));
    expect(toastIn(page)).toContain('Account settings updated successfully');
    expect(page).toContain('value="Renamed Ltd"');
    expect(await accountRow(team.accountId)).toMatchObject({
      name: 'Renamed Ltd',
      billing_email: 'billing@renamed.test',
      default_currency: 'CAD',
      timezone: 'America/Chicago',
      country: 'Canada',
    });
  });

  it('requires a name and a valid email, keeping what was typed', async () => {
    const team = await freshTeam();
    const before = await accountRow(team.accountId);
    const response = await team.admin.visitor.post('/settings/account', { ...VALID, name: '  ', billing_email: 'not-an-email', country: 'Kept Land' });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Account name is required');
    expect(html).toContain('Enter a valid email address');
    expect(html).toContain('value="not-an-email"');
    expect(html).toContain('value="Kept Land"');
    expect(await accountRow(team.accountId)).toEqual(before);
  });

  it('refuses a non-admin posting directly: a 403 for an auditor, its home for a client or supplier', async () => {
    const team = await freshTeam();
    const before = await accountRow(team.accountId);
    const response = await team.auditor.visitor.post('/settings/account', VALID);
    expect(response.status).toBe(403);
    expect(toastIn(await pageText(response))).toContain('Only administrators can manage account settings');
    for (const visitor of [team.supplier.visitor, team.client.visitor]) {
      const outsider = await visitor.post('/settings/account', VALID);
      expect(outsider.status).toBe(302);
      expect(outsider.headers.get('Location')).toBe('/quotes');
    }
    expect(await accountRow(team.accountId)).toEqual(before);
  });
});
