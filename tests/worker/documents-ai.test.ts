// doc2data's optional AI provider through the jobs runner (decision 082),
// against the stand-in OpenAI-compatible API the global setup starts on
// loopback (tests/support/ai-stand-in.ts): a document whose template-free result
// fails its cross-checks is sent, one that passes them is not; a good answer
// fills what the extractor missed (never at 0.8); an answer the document
// does not bear out, one that is not JSON, one past the size cap and one past
// the deadline all leave the extractor's own result, and the document done.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { pageText, signUpFreshAdmin, type Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { extracted } from './support/documents';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The AI provider's stand-in (tests/support/ai-stand-in.ts), provided by global-setup.ts. */
    aiPort: number;
  }
}

const AI_KEY = 'sk-worker-test-doc2data';
// The AI stand-in (tests/support/ai-stand-in.ts), one of the hosts PROVIDER_ALLOW_HOSTS allows.
const standIn = `http://127.0.0.1:${inject('aiPort')}`;

/** A Dutch invoice the extractor half reads: no number label it knows, '21%' beside the tax, so its amounts do not add up. */
const FAILING = [
  'Blue Harbor Supplies BV',
  'Havenweg 12, 3011 Rotterdam',
  'BTW NL859123456B01',
  'Factuur',
  'Ref. BH-2025-0042',
  '3 maart 2025',
  'Betaal voor 2 april 2025',
  'Koffiebonen 2 x 40,00   80,00',
  'Filters   20,00',
  'Netto 100,00   BTW 21% 21,00',
  'Te betalen EUR 121,00',
  'IBAN NL91 ABNA 0417 1643 00',
].join('\n');

/** An invoice whose fields all pass the cross-checks: never sent. */
const PASSING = [
  'Northwind Traders Ltd',
  'VAT No: GB123456789',
  'INVOICE',
  'Invoice No: INV-2025-311',
  'Invoice Date: 14/03/2025',
  'Due Date: 13/04/2025',
  'Bill To: Acme Corporation',
  'Subtotal: £1,000.00',
  'VAT 20%: £200.00',
  'Total Due: £1,200.00',
].join('\n');

let accountId: string;
let admin: Visitor;
let integrationId: string | null = null;

async function pointProviderAt(behaviour: string, extra: Record<string, unknown> = {}): Promise<void> {
  const config = { api_url: `${standIn}/${behaviour}/v1`, api_key: AI_KEY, model: 'test-model', timeout_seconds: 2, ...extra };
  if (integrationId === null) {
    const { data, error } = await serviceClient().from('integrations').insert({ account_id: accountId, name: 'AI', type: 'ai', config }).select('id').single();
    if (error) throw new Error(error.message);
    integrationId = (data as { id: string }).id;
  } else {
    const { error } = await serviceClient().from('integrations').update({ config }).eq('id', integrationId);
    if (error) throw new Error(error.message);
  }
}

async function extract(text: string) {
  const path = `${accountId}/${crypto.randomUUID()}/pasted.txt`;
  const sha256 = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const { data, error } = await serviceClient()
    .from('documents')
    .insert({ account_id: accountId, title: 'Pasted', file_path: path, file_name: 'pasted.txt', file_size: text.length, mime_type: 'text/plain', sha256, text })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  const row = await extracted((data as { id: string }).id);
  expect(row.extraction_status).toBe('done');
  return row.fields;
}

const asked = async (): Promise<Record<string, number | string>> => (await fetch(`${standIn}/requests`)).json();

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  admin = fresh.visitor;
  accountId = (await accountOf(fresh.email)).accountId;
});

describe('the AI provider in the extraction job', () => {
  it('without a provider, extracts as before', async () => {
    const fields = await extract(FAILING);
    expect(fields.invoice_number).toBeUndefined();
    expect(fields.total).toEqual({ value: '121.00', confidence: 0.6 });
  });

  it('asks only about a failing result; a good answer fills the gaps below 0.8, the lines summing to the subtotal', async () => {
    await pointProviderAt('good');
    const before = Number((await asked()).good ?? 0);
    const passing = await extract(PASSING);
    expect(passing.invoice_number).toEqual({ value: 'INV-2025-311', confidence: 0.9 });
    expect((await asked()).good ?? 0).toBe(before);

    const fields = await extract(FAILING);
    expect(await asked()).toMatchObject({ good: before + 1, last_key: AI_KEY });
    expect(fields.invoice_number).toEqual({ value: 'BH-2025-0042', confidence: 0.6 });
    expect(fields.subtotal).toEqual({ value: '100.00', confidence: 0.7 });
    expect(fields.tax_amount).toEqual({ value: '21.00', confidence: 0.7 });
    expect(fields.total).toEqual({ value: '121.00', confidence: 0.7 });
    expect(fields.tax_id).toEqual({ value: 'NL859123456B01', confidence: 0.6 });
    expect(fields.due_date).toEqual({ value: '2025-04-02', confidence: 0.6 });
    expect((fields.line_items as unknown as { value: unknown[] }).value).toHaveLength(2);
    // What the extractor was sure of stays its own.
    expect(fields.iban).toEqual({ value: 'NL91ABNA0417164300', confidence: 0.98 });
    for (const field of Object.values(fields)) if (field !== fields.iban && field !== fields.kind && field !== fields.currency) expect(field.confidence).toBeLessThan(0.8);
  });

  it('drops what the document does not bear out: an unprinted number and supplier, amounts that do not add up, an unprinted date', async () => {
    await pointProviderAt('wrong');
    const fields = await extract(FAILING);
    expect(fields.invoice_number).toBeUndefined();
    expect(fields.supplier_name).toEqual({ value: 'Blue Harbor Supplies BV', confidence: 0.7 });
    expect(fields.subtotal?.value).not.toBe('100.00');
    expect(fields.issue_date).toEqual({ value: '2025-03-03', confidence: 0.5 });
    expect((await asked()).wrong).toBe(1);
  });

  it('a malformed answer, one past 256 KB and one past the deadline leave the extractor\'s result', async () => {
    const own = await (async () => {
      await pointProviderAt('none');
      return extract(FAILING);
    })();
    for (const behaviour of ['malformed', 'huge', 'hang']) {
      await pointProviderAt(behaviour);
      const started = Date.now();
      expect(await extract(FAILING), behaviour).toEqual(own);
      expect((await asked())[behaviour], behaviour).toBe(1);
      // The deadline (2 s in this integration's config) holds while the answer's body never comes.
      if (behaviour === 'hang') expect(Date.now() - started).toBeLessThan(8_000);
    }
  });

  it('refuses to save an AI integration at a private or plain-http address', async () => {
    for (const url of ['https://10.0.0.7/v1', 'http://api.example.com/v1']) {
      const response = await admin.post('/settings/integrations?new', {
        intent: 'save',
        name: 'Private AI',
        type: 'ai',
        editor: 'json',
        config: JSON.stringify({ api_url: url, api_key: 'sk-x', model: 'm' }),
      });
      expect(response.status, url).toBe(400);
      expect(await pageText(response)).toContain('Use an https URL of a public server');
    }
    const { data } = await serviceClient().from('integrations').select('id').eq('account_id', accountId).eq('name', 'Private AI');
    expect(data).toEqual([]);
  });

  it('never reaches a private address that is not allowed', async () => {
    await pointProviderAt('good', { api_url: 'http://127.0.0.1:9/v1' });
    const before = (await asked()).good;
    const fields = await extract(FAILING);
    expect(fields.invoice_number).toBeUndefined();
    expect((await asked()).good).toBe(before);
  });
});
