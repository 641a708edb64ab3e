// /automations real (decision 067): the account's automations in the record
// table (no samples, no "not available in this demo"), the New Automation
// dialog of spec §3 creating a real one without JavaScript (settings and
// condition rows), the refusals, and the record page's Pause / Activate /
// Delete and run log.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Visitor } from './support/app';
import { demoAdmin, expectCreated, expectRefused, page, readable, selectedOption, without } from './support/module-screens';
import { serviceClient } from './support/backend';

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
    for (const name of ['condition_field_0', 'condition_operator_2', 'template_id', 'assignee_id', 'cron']) expect(html).toContain(`name="${name}"`);
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
      visitor, path, { ...valid, action: 'send_email', template_id: '00000000-0000-4000-8000-000000000000', recipient: 'a@b.test\r\nBcc: x@y.test' }, 'recipient',
      "Enter an e-mail address or choose the event's contact",
    );
  });
});
