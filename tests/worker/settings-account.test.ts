import { describe, expect, it } from 'vitest';
import { serviceClient } from './support/backend';
import { pageText, signIn } from './support/app';
import { freshTeam, toastIn } from './support/settings';
import { DEMO_ADMIN, DEMO_NORTHWIND_ADMIN } from '../support/accounts';

async function accountRow(id: string) {
  const { data, error } = await serviceClient()
    .from('accounts')
    .select('name, billing_email, default_currency, timezone, country, subscription_status, trial_ends_at, address_line1, address_line2, postal_code, city, region, tax_id, company_registration, iban, bic, bank_details, payment_terms, accent_color')
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
  country: 'CA',
};

/** The seller details (decision 045), as typed: an IBAN in groups, a BIC in lower case, a colour in capitals. */
const SELLER = {
  address_line1: '200 Bay Street',
  address_line2: 'Suite 3',
  postal_code: 'M5J 2J2',
  city: 'Toronto',
  region: 'Ontario',
  tax_id: 'CA123456789RT0001',
  company_registration: 'BN 123456789',
  iban: 'de89 3704 0044 0532 0130 00',
  bic: 'cobadeffxxx',
  bank_details: 'Royal Bank\nTransit 00002',
  payment_terms: 'Net 30',
  accent_color: '#1A7F5A',
};

describe('/settings/account loader', () => {
  it("shows the own account's details with the product guide's account lists, to admins and auditors", async () => {
    const team = await freshTeam();
    await serviceClient().from('accounts').update({ name: 'Team Account', billing_email: 'pay@team.test', country: 'NO' }).eq('id', team.accountId);
    for (const visitor of [team.admin.visitor, team.auditor.visitor]) {
      const response = await visitor.get('/settings/account');
      expect(response.status).toBe(200);
      const html = await pageText(response);
      expect(html).toContain('value="Team Account"');
      expect(html).toContain('value="pay@team.test"');
      expect(html).toMatch(/<option value="NO" selected="">Norway<\/option>/);
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
      country: 'CA',
    });
  });

  it('saves the seller details, stored as the database keeps them, and shows them again', async () => {
    const team = await freshTeam();
    const response = await team.admin.visitor.post('/settings/account', { ...VALID, ...SELLER });
    expect(response.status).toBe(302);
    expect(await accountRow(team.accountId)).toMatchObject({
      ...SELLER,
      bank_details: 'Royal Bank\nTransit 00002',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      accent_color: '#1a7f5a',
    });
    const html = await pageText(await team.admin.visitor.get('/settings/account'));
    for (const value of ['200 Bay Street', 'CA123456789RT0001', 'DE89 3704 0044 0532 0130 00', 'COBADEFFXXX', '#1a7f5a']) {
      expect(html).toContain(`value="${value}"`);
    }
    expect(html).toMatch(/<option value="CA" selected="">Canada<\/option>/);
  });

  it('refuses a bad IBAN, BIC, colour, country or control character, saying which, keeping what was typed', async () => {
    const team = await freshTeam();
    const before = await accountRow(team.accountId);
    const response = await team.admin.visitor.post('/settings/account', {
      ...VALID, ...SELLER, iban: 'DE89 3704 0044 0532 0130 01', bic: 'COBA', accent_color: 'green', country: 'XX', city: 'Tor\u0007onto',
    });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    for (const message of ['Enter a valid IBAN', 'Enter a valid BIC', 'Enter a colour as #rrggbb', 'Choose a country', 'City cannot contain control characters']) {
      expect(html).toContain(message);
    }
    expect(html).toContain('value="200 Bay Street"');
    expect(await accountRow(team.accountId)).toEqual(before);
  });

  it('requires a name and a valid email, keeping what was typed', async () => {
    const team = await freshTeam();
    const before = await accountRow(team.accountId);
    const response = await team.admin.visitor.post('/settings/account', { ...VALID, name: '  ', billing_email: 'not-an-email', city: 'Kept Town' });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Account name is required');
    expect(html).toContain('Enter a valid email address');
    expect(html).toContain('value="not-an-email"');
    expect(html).toContain('value="Kept Town"');
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
      expect(outsider.headers.get('Location')).toBe('/portal');
    }
    expect(await accountRow(team.accountId)).toEqual(before);
  });
});
