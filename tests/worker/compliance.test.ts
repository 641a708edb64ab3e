import { beforeAll, describe, expect, it } from 'vitest';
import { type Visitor } from './support/app';
import { demoAdmin, expectCreated, expectRefused, page, readable, selectedOption, without } from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const valid = {
  title: 'PCI DSS review',
  category: 'security',
  risk_level: 'critical',
  responsible_team: 'IT Security',
  next_review_date: '2025-06-01',
  description: 'Yearly review of card data handling',
  requirements: '',
};

describe('/compliance', () => {
  it('shows three sample items: category, risk level, responsible team, next review and status', async () => {
    const text = readable(await page(visitor, '/compliance'));
    expect(text).toContain(
      'GDPR Data Processing Review Data Protection Sample In Progress Risk level High risk Responsible team Legal & Privacy Next review Feb 1, 2025',
    );
    expect(text).toContain('SOX Financial Controls Financial Sample Compliant Risk level Medium risk Responsible team Finance Next review Mar 15, 2025');
    expect(text).toContain(
      'ISO 27001 Access Review Security Sample Action Required Risk level Low risk Responsible team IT Security Next review Jan 25, 2025',
    );
  });

  it('opens New Assessment at /compliance?new with the categories and risk levels', async () => {
    const html = await page(visitor, '/compliance?new');
    expect(html).toContain('role="dialog"');
    expect(readable(html)).toContain('New Compliance Assessment');
    expect(selectedOption(html, 'category')).toBe('financial');
    expect(selectedOption(html, 'risk_level')).toBe('medium');
    for (const label of ['Data Protection', 'Healthcare', 'Environmental', 'Critical']) expect(readable(html)).toContain(label);
  });

  it("creates an assessment and says 'Compliance assessment created successfully!'", async () => {
    await expectCreated(visitor, '/compliance?new', valid, '/compliance', 'Compliance assessment created successfully!');
  });

  it('answers each invalid field with a 400 and its error', async () => {
    const path = '/compliance?new';
    await expectRefused(visitor, path, without(valid, 'title'), 'title', 'Title is required');
    await expectRefused(visitor, path, without(valid, 'responsible_team'), 'responsible_team', 'Responsible team is required');
    await expectRefused(visitor, path, without(valid, 'next_review_date'), 'next_review_date', 'Next review date is required');
    await expectRefused(visitor, path, without(valid, 'description'), 'description', 'Description is required');
    await expectRefused(visitor, path, { ...valid, category: 'tax' }, 'category', 'Choose a category');
    await expectRefused(visitor, path, { ...valid, risk_level: 'extreme' }, 'risk_level', 'Choose a risk level');
  });
});
