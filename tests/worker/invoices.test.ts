import { beforeAll, describe, expect, it } from 'vitest';
import { Visitor } from './support/app';
import {
  control,
  demoAdmin,
  expectCreated,
  expectRefused,
  page,
  readable,
  selectedOption,
  without,
} from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const valid = {
  client_name: 'Acme Ltd',
  client_email: 'billing@acme.test',
  description: 'Consulting, March',
  unit_price: '1299.50',
  quantity: '2',
  currency: 'EUR',
  due_date: '2025-04-01',
  notes: '',
};

describe('/invoices', () => {
  it('shows the four cards and the two sample invoices', async () => {
    const text = readable(await page(visitor, '/invoices'));
    for (const card of ['Outstanding', 'Paid This Month', 'Total Invoices', 'Collection Rate']) expect(text).toContain(card);
    expect(text).toContain('$45,250.00');
    expect(text).toContain('94%');
    for (const sample of [
      'INV-2025-001 Sample Paid TechCorp Solutions accounts@techcorp.example',
      '$12,500.00',
      'INV-2025-002 Sample Overdue Global Industries finance@globalind.example',
      '$8,500.00',
      'Due: Feb 15, 2025',
    ]) {
      expect(text).toContain(sample);
    }
  });

  it('renders Download and View on each invoice as buttons that say they do nothing', async () => {
    const html = await page(visitor, '/invoices');
    const inert = [...html.matchAll(/<button[^>]*aria-disabled="true"[^>]*>([\s\S]*?)<\/button>/g)].map(([, inner]) => readable(inner).trim());
    expect(inert).toEqual([
      'Download (not available in this demo)',
      'View (not available in this demo)',
      'Download (not available in this demo)',
      'View (not available in this demo)',
    ]);
  });

  it('opens New Invoice at /invoices?new with quantity 1, USD, and a price step of 0.01', async () => {
    const list = await page(visitor, '/invoices');
    expect(list).toMatch(/<a[^>]*href="\/invoices\?new"[^>]*>[\s\S]*?New Invoice<\/a>/);
    const html = await page(visitor, '/invoices?new');
    expect(html).toContain('role="dialog"');
    expect(readable(html)).toContain('Create New Invoice');
    expect(control(html, 'quantity')).toContain('value="1"');
    expect(control(html, 'unit_price')).toContain('step="0.01"');
    expect(control(html, 'unit_price')).toContain('min="0"');
    expect(selectedOption(html, 'currency')).toBe('USD');
    expect(readable(html)).toContain('Create Invoice');
  });

  it("creates an invoice after the wait and says 'Invoice created successfully!'", async () => {
    await expectCreated(visitor, '/invoices?new', valid, '/invoices', 'Invoice created successfully!');
  });

  it('answers each invalid field with a 400 and its error, keeping what was typed', async () => {
    const path = '/invoices?new';
    await expectRefused(visitor, path, without(valid, 'client_name'), 'client_name', 'Client name is required');
    await expectRefused(visitor, path, { ...valid, client_email: 'nope' }, 'client_email', 'Enter a valid email address');
    await expectRefused(visitor, path, without(valid, 'description'), 'description', 'Description is required');
    await expectRefused(visitor, path, { ...valid, unit_price: '-1' }, 'unit_price', 'Unit price must be an amount of at least 0');
    await expectRefused(visitor, path, { ...valid, quantity: '0' }, 'quantity', 'Quantity must be at least 1');
    await expectRefused(visitor, path, { ...valid, currency: 'JPY' }, 'currency', 'Choose a currency');
    const html = await expectRefused(visitor, path, without(valid, 'due_date'), 'due_date', 'Due date is required');
    // Nothing typed is lost.
    expect(control(html, 'client_name')).toContain('value="Acme Ltd"');
    expect(html).toContain('role="dialog"');
  });

  it('refuses a post from a visitor who is not signed in', async () => {
    const response = await new Visitor().post('/invoices?new', valid);
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toMatch(/^\/auth/);
  });
});
