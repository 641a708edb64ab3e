import { describe, expect, it } from 'vitest';
import { ACTIONS, FREQUENCIES, newAutomationSchema, TRIGGERS } from '../../app/features/automations/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

describe('new automation form', () => {
  it('offers the spec’s triggers, actions and frequencies', () => {
    expect(TRIGGERS).toEqual(['quote_accepted', 'lead_created', 'invoice_overdue', 'client_registered', 'scheduled_time']);
    expect(ACTIONS).toEqual(['send_email', 'create_invoice', 'update_status', 'assign_task', 'generate_report']);
    expect(FREQUENCIES).toEqual(['immediate', 'daily', 'weekly', 'monthly', 'custom']);
  });

  it('accepts a name and a description with the default lists', () => {
    expect(valueOf(newAutomationSchema, { name: 'Welcome', description: 'Say hello' })).toEqual({
      name: 'Welcome',
      description: 'Say hello',
      trigger: 'quote_accepted',
      action: 'send_email',
      frequency: 'immediate',
    });
  });

  it('requires the name and the description', () => {
    expect(errorsOf(newAutomationSchema, { trigger: 'lead_created' })).toEqual({
      name: ['Name is required'],
      description: ['Description is required'],
    });
  });

  it('refuses values outside the lists', () => {
    const errors = errorsOf(newAutomationSchema, { name: 'x', description: 'y', trigger: 'x', action: 'y', frequency: 'hourly' });
    expect(Object.keys(errors).sort()).toEqual(['action', 'frequency', 'trigger']);
  });
});
