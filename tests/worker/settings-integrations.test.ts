import { describe, expect, it } from 'vitest';
import { serviceClient } from './support/backend';
import { pageText } from './support/app';
import { escapeHtml, freshTeam, parserMessage, profileOf, toastIn } from './support/settings';

async function integrationsOf(accountId: string) {
  const { data, error } = await serviceClient()
    .from('integrations')
    .select('id, name, type, config, is_active, created_by, created_at')
    .eq('account_id', accountId)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return data;
}

async function addIntegration(accountId: string, fields: Record<string, unknown> = {}) {
  const { data, error } = await serviceClient()
    .from('integrations')
    .insert({ account_id: accountId, name: 'Seeded', type: 'crm', config: { api_url: 'https://crm.test' }, is_active: true, ...fields })
    .select('id')
    .single();
  if (error) throw error;
  return data.id as string;
}

/** The whole config, secrets included, as server code (the service role) reads it. */
async function credentialsOf(id: string): Promise<Record<string, unknown>> {
  const { data, error } = await serviceClient().rpc('integration_credentials', { p_integration_id: id });
  if (error) throw error;
  return data as Record<string, unknown>;
}

/** The config textarea's JSON on a page. */
function configIn(html: string): unknown {
  const match = /<textarea[^>]*name="config"[^>]*>([\s\S]*?)<\/textarea>/.exec(html);
  if (!match) throw new Error('no config textarea');
  const text = match[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  return JSON.parse(text);
}

describe('/settings/integrations list and dialogs', () => {
  it('lists integrations newest first with type and active state, to admins and (without buttons) auditors, without their configs', async () => {
    const team = await freshTeam();
    await addIntegration(team.accountId, { name: 'Older CRM', created_at: new Date(Date.UTC(2026, 0, 1)).toISOString(), config: { api_key: 'sk_live_SHOULD_NOT_LEAK' } });
    await addIntegration(team.accountId, { name: 'Newer storage', type: 'storage', is_active: false });
    for (const visitor of [team.admin.visitor, team.auditor.visitor]) {
      const response = await visitor.get('/settings/integrations');
      expect(response.status).toBe(200);
      const html = await pageText(response);
      expect(html.indexOf('Newer storage')).toBeGreaterThan(-1);
      expect(html.indexOf('Newer storage')).toBeLessThan(html.indexOf('Older CRM'));
      const buttons = visitor === team.admin.visitor;
      expect(html.includes('aria-label="Activate Newer storage"')).toBe(buttons);
      expect(html.includes('aria-label="Deactivate Older CRM"')).toBe(buttons);
      expect(html.includes('New Integration')).toBe(buttons);
      expect(html).not.toContain('SHOULD_NOT_LEAK');
    }
  });

  it('prefills the config per type exactly as docs/product-guide.md lists, with and without a type chosen', async () => {
    const team = await freshTeam();
    const visitor = team.admin.visitor;
    expect(configIn(await pageText(await visitor.get('/settings/integrations?new')))).toEqual({
      smtp_host: '',
      smtp_port: 587,
      smtp_user: '',
      smtp_password: '',
      from_email: '',
    });
    expect(configIn(await pageText(await visitor.get('/settings/integrations?new&type=payment')))).toEqual({
      api_key: '',
      webhook_secret: '',
      currency: 'USD',
    });
    expect(configIn(await pageText(await visitor.get('/settings/integrations?new&type=crm')))).toEqual({
      api_url: '',
      api_key: '',
      sync_interval: 'daily',
    });
    const storage = await pageText(await visitor.get('/settings/integrations?new&type=storage'));
    expect(configIn(storage)).toEqual({ provider: '', bucket: '', access_key: '', secret_key: '' });
    expect(storage).toMatch(/<option value="storage" selected="">Storage<\/option>/);
  });
});

describe('creating and editing integrations', () => {
  it('creates an integration with its config, with the spec toast', async () => {
    const team = await freshTeam();
    const visitor = team.admin.visitor;
    const config = { api_key: 'pk_test_123', webhook_secret: 'whsec_456', currency: 'EUR' };
    const response = await visitor.post('/settings/integrations?new&type=payment', {
      intent: 'save',
      name: 'Stripe',
      type: 'payment',
      config: JSON.stringify(config),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/settings/integrations');
    const page = await pageText(await visitor.follow(response));
    expect(toastIn(page)).toContain('Integration created successfully');
    expect(page).toContain('Stripe');
    const [stored] = await integrationsOf(team.accountId);
    // The readable config keeps the secrets' keys, blank; the values are kept apart.
    expect(stored).toMatchObject({ name: 'Stripe', type: 'payment', config: { api_key: '', webhook_secret: '', currency: 'EUR' }, is_active: true });
    expect(await credentialsOf(stored.id)).toEqual(config);
    expect(stored.created_by).toBe((await profileOf(team.admin.email)).id);
  });

  it("shows the parser's message for invalid config JSON, keeping what was typed", async () => {
    const team = await freshTeam();
    const broken = '{"smtp_host": smtp.example.test}';
    const response = await team.admin.visitor.post('/settings/integrations?new', {
      intent: 'save',
      name: 'Keeps its name',
      type: 'email',
      config: broken,
    });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(toastIn(html)).toContain(escapeHtml(parserMessage(broken)));
    expect(html).toContain('value="Keeps its name"');
    expect(html).toContain(`${escapeHtml(broken)}</textarea>`);
    expect(await integrationsOf(team.accountId)).toHaveLength(0);
  });

  it('requires a name and a config that is a JSON object', async () => {
    const team = await freshTeam();
    const empty = await team.admin.visitor.post('/settings/integrations?new', { intent: 'save', name: '', type: 'crm', config: '' });
    expect(empty.status).toBe(400);
    const html = await pageText(empty);
    expect(html).toContain('Name is required');
    // The config is read once the rest of the form holds (the typed fields or the JSON, whichever was chosen).
    const noConfig = await team.admin.visitor.post('/settings/integrations?new', { intent: 'save', name: 'X', type: 'crm', config: '' });
    expect(noConfig.status).toBe(400);
    expect(await pageText(noConfig)).toContain('Config is required');
    const array = await team.admin.visitor.post('/settings/integrations?new', { intent: 'save', name: 'X', type: 'crm', config: '[1,2]' });
    expect(array.status).toBe(400);
    expect(await pageText(array)).toContain('Config must be a JSON object');
    const badType = await team.admin.visitor.post('/settings/integrations?new', { intent: 'save', name: 'X', type: 'fax', config: '{}' });
    expect(badType.status).toBe(400);
    expect(await pageText(badType)).toContain('Choose a type');
    expect(await integrationsOf(team.accountId)).toHaveLength(0);
  });

  it('shows saved secrets blank in the JSON (never the secret), keeps them when left blank or masked, and replaces them when retyped', async () => {
    const team = await freshTeam();
    const secret = 'smtp-password-very-secret-9876';
    const id = await addIntegration(team.accountId, {
      name: 'Mailer',
      type: 'email',
      config: { smtp_host: 'smtp.example.test', smtp_port: 587, smtp_user: 'bot', smtp_password: secret, smtp_pass: '', from_email: 'a@b.test' },
    });
    const dialog = await pageText(await team.admin.visitor.get(`/settings/integrations?edit=${id}`));
    expect(dialog).toContain('Edit Integration');
    expect(dialog).not.toContain(secret);
    expect(dialog).not.toContain('9876');
    const shown = configIn(dialog) as Record<string, unknown>;
    expect(shown).toEqual({
      smtp_host: 'smtp.example.test', smtp_port: 587, smtp_user: 'bot', smtp_password: '', smtp_pass: '', from_email: 'a@b.test',
    });
    // The typed password field is empty too, and says a password is saved.
    expect(dialog).toMatch(/<input[^>]*type="password"[^>]*name="email.smtp_password"(?![^>]*value=)[^>]*>/);
    expect(dialog).toContain('Saved. Leave blank to keep it, or type a new one.');

    const unchanged = await team.admin.visitor.post(`/settings/integrations?edit=${id}`, {
      intent: 'save',
      id,
      name: 'Mailer renamed',
      type: 'email',
      config: JSON.stringify({ ...shown, smtp_host: 'smtp2.example.test' }),
    });
    expect(unchanged.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(unchanged)))).toContain('Integration updated successfully');
    let [stored] = await integrationsOf(team.accountId);
    expect(stored.name).toBe('Mailer renamed');
    expect(await credentialsOf(id)).toMatchObject({ smtp_host: 'smtp2.example.test', smtp_password: secret });

    const blank = await team.admin.visitor.post(`/settings/integrations?edit=${id}`, {
      intent: 'save',
      id,
      name: 'Mailer renamed',
      type: 'email',
      // A script written against the old masked form still keeps the secret by sending the mask.
      config: JSON.stringify({ ...shown, smtp_password: '••••••••' }),
    });
    expect(blank.status).toBe(302);
    expect((await credentialsOf(id)).smtp_password).toBe(secret);

    const retyped = await team.admin.visitor.post(`/settings/integrations?edit=${id}`, {
      intent: 'save',
      id,
      name: 'Mailer renamed',
      type: 'email',
      config: JSON.stringify({ ...shown, smtp_password: 'brand-new-password' }),
    });
    expect(retyped.status).toBe(302);
    [stored] = await integrationsOf(team.accountId);
    expect((stored.config as Record<string, unknown>).smtp_password).toBe('');
    expect((await credentialsOf(id)).smtp_password).toBe('brand-new-password');
  });

  it('saves the typed fields of the chosen type (port as a number, secrets write-only), keeping other stored keys on edit', async () => {
    const team = await freshTeam();
    const visitor = team.admin.visitor;
    const form = await pageText(await visitor.get('/settings/integrations?new'));
    expect(form).toMatch(/<input(?=[^>]*type="radio")(?=[^>]*name="editor")(?=[^>]*value="fields")(?=[^>]*checked="")[^>]*>/);
    expect(form).toMatch(/<input[^>]*type="number"[^>]*name="email.smtp_port"[^>]*value="587"/);
    expect(form).toMatch(/<input[^>]*type="password"[^>]*name="email.smtp_password"/);
    expect(form).toMatch(/<input[^>]*type="password"[^>]*name="payment.api_key"/);
    expect(form).toMatch(/<input[^>]*type="email"[^>]*name="email.from_email"/);

    const typed = {
      intent: 'save',
      name: 'Mailer',
      type: 'email',
      editor: 'fields',
      'email.smtp_host': 'smtp.typed.test',
      'email.smtp_port': '2525',
      'email.smtp_user': 'bot',
      'email.smtp_password': 'typed-secret-4321',
      'email.from_email': 'hello@typed.test',
      // Another type's fields are ignored.
      'payment.api_key': 'sk_not_this_one',
    };
    const created = await visitor.post('/settings/integrations?new', typed);
    expect(created.status).toBe(302);
    const [stored] = await integrationsOf(team.accountId);
    expect(stored.config).toEqual({ smtp_host: 'smtp.typed.test', smtp_port: 2525, smtp_user: 'bot', smtp_password: '', from_email: 'hello@typed.test' });
    expect(await credentialsOf(stored.id)).toMatchObject({ smtp_password: 'typed-secret-4321' });

    // A key the fields do not show survives a typed save; a blank password keeps the saved one.
    expect((await serviceClient().from('integrations').update({ config: { ...stored.config, smtp_password: '', region: 'eu' } }).eq('id', stored.id)).error).toBeNull();
    const edit = await pageText(await visitor.get(`/settings/integrations?edit=${stored.id}`));
    expect(edit).not.toContain('typed-secret-4321');
    expect(edit).toMatch(/name="email.smtp_host"[^>]*value="smtp.typed.test"/);
    const kept = await visitor.post(`/settings/integrations?edit=${stored.id}`, {
      ...typed,
      id: stored.id,
      'email.smtp_host': 'smtp2.typed.test',
      'email.smtp_password': '',
    });
    expect(kept.status).toBe(302);
    expect(await credentialsOf(stored.id)).toEqual({
      smtp_host: 'smtp2.typed.test', smtp_port: 2525, smtp_user: 'bot', smtp_password: 'typed-secret-4321', from_email: 'hello@typed.test', region: 'eu',
    });
  });

  it('refuses a bad port or from address under its field, never sending a typed secret back', async () => {
    const team = await freshTeam();
    const response = await team.admin.visitor.post('/settings/integrations?new', {
      intent: 'save',
      name: 'Mailer',
      type: 'email',
      editor: 'fields',
      'email.smtp_port': '99999',
      'email.smtp_password': 'do-not-echo-me',
      'email.from_email': 'not-an-email',
    });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Port must be a whole number from 1 to 65535');
    expect(html).toContain('Enter a valid email address');
    expect(html).toContain('value="99999"');
    expect(html).not.toContain('do-not-echo-me');
    expect(await integrationsOf(team.accountId)).toEqual([]);
  });

  it("refuses an SMS gateway's API URL on a private or plain-http address under its field, keeping what was typed", async () => {
    const team = await freshTeam();
    for (const url of ['https://169.254.169.254/latest', 'http://api.twilio.com']) {
      const response = await team.admin.visitor.post('/settings/integrations?new', {
        intent: 'save',
        name: 'Texts',
        type: 'sms',
        editor: 'fields',
        'sms.account_sid': 'AC0123',
        'sms.auth_token': 'do-not-echo-this-token',
        'sms.from_number': '+15550000001',
        'sms.api_url': url,
      });
      expect(response.status, url).toBe(400);
      const html = await pageText(response);
      expect(html).toContain('Use an https URL of a public server');
      expect(html).toContain('value="+15550000001"');
      expect(html).not.toContain('do-not-echo-this-token');
    }
    expect(await integrationsOf(team.accountId)).toEqual([]);
  });

  it("cannot edit another account's integration: 'Failed to save integration'", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const id = await addIntegration(other.accountId, { name: 'Not yours' });
    const typed = '{"api_url": "https://typed.test"}';
    const response = await team.admin.visitor.post(`/settings/integrations?edit=${id}`, { intent: 'save', id, name: 'Mine now', type: 'crm', config: typed });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(toastIn(html)).toContain('Failed to save integration');
    // Nothing of the other account's integration reaches the page.
    expect(html).not.toContain('https://crm.test');
    expect((await integrationsOf(other.accountId))[0].name).toBe('Not yours');
  });
});

describe('activating, deactivating and deleting integrations', () => {
  it('toggles is_active with the spec toasts', async () => {
    const team = await freshTeam();
    const id = await addIntegration(team.accountId, { is_active: true });
    const off = await team.admin.visitor.post('/settings/integrations', { intent: 'set-active', id, active: 'false' });
    expect(off.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(off)))).toContain('Integration deactivated successfully');
    expect((await integrationsOf(team.accountId))[0].is_active).toBe(false);
    const on = await team.admin.visitor.post('/settings/integrations', { intent: 'set-active', id, active: 'true' });
    expect(toastIn(await pageText(await team.admin.visitor.follow(on)))).toContain('Integration activated successfully');
    expect((await integrationsOf(team.accountId))[0].is_active).toBe(true);
  });

  it("answers 'Failed to update integration status' for another account's integration", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const id = await addIntegration(other.accountId, { is_active: true });
    const response = await team.admin.visitor.post('/settings/integrations', { intent: 'set-active', id, active: 'false' });
    expect(response.status).toBe(400);
    expect(toastIn(await pageText(response))).toContain('Failed to update integration status');
    expect((await integrationsOf(other.accountId))[0].is_active).toBe(true);
  });

  it('confirms, then deletes with the spec toast; a foreign id fails with the spec text', async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const id = await addIntegration(team.accountId, { name: 'Doomed' });
    const confirm = await pageText(await team.admin.visitor.get(`/settings/integrations?delete=${id}`));
    expect(confirm).toContain('Delete Integration');
    expect(confirm).toContain('Delete the integration &quot;Doomed&quot;? This cannot be undone.');
    const response = await team.admin.visitor.post('/settings/integrations', { intent: 'delete', id });
    expect(response.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(response)))).toContain('Integration deleted successfully');
    expect(await integrationsOf(team.accountId)).toHaveLength(0);

    const foreign = await addIntegration(other.accountId);
    const refused = await team.admin.visitor.post('/settings/integrations', { intent: 'delete', id: foreign });
    expect(refused.status).toBe(400);
    expect(toastIn(await pageText(refused))).toContain('Failed to delete integration');
    expect(await integrationsOf(other.accountId)).toHaveLength(1);
  });
});
