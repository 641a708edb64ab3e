// /automations real (decision 067): the account's automations in the record
// table (no samples, no "not available in this demo"), the New Automation
// dialog of spec §3 creating a real one without JavaScript (settings and
// condition rows), the refusals, and the record page's Pause / Activate /
// Delete and run log.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Visitor } from './support/app';
import { control, demoAdmin, expectCreated, expectRefused, page, readable, selectedOption, without } from './support/module-screens';
import { serviceClient } from './support/backend';
import { DEMO_ADMIN } from '../support/accounts';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const valid = {
  name: 'Qualify new leads',
  trigger: 'lead_created',
  action: 'update_status',
  frequency: 'immediate',
  status: 'draft',
  description: 'Mark VIP leads qualified',
  new_status: 'qualified',
  condition_field_0: 'email',
  condition_operator_0: 'contains',
  condition_value_0: '@vip.test',
};

describe('/automations', () => {
  it('shows no sample workflows and no demo-only buttons', async () => {
    const text = readable(await page(visitor, '/automations'));
    expect(text).not.toContain('Quote Follow-up');
    expect(text).not.toContain('not available in this demo');
    expect(text).not.toContain('Sample');
  });

  it('opens New Automation at /automations?new with the trigger, action, frequency and condition rows', async () => {
    const html = await page(visitor, '/automations?new');
    expect(html).toContain('role="dialog"');
    expect(selectedOption(html, 'trigger')).toBe('quote_accepted');
    expect(selectedOption(html, 'action')).toBe('send_email');
    expect(selectedOption(html, 'frequency')).toBe('immediate');
    for (const name of ['condition_field_0', 'condition_operator_2', 'template_id', 'assignee_id', 'cron', 'recipient_address']) expect(html).toContain(`name="${name}"`);
    // Send Email's recipients: the event's contact, the account's users (a select), or a fixed address.
    expect(selectedOption(html, 'recipient')).toBe('event_contact');
    expect(html).toContain(`<option value="${DEMO_ADMIN.email}">`);
    expect(html).toContain('<option value="fixed">A fixed address (below)</option>');
  });

  it("creates a real one, says 'Automation workflow created successfully!', lists it and shows its page", async () => {
    const name = `Qualify ${Date.now()}`;
    const list = await expectCreated(visitor, '/automations?new', { ...valid, name }, '/automations', 'Automation workflow created successfully!');
    expect(readable(list)).toContain(name);
    const { data } = await serviceClient().from('automations').select('id, status, conditions, action_settings').eq('name', name).single();
    expect(data).toMatchObject({ status: 'draft', action_settings: { status: 'qualified' }, conditions: [{ field: 'email', operator: 'contains', value: '@vip.test' }] });
    const detail = readable(await page(visitor, `/automations/${data!.id}`));
    expect(detail).toContain('email contains @vip.test');
    expect(detail).toContain('No runs yet.');
    const activated = await visitor.post(`/automations/${data!.id}`, { intent: 'activate' });
    expect(activated.status).toBe(302);
    expect((await serviceClient().from('automations').select('status').eq('id', data!.id).single()).data!.status).toBe('active');
    await visitor.post(`/automations/${data!.id}`, { intent: 'pause' });
    expect((await serviceClient().from('automations').select('status').eq('id', data!.id).single()).data!.status).toBe('paused');
    const deleted = await visitor.post(`/automations/${data!.id}?delete`, { intent: 'delete' });
    expect(deleted.status).toBe(302);
    expect((await serviceClient().from('automations').select('id').eq('id', data!.id)).data).toEqual([]);
  });

  it('answers each invalid field with a 400 and its error', async () => {
    const path = '/automations?new';
    await expectRefused(visitor, path, without(valid, 'name'), 'name', 'Name is required');
    await expectRefused(visitor, path, { ...valid, trigger: 'sunrise' }, 'trigger', 'Choose a trigger');
    await expectRefused(visitor, path, { ...valid, condition_field_0: 'shoe_size' }, 'condition_field_0', 'Choose one of: name, email');
    await expectRefused(visitor, path, { ...valid, condition_operator_0: 'greater_than', condition_value_0: 'abc' }, 'condition_value_0', 'Enter a number');
    const scheduled = {
      name: 'Every minute', description: 'Too often', trigger: 'scheduled_time', frequency: 'custom', status: 'draft',
      action: 'send_email', template_id: '00000000-0000-4000-8000-000000000000', recipient: 'ops@example.test',
    };
    await expectRefused(visitor, path, { ...scheduled, cron: '* * * * *' }, 'cron', 'A schedule runs at most every 5 minutes');
    await expectRefused(visitor, path, { ...scheduled, cron: '0 0 31 2 *' }, 'cron', 'never runs');
    await expectRefused(visitor, path, { ...valid, action: 'send_email', template_id: '', recipient: 'a@b.test' }, 'template_id', 'Choose a template');
    await expectRefused(
      visitor, path, { ...valid, action: 'send_email', template_id: '00000000-0000-4000-8000-000000000000', recipient: 'fixed', recipient_address: '' }, 'recipient_address',
      'Enter the fixed address',
    );
    await expectRefused(
      visitor, path, { ...valid, action: 'send_email', template_id: '00000000-0000-4000-8000-000000000000', recipient: 'fixed', recipient_address: 'a@b.test\r\nBcc: x@y.test' }, 'recipient_address',
      "Enter an e-mail address or choose the event's contact",
    );
    await expectRefused(
      visitor, path, { ...valid, action: 'send_email', template_id: '00000000-0000-4000-8000-000000000000', recipient: 'a@b.test\r\nBcc: x@y.test' }, 'recipient',
      "Enter an e-mail address or choose the event's contact",
    );
    // 'A fixed address' saves the address typed below it (an admin's).
    const { data: me } = await serviceClient().from('users').select('account_id').eq('email', DEMO_ADMIN.email).single();
    const { data: template } = await serviceClient().from('templates').select('id').eq('account_id', me!.account_id).eq('type', 'email').limit(1).single();
    const name = `Fixed ${Date.now()}`;
    await expectCreated(visitor, path, { ...valid, name, action: 'send_email', template_id: template!.id, recipient: 'fixed', recipient_address: 'ops@partner.test' }, '/automations', 'Automation workflow created successfully!');
    const { data: fixed } = await serviceClient().from('automations').select('id, action_settings').eq('name', name).single();
    expect(fixed!.action_settings).toEqual({ template_id: template!.id, recipient: 'ops@partner.test' });
    // Its edit dialog shows it as the fixed address; a colleague's address is chosen in the select.
    const edit = await page(visitor, `/automations/${fixed!.id}?edit`);
    expect(selectedOption(edit, 'recipient')).toBe('fixed');
    expect(control(edit, 'recipient_address')).toContain('value="ops@partner.test"');
    await serviceClient().from('automations').update({ action_settings: { template_id: template!.id, recipient: DEMO_ADMIN.email } }).eq('id', fixed!.id);
    expect(selectedOption(await page(visitor, `/automations/${fixed!.id}?edit`), 'recipient')).toBe(DEMO_ADMIN.email);
  });

  it('edits an automation in its ?edit dialog, refuses a bad edit under its field, and queues Run now once per key', async () => {
    const name = `Editable ${Date.now()}`;
    await expectCreated(visitor, '/automations?new', { ...valid, name }, '/automations', 'Automation workflow created successfully!');
    const { data } = await serviceClient().from('automations').select('id').eq('name', name).single();
    const path = `/automations/${data!.id}`;
    const dialog = await page(visitor, `${path}?edit`);
    expect(dialog).toContain('role="dialog"');
    expect(selectedOption(dialog, 'new_status')).toBe('qualified');
    const { status: _status, ...fields } = valid;
    const saved = await visitor.post(`${path}?edit`, { ...fields, intent: 'update', name, new_status: 'contacted', condition_value_0: '@big.test' });
    expect(saved.status).toBe(302);
    expect((await serviceClient().from('automations').select('action_settings, conditions, status').eq('id', data!.id).single()).data).toMatchObject({
      status: 'draft', action_settings: { status: 'contacted' }, conditions: [{ value: '@big.test' }],
    });
    await expectRefused(visitor, `${path}?edit`, { ...fields, intent: 'update', name, action: 'create_invoice' }, 'trigger', 'Create Invoice applies to Quote Accepted');
    const key = `key-${Date.now()}`;
    // Update Status needs its event: the page says so instead of Run now, and a post made anyway is refused.
    const needsEvent = 'Run now is not offered for Update Status: it changes the status of the lead whose creation started the run, so it runs only when a lead is created.';
    expect(readable(await page(visitor, path))).toContain(needsEvent);
    const refused = await visitor.post(path, { intent: 'run_now', run_key: key });
    expect(refused.status).toBe(400);
    expect(readable(await refused.text())).toContain(needsEvent);
    expect((await serviceClient().from('automation_runs').select('id').eq('automation_id', data!.id)).data).toEqual([]);
    // Assign Task runs without one: one queued run per key.
    const { data: me } = await serviceClient().from('users').select('id').eq('email', DEMO_ADMIN.email).single();
    await serviceClient().from('automations').update({ action_kind: 'assign_task', action_settings: { assignee_id: me!.id, title: 'Weekly review' } }).eq('id', data!.id);
    expect(readable(await page(visitor, path))).not.toContain(needsEvent);
    expect((await visitor.post(path, { intent: 'run_now', run_key: key })).status).toBe(302);
    expect((await visitor.post(path, { intent: 'run_now', run_key: key })).status).toBe(302);
    const { data: runs } = await serviceClient().from('automation_runs').select('status, manual_key').eq('automation_id', data!.id);
    expect(runs).toEqual([{ status: 'queued', manual_key: key }]);
  });

  it("previews a schedule's next five runs before saving, keeping what was typed", async () => {
    const typed = { ...valid, name: 'Morning digest', trigger: 'scheduled_time', frequency: 'custom', cron: '30 8 * * 1-5', preview: 'schedule' };
    const response = await visitor.post('/automations?new', typed);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(readable(html)).toContain('Next five runs');
    expect(html.match(/<li>[^<]*08:30[^<]*<\/li>/g)).toHaveLength(5);
    expect(control(html, 'name')).toContain('Morning digest');
    expect((await serviceClient().from('automations').select('id').eq('name', 'Morning digest')).data).toEqual([]);
    const tooOften = await (await visitor.post('/automations?new', { ...typed, cron: '* * * * *' })).text();
    expect(readable(tooOften)).toContain('A schedule runs at most every 5 minutes');
  });

  it("shows the signed-in person's open tasks under 'My tasks' on the dashboard, each done by its checkbox form", async () => {
    const { data: me } = await serviceClient().from('users').select('id, account_id').eq('email', DEMO_ADMIN.email).single();
    const title = `Call back ${Date.now()}`;
    const { data: task } = await serviceClient().from('tasks').insert({ account_id: me!.account_id, title, assignee_id: me!.id }).select('id').single();
    const dashboard = readable(await page(visitor, '/dashboard'));
    expect(dashboard).toContain('My tasks');
    expect(dashboard).toContain(title);
    const done = await visitor.post('/dashboard', { intent: 'task_done', task_id: task!.id });
    expect(done.status).toBe(302);
    expect((await serviceClient().from('tasks').select('done').eq('id', task!.id).single()).data!.done).toBe(true);
    expect(readable(await page(visitor, '/dashboard'))).not.toContain(title);
    expect((await visitor.post('/dashboard', { intent: 'task_done', task_id: 'not-a-task' })).status).toBe(400);
  });
});
