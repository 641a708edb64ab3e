import { beforeAll, describe, expect, it } from 'vitest';
import { type Visitor } from './support/app';
import { demoAdmin, expectCreated, expectRefused, page, readable, selectedOption, without } from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const valid = {
  name: 'Welcome new clients',
  trigger: 'client_registered',
  action: 'send_email',
  frequency: 'immediate',
  description: 'Send the welcome pack',
  conditions: '',
};

describe('/automations', () => {
  it('shows three sample workflows: run count, success rate, next run and status', async () => {
    const text = readable(await page(visitor, '/automations'));
    expect(text).toContain('Quote Follow-up');
    expect(text).toContain('Active Runs 156 Success rate 98.7% Next run On the next accepted quote');
    expect(text).toContain('Paused Runs 43 Success rate 95.3% Next run Paused');
    expect(text).toContain('Failed Runs 12 Success rate 83.3% Next run Jan 20, 2025, 8:00 AM UTC');
  });

  it('renders two buttons that say they do nothing', async () => {
    const html = await page(visitor, '/automations');
    const inert = [...html.matchAll(/<button[^>]*aria-disabled="true"[^>]*>([\s\S]*?)<\/button>/g)].map(([, inner]) => readable(inner).trim());
    expect(inert).toEqual(['View Logs (not available in this demo)', 'Run All (not available in this demo)']);
  });

  it('opens New Automation at /automations?new with the trigger, action and frequency lists', async () => {
    const html = await page(visitor, '/automations?new');
    expect(html).toContain('role="dialog"');
    expect(selectedOption(html, 'trigger')).toBe('quote_accepted');
    expect(selectedOption(html, 'action')).toBe('send_email');
    expect(selectedOption(html, 'frequency')).toBe('immediate');
    const values = (name: string) => {
      const start = html.indexOf(`name="${name}"`);
      const select = html.slice(start, html.indexOf('</select>', start));
      return [...select.matchAll(/value="([^"]+)"/g)].map(([, value]) => value);
    };
    expect(values('trigger')).toEqual(['quote_accepted', 'lead_created', 'invoice_overdue', 'client_registered', 'scheduled_time']);
    expect(values('action')).toEqual(['send_email', 'create_invoice', 'update_status', 'assign_task', 'generate_report']);
    expect(values('frequency')).toEqual(['immediate', 'daily', 'weekly', 'monthly', 'custom']);
  });

  it("creates a workflow and says 'Automation workflow created successfully!'", async () => {
    await expectCreated(visitor, '/automations?new', valid, '/automations', 'Automation workflow created successfully!');
  });

  it('answers each invalid field with a 400 and its error', async () => {
    const path = '/automations?new';
    await expectRefused(visitor, path, without(valid, 'name'), 'name', 'Name is required');
    await expectRefused(visitor, path, without(valid, 'description'), 'description', 'Description is required');
    await expectRefused(visitor, path, { ...valid, trigger: 'sunrise' }, 'trigger', 'Choose a trigger');
    await expectRefused(visitor, path, { ...valid, action: 'explode' }, 'action', 'Choose an action');
    await expectRefused(visitor, path, { ...valid, frequency: 'hourly' }, 'frequency', 'Choose a frequency');
  });
});
