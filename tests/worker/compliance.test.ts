// /compliance real (issue 37): the demo account's obligations (no sample rows, no
// invented score), the cards from SQL, the filters, the month calendar moved by
// URL, and the New Assessment dialog with its server-side checks.
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
  frequency: 'quarterly',
  description: 'Yearly review of card data handling',
  requirements: '',
};
const month = (offsetMonths: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offsetMonths, 1)).toISOString().slice(0, 7);
};

describe('/compliance', () => {
  it("lists the account's own obligations with cards from the database, and no sample rows or score", async () => {
    const text = readable(await page(visitor, '/compliance'));
    expect(text).toContain('AC-2 Account Management review');
    expect(text).toContain('AU-6 Audit Record Review');
    expect(text).not.toContain('GDPR Data Processing Review');
    expect(text).not.toContain('94%');
    expect(text).not.toContain('Sample');
    expect(text).toMatch(/Active Requirements \d+/);
  });

  it('filters by category, risk level and status from the URL', async () => {
    // The list only (the calendar below names every item due this month).
    const listOf = async (path: string) => {
      const text = readable(await page(visitor, path));
      return text.slice(0, text.indexOf('Reviews due:'));
    };
    const high = await listOf('/compliance?risk=high');
    expect(high).toContain('AC-2 Account Management review');
    expect(high).not.toContain('AU-6 Audit Record Review');
    const compliant = await listOf('/compliance?status=Compliant');
    expect(compliant).toContain('AU-6 Audit Record Review');
    expect(compliant).not.toContain('CP-9 System Backup test');
    const none = await listOf('/compliance?category=healthcare');
    expect(none).not.toContain('AC-2 Account Management review');
  });

  it('shows the month calendar of due reviews, moved by plain links', async () => {
    const html = await page(visitor, `/compliance?month=${month(1)}`);
    expect(html).toContain(`href="/compliance?month=${month(0)}"`);
    expect(html).toContain(`href="/compliance?month=${month(2)}"`);
    // The monthly AU-6 review is due every month.
    const calendar = readable(html.slice(html.indexOf('Reviews due')));
    expect(calendar).toContain('AU-6 Audit Record Review');
    // A month that is not one falls back to this month, not an error.
    expect((await visitor.get('/compliance?month=2026-13')).status).toBe(200);
  });

  it('opens New Assessment at /compliance?new with the categories, risk levels and frequencies', async () => {
    const whole = await page(visitor, '/compliance?new');
    expect(whole).toContain('role="dialog"');
    // The dialog's selects (the list's filters above have a category select too).
    const html = whole.slice(whole.indexOf('role="dialog"'));
    expect(readable(html)).toContain('New Compliance Assessment');
    expect(selectedOption(html, 'category')).toBe('financial');
    expect(selectedOption(html, 'risk_level')).toBe('medium');
    expect(selectedOption(html, 'frequency')).toBe('annual');
    for (const label of ['Data Protection', 'Healthcare', 'Environmental', 'Critical', 'Half-yearly', 'Custom interval']) expect(readable(html)).toContain(label);
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
    await expectRefused(visitor, path, { ...valid, frequency: 'custom' }, 'interval_months', 'Enter the months between reviews');
    await expectRefused(visitor, path, { ...valid, title: 'Bad\u0007title' }, 'title', 'Remove line breaks and other control characters');
  });
});
