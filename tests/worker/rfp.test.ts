import { beforeAll, describe, expect, it } from 'vitest';
import { type Visitor } from './support/app';
import { control, demoAdmin, expectCreated, expectRefused, page, readable, without } from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const valid = {
  title: 'Harbour logistics tender',
  company: 'Port of Oslo',
  contact_email: 'tenders@port.test',
  value: '250000',
  deadline: '2025-05-01',
  proposal: 'Our proposal covers...',
  additional_notes: '',
};

describe('/rfp', () => {
  it('shows three sample RFPs: value, deadline, submissions, days left and status', async () => {
    const text = readable(await page(visitor, '/rfp'));
    expect(text).toContain(
      'Enterprise Logistics Platform Global Manufacturing Inc. Sample Active Value $500,000.00 Deadline Feb 15, 2025 Submissions 12 Days left 18 days',
    );
    expect(text).toContain('Document Processing Automation City Health Services Sample Submitted Value $125,000.00 Deadline Feb 1, 2025 Submissions 7 Days left 4 days');
    expect(text).toContain('Compliance Management System First National Bank Sample Under Review Value $280,000.00 Deadline Jan 30, 2025 Submissions 15 Days left 2 days');
  });

  it('opens New RFP Response at /rfp?new, every field but the notes required', async () => {
    const html = await page(visitor, '/rfp?new');
    expect(html).toContain('role="dialog"');
    for (const name of ['title', 'company', 'contact_email', 'value', 'deadline', 'proposal']) {
      expect(control(html, name), name).toContain('required');
    }
    expect(control(html, 'additional_notes')).not.toContain('required');
  });

  it("creates a response and says 'RFP response created successfully!'", async () => {
    await expectCreated(visitor, '/rfp?new', valid, '/rfp', 'RFP response created successfully!');
  });

  it('answers each invalid field with a 400 and its error', async () => {
    const path = '/rfp?new';
    await expectRefused(visitor, path, without(valid, 'title'), 'title', 'Title is required');
    await expectRefused(visitor, path, without(valid, 'company'), 'company', 'Company is required');
    await expectRefused(visitor, path, without(valid, 'contact_email'), 'contact_email', 'Contact email is required');
    await expectRefused(visitor, path, { ...valid, contact_email: 'port' }, 'contact_email', 'Enter a valid email address');
    await expectRefused(visitor, path, without(valid, 'value'), 'value', 'Value is required');
    await expectRefused(visitor, path, { ...valid, deadline: 'next week' }, 'deadline', 'Deadline must be a date');
    await expectRefused(visitor, path, without(valid, 'proposal'), 'proposal', 'Proposal is required');
  });
});
