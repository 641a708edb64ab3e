import { describe, expect, it } from 'vitest';
import { ACTIONS, automationRow, FREQUENCIES, newAutomationSchema, TRIGGERS } from '../../app/features/automations/schema.ts';
import { newAutomationServerSchema } from '../../app/features/automations/schema.server.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const assign = { name: 'Call', description: 'Call new leads', trigger: 'lead_created', action: 'assign_task', assignee_id: '11111111-1111-4111-8111-111111111111', task_title: 'Call {{name}}' };

describe('new automation form', () => {
  it('offers the spec’s triggers first, then the events the modules emit; the spec’s actions and frequencies', () => {
    expect(TRIGGERS.slice(0, 5)).toEqual(['quote_accepted', 'lead_created', 'invoice_overdue', 'client_registered', 'scheduled_time']);
    expect(TRIGGERS).toContain('message_received');
    expect(ACTIONS).toEqual(['send_email', 'create_invoice', 'update_status', 'assign_task', 'generate_report']);
    expect(FREQUENCIES).toEqual(['immediate', 'daily', 'weekly', 'monthly', 'custom']);
  });

  it('turns a valid form into the row: settings of its action, filled condition rows only', () => {
    const value = valueOf(newAutomationSchema, { ...assign, condition_field_0: 'email', condition_operator_0: 'contains', condition_value_0: '@vip.test' });
    expect(automationRow(value as never)).toMatchObject({
      trigger_kind: 'lead_created', frequency: null, cron: null, status: 'draft', action_kind: 'assign_task',
      action_settings: { assignee_id: assign.assignee_id, title: 'Call {{name}}' },
      conditions: [{ field: 'email', operator: 'contains', value: '@vip.test' }],
    });
  });

  it('requires the name and the description', () => {
    const errors = errorsOf(newAutomationSchema, { ...assign, name: '', description: '' });
    expect(errors.name).toEqual(['Name is required']);
    expect(errors.description).toEqual(['Description is required']);
  });

  it('refuses values outside the lists, an action its trigger cannot serve, unknown condition fields and mistyped values', () => {
    expect(Object.keys(errorsOf(newAutomationSchema, { ...assign, trigger: 'x', action: 'y', frequency: 'hourly' })).sort()).toEqual(['action', 'frequency', 'trigger']);
    // A draft invoice is made from an accepted quote, so Create Invoice takes no other trigger.
    expect(errorsOf(newAutomationSchema, { ...assign, action: 'create_invoice' }).trigger).toEqual(['Create Invoice applies to Quote Accepted']);
    expect(errorsOf(newAutomationSchema, { ...assign, condition_field_0: 'total', condition_operator_0: 'equals' }).condition_field_0).toEqual(['Choose one of: name, email']);
    expect(errorsOf(newAutomationSchema, { ...assign, condition_field_0: 'name', condition_operator_0: 'greater_than', condition_value_0: 'ten' }).condition_value_0).toEqual(['Enter a number']);
    expect(errorsOf(newAutomationServerSchema, { ...assign, trigger: 'scheduled_time', frequency: 'custom', cron: '* * * * *' }).cron).toEqual(['A schedule runs at most every 5 minutes']);
  });
});
