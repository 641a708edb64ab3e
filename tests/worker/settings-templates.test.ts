import { describe, expect, it } from 'vitest';
import { serviceClient } from './support/backend';
import { pageText } from './support/app';
import { escapeHtml, freshTeam, parserMessage, profileOf, toastIn } from './support/settings';

async function templatesOf(accountId: string) {
  const { data, error } = await serviceClient()
    .from('templates')
    .select('id, name, type, subject, content, variables, created_by, created_at')
    .eq('account_id', accountId)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return data;
}

async function addTemplate(accountId: string, fields: Record<string, unknown> = {}) {
  const { data, error } = await serviceClient()
    .from('templates')
    .insert({ account_id: accountId, name: 'Seeded', type: 'email', subject: 'Hi', content: 'Body', ...fields })
    .select('id')
    .single();
  if (error) throw error;
  return data.id as string;
}

describe('/settings/templates list', () => {
  it("lists the account's templates newest first with a 200-character preview, to admins and (without buttons) auditors", async () => {
    const team = await freshTeam();
    const long = `${'a'.repeat(200)}TAIL-NOT-SHOWN`;
    await addTemplate(team.accountId, { name: 'Older one', created_at: new Date(Date.UTC(2026, 0, 1)).toISOString() });
    await addTemplate(team.accountId, { name: 'Newer one', type: 'contract', subject: null, content: long });
    for (const visitor of [team.admin.visitor, team.auditor.visitor]) {
      const response = await visitor.get('/settings/templates');
      expect(response.status).toBe(200);
      const html = await pageText(response);
      expect(html.indexOf('Newer one')).toBeGreaterThan(-1);
      expect(html.indexOf('Newer one')).toBeLessThan(html.indexOf('Older one'));
      expect(html).toContain(`${'a'.repeat(200)}</td>`);
      expect(html).not.toContain(`${'a'.repeat(200)}...`);
      expect(html).not.toContain('TAIL-NOT-SHOWN');
      expect(html).toContain('Contract');
      const buttons = visitor === team.admin.visitor;
      expect(html.includes('New Template'), 'New Template').toBe(buttons);
      expect(html.includes('aria-label="Edit Newer one"'), 'Edit').toBe(buttons);
    }
  });

  it("shows an empty state, and never another account's templates", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    await addTemplate(other.accountId, { name: 'Secret template of another account' });
    const html = await pageText(await team.admin.visitor.get('/settings/templates'));
    expect(html).toContain('No templates yet');
    expect(html).not.toContain('Secret template of another account');
  });

  it('opens the create dialog from the URL, without JavaScript, with email as the default type', async () => {
    const team = await freshTeam();
    const html = await pageText(await team.admin.visitor.get('/settings/templates?new'));
    expect(html).toContain('role="dialog"');
    expect(html).toContain('New Template');
    for (const label of ['Name', 'Type', 'Subject', 'Content', 'Variables (JSON)']) expect(html).toContain(`>${label}</label>`);
    expect(html).toMatch(/<option value="email" selected="">Email<\/option>/);
    for (const type of ['quote', 'invoice', 'contract']) expect(html).toContain(`<option value="${type}"`);
  });
});

describe('creating and editing templates', () => {
  it('creates an email template with its subject and variables, with the spec toast', async () => {
    const team = await freshTeam();
    const visitor = team.admin.visitor;
    const response = await visitor.post('/settings/templates?new', {
      intent: 'save',
      name: 'Welcome',
      type: 'email',
      subject: 'Welcome aboard',
      content: 'Hello {{name}}',
      variables: '{"name": "Client name"}',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/settings/templates');
    const page = await pageText(await visitor.follow(response));
    expect(toastIn(page)).toContain('Template created successfully');
    expect(page).toContain('Welcome aboard');
    const [stored] = await templatesOf(team.accountId);
    expect(stored).toMatchObject({
      name: 'Welcome',
      type: 'email',
      subject: 'Welcome aboard',
      content: 'Hello {{name}}',
      variables: { name: 'Client name' },
      created_by: (await profileOf(team.admin.email)).id,
    });
  });

  it('stores no subject for other types and empty variables as null', async () => {
    const team = await freshTeam();
    const response = await team.admin.visitor.post('/settings/templates?new', {
      intent: 'save',
      name: 'Invoice text',
      type: 'invoice',
      subject: 'Ignored for invoices',
      content: 'Pay up',
      variables: '   ',
    });
    expect(response.status).toBe(302);
    const [stored] = await templatesOf(team.accountId);
    expect(stored).toMatchObject({ type: 'invoice', subject: null, variables: null });
  });

  it("shows the parser's message for invalid variables JSON, keeping everything typed", async () => {
    const team = await freshTeam();
    const broken = '{"name": "Client name",}';
    const response = await team.admin.visitor.post('/settings/templates?new', {
      intent: 'save',
      name: 'Keeps its name',
      type: 'email',
      subject: 'Keeps its subject',
      content: 'Keeps its content',
      variables: broken,
    });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    const message = escapeHtml(parserMessage(broken));
    expect(toastIn(html)).toContain(message);
    expect(html).toContain('role="dialog"');
    expect(html).toContain('value="Keeps its name"');
    expect(html).toContain('value="Keeps its subject"');
    expect(html).toContain('Keeps its content</textarea>');
    expect(html).toContain(`${escapeHtml(broken)}</textarea>`);
    expect(await templatesOf(team.accountId)).toHaveLength(0);
  });

  it('requires a name and content', async () => {
    const team = await freshTeam();
    const response = await team.admin.visitor.post('/settings/templates?new', { intent: 'save', name: ' ', type: 'quote', content: '' });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Name is required');
    expect(html).toContain('Content is required');
    expect(await templatesOf(team.accountId)).toHaveLength(0);
  });

  it('edits a template from its URL-addressable dialog, with the spec toast', async () => {
    const team = await freshTeam();
    const id = await addTemplate(team.accountId, { name: 'Before', variables: { a: 1 } });
    const dialog = await pageText(await team.admin.visitor.get(`/settings/templates?edit=${id}`));
    expect(dialog).toContain('Edit Template');
    expect(dialog).toContain('value="Before"');
    expect(dialog).toContain('&quot;a&quot;: 1');

    const response = await team.admin.visitor.post(`/settings/templates?edit=${id}`, {
      intent: 'save',
      id,
      name: 'After',
      type: 'quote',
      subject: 'dropped',
      content: 'New body',
      variables: '',
    });
    expect(response.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(response)))).toContain('Template updated successfully');
    const [stored] = await templatesOf(team.accountId);
    expect(stored).toMatchObject({ id, name: 'After', type: 'quote', subject: null, content: 'New body', variables: null });
  });

  it("cannot edit another account's template: 'Failed to save template'", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const id = await addTemplate(other.accountId, { name: 'Not yours' });
    const response = await team.admin.visitor.post('/settings/templates', {
      intent: 'save',
      id,
      name: 'Taken over',
      type: 'email',
      content: 'x',
    });
    expect(response.status).toBe(400);
    expect(toastIn(await pageText(response))).toContain('Failed to save template');
    const [stored] = await templatesOf(other.accountId);
    expect(stored.name).toBe('Not yours');
  });
});

describe('deleting templates', () => {
  it('asks for confirmation in a dialog that works without JavaScript, then deletes with the spec toast', async () => {
    const team = await freshTeam();
    const id = await addTemplate(team.accountId, { name: 'Doomed' });
    const confirm = await pageText(await team.admin.visitor.get(`/settings/templates?delete=${id}`));
    expect(confirm).toContain('role="dialog"');
    expect(confirm).toContain('Delete Template');
    expect(confirm).toContain('Delete the template &quot;Doomed&quot;? This cannot be undone.');
    expect(confirm).toContain(`name="id" value="${id}"`);

    const response = await team.admin.visitor.post('/settings/templates', { intent: 'delete', id });
    expect(response.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(response)))).toContain('Template deleted successfully');
    expect(await templatesOf(team.accountId)).toHaveLength(0);
  });

  it("answers 'Failed to delete template' for a template of another account or none at all", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const id = await addTemplate(other.accountId);
    for (const target of [id, crypto.randomUUID()]) {
      const response = await team.admin.visitor.post('/settings/templates', { intent: 'delete', id: target });
      expect(response.status).toBe(400);
      expect(toastIn(await pageText(response))).toContain('Failed to delete template');
    }
    expect(await templatesOf(other.accountId)).toHaveLength(1);
  });
});
