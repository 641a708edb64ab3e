// One list of currencies and money in each currency's digits (issue 31,
// decision 046), through the Worker as a person meets it: the New Invoice and
// New Quote dialogs and Settings → Account offer the same list; a JPY invoice
// reads ¥1,000 (no cents) on its page, the list, the mail, the public page and
// the PDF; a price in fractions of a yen, or a due date in the past, is
// refused under its field, also when only the account's time zone makes it past.
import { env, exports } from 'cloudflare:workers';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../app/lib/currencies';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { expectRefused, page, readable } from './support/module-screens';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const day = (offset = 0) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const dayIn = (timeZone: string, offset = 0) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + offset * 86_400_000));

let admin: Visitor;
let accountId: string;

const valid = (changes: Record<string, string> = {}) => ({
  client_name: 'Kyoto Trading', client_email: `kyoto-${crypto.randomUUID().slice(0, 8)}@client.test`, description: 'Tea ceremony sets',
  unit_price: '1000', quantity: '1', currency: 'JPY', due_date: day(30), notes: '', ...changes,
});

async function createInvoice(changes: Record<string, string> = {}): Promise<string> {
  const response = await admin.post('/invoices?new', valid(changes));
  expect(response.status, readable(await response.clone().text()).slice(0, 300)).toBe(302);
  const html = await pageText(await admin.follow(response));
  const id = /href="\/invoices\/([0-9a-f-]{36})"/.exec(html)?.[1];
  if (!id) throw new Error('no invoice link on the list');
  return id;
}

const selectOptions = (html: string, name: string) => {
  const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  return [...(select?.[1] ?? '').matchAll(/<option[^>]*value="([^"]*)"/g)].map((m) => m[1]).filter(Boolean);
};

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  admin = fresh.visitor;
  accountId = (await accountOf(fresh.email)).accountId;
});

describe('one list of currencies', () => {
  it('New Invoice, New Quote and Settings → Account offer the same list, CHF and JPY included', async () => {
    const codes = CURRENCIES.map((c) => c.code);
    expect(selectOptions(await page(admin, '/invoices?new'), 'currency')).toEqual(codes);
    expect(selectOptions(await page(admin, '/quotes?new'), 'currency')).toEqual(codes);
    expect(selectOptions(await page(admin, '/settings/account'), 'default_currency')).toEqual(codes);
  });

  it('a JPY invoice reads ¥1,000, never ¥1,000.00: its page, the list, the mail, the public page and the PDF', async () => {
    const email = `yen-${crypto.randomUUID().slice(0, 8)}@client.test`;
    const id = await createInvoice({ client_email: email });
    const { data: stored } = await serviceClient().from('invoices').select('currency, total').eq('id', id).single();
    expect(stored).toEqual({ currency: 'JPY', total: 100_000 });
    const detail = readable(await page(admin, `/invoices/${id}`));
    expect(detail).toContain('¥1,000');
    expect(detail).not.toContain('¥1,000.00');
    const list = readable(await page(admin, '/invoices'));
    expect(list).toContain('¥1,000');
    expect(list).not.toContain('¥1,000.00');

    expect((await admin.post(`/invoices/${id}`, { intent: 'send' })).status).toBe(302);
    let mail: { text: string; html?: string } | undefined;
    for (let tries = 0; tries < 40 && !mail; tries++) {
      await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
      mail = ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; text: string }[]).find((m) => m.to === email);
    }
    expect(mail?.text).toContain('¥1,000');
    expect(mail?.text).not.toContain('¥1,000.00');
    const token = /\/i\/([A-Za-z0-9_-]{43})/.exec(mail!.text)![1];
    const view = readable(await (await new Visitor().get(`/i/${token}`)).text());
    expect(view).toContain('¥1,000');
    expect(view).not.toContain('¥1,000.00');
    const pdf = await admin.get(`/invoices/${id}/pdf`);
    const text = (await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true })).text;
    expect(text).toContain('1,000');
    expect(text).not.toContain('1,000.00');
  });

  it('refuses a price in fractions of a yen under its field, keeping what was typed', async () => {
    await expectRefused(admin, '/invoices?new', valid({ unit_price: '1000.50' }), 'unit_price', 'Unit price must be a whole amount in JPY');
    await expectRefused(admin, '/invoices?new', valid({ currency: 'XYZ' }), 'currency', 'Choose a currency');
    // Cents in a currency that has them, CHF among them.
    expect(await createInvoice({ currency: 'CHF', unit_price: '1000.50' })).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('an invoice due in the past', () => {
  it('New Invoice refuses a past due date under its field', async () => {
    const html = await expectRefused(admin, '/invoices?new', valid({ due_date: day(-3) }), 'due_date', 'The due date cannot be in the past');
    expect(html).toContain('value="Kyoto Trading"');
  });

  it("refuses a day that is past only in the account's time zone, under the field too", async () => {
    // Kiritimati (UTC+14) is the first place where a day starts: its yesterday is still today somewhere.
    await serviceClient().from('accounts').update({ timezone: 'Pacific/Kiritimati' }).eq('id', accountId);
    try {
      await expectRefused(admin, '/invoices?new', valid({ due_date: dayIn('Pacific/Kiritimati', -1) }), 'due_date', 'The due date cannot be in the past');
      const id = await createInvoice({ due_date: dayIn('Pacific/Kiritimati') });
      const edit = new URLSearchParams({ due_date: dayIn('Pacific/Kiritimati', -1), notes: '', tax_rate: '0', discount: '0' });
      edit.set('items[0].description', 'Tea'); edit.set('items[0].quantity', '1'); edit.set('items[0].unit_price', '1000');
      await expectRefused(admin, `/invoices/${id}/edit`, Object.fromEntries(edit), 'due_date', 'The due date cannot be in the past');
      // Far past: the form says it before the database is asked.
      edit.set('due_date', day(-3));
      await expectRefused(admin, `/invoices/${id}/edit`, Object.fromEntries(edit), 'due_date', 'The due date cannot be in the past');
      const { data } = await serviceClient().from('invoices').select('due_date').eq('id', id).single();
      expect(data).toEqual({ due_date: dayIn('Pacific/Kiritimati') });
    } finally {
      await serviceClient().from('accounts').update({ timezone: 'UTC' }).eq('id', accountId);
    }
  });
});
