// doc2data's optional AI provider, its pure parts (decision 082): which results
// are sent (the cross-checks they fail), the request (a JSON schema in
// response_format), the answer held to the same checks, how it is merged, and
// which URLs may be called. The calls themselves: tests/worker/documents-ai.test.ts.
import { describe, expect, it } from 'vitest';
import { AiAnswerError, answerObject, chatRequest, checkedAnswer, mergeAnswer } from '~/features/documents/extraction/ai-answer';
import { providerUrlProblem } from '~/lib/provider-fetch';
import { failedChecks } from '~/features/documents/extraction/cross-checks';
import { extractFields } from '~/features/documents/extraction/extract-fields';

const TEXT = [
  'Blue Harbor Supplies BV',
  'BTW NL859123456B01',
  'Factuur',
  'Ref. BH-2025-0042',
  '3 maart 2025',
  'Betaal voor 2 april 2025',
  'Netto 100,00   BTW 21% 21,00',
  'Te betalen EUR 121,00',
].join('\n');

const answer = { invoice_number: 'BH-2025-0042', supplier_name: 'Blue Harbor Supplies BV', tax_id: 'NL859123456B01', issue_date: '2025-03-03', due_date: '2025-04-02', currency: 'EUR', subtotal: '100.00', tax_amount: '21.00', total: '121.00', line_items: [] };

describe('failedChecks', () => {
  it('passes a result whose amounts add up and whose core fields are there; names what a failing one lacks', () => {
    const sure = { kind: { value: 'invoice', confidence: 0.9 }, invoice_number: { value: 'A-1', confidence: 0.9 }, issue_date: { value: '2025-01-01', confidence: 0.9 }, due_date: { value: '2025-01-31', confidence: 0.9 }, currency: { value: 'EUR', confidence: 0.9 }, supplier_name: { value: 'X BV', confidence: 0.7 }, subtotal: { value: '100.00', confidence: 0.95 }, tax_amount: { value: '21.00', confidence: 0.95 }, total: { value: '121.00', confidence: 0.95 } };
    expect(failedChecks(sure)).toEqual([]);
    expect(failedChecks({ ...sure, tax_amount: { value: '20.00', confidence: 0.95 }, due_date: { value: '2024-12-01', confidence: 0.9 } })).toEqual(['subtotal + tax is not the total', 'due date before the issue date']);
    expect(failedChecks(extractFields(TEXT).fields)).toContain('no invoice_number');
  });
});

describe('the request and the answer', () => {
  it('asks for the fields with a strict JSON schema, the text cut to its cap', () => {
    const body = chatRequest('m', 'x'.repeat(100_000)) as { response_format: { type: string; json_schema: { strict: boolean; schema: { required: string[] } } }; messages: { content: string }[] };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.required).toEqual(expect.arrayContaining(['invoice_number', 'total', 'line_items']));
    expect(body.messages[1].content.length).toBe(24_000);
  });

  it('reads the JSON object of the first choice, and refuses anything else', () => {
    expect(answerObject({ choices: [{ message: { content: '```json\n{"total":"1.00"}\n```' } }] })).toEqual({ total: '1.00' });
    expect(() => answerObject({ choices: [{ message: { content: 'no' } }] })).toThrow(AiAnswerError);
    expect(() => answerObject({ choices: [{ message: { content: '[1]' } }] })).toThrow(AiAnswerError);
    expect(() => answerObject({})).toThrow(AiAnswerError);
  });

  it('keeps what the document bears out, below 0.8; drops the rest', () => {
    const kept = checkedAnswer(answer, TEXT);
    expect(kept.invoice_number).toEqual({ value: 'BH-2025-0042', confidence: 0.6 });
    expect(kept.total).toEqual({ value: '121.00', confidence: 0.7 });
    const dropped = checkedAnswer({ ...answer, invoice_number: 'INV-1', tax_id: '121.00', issue_date: '2025-03-04', subtotal: '21.00', currency: 'USD', iban: 'NL00ABNA0417164300' }, TEXT);
    expect(dropped.invoice_number).toBeUndefined();
    expect(dropped.tax_id).toBeUndefined();
    expect(dropped.issue_date).toBeUndefined();
    expect(dropped.currency).toBeUndefined();
    expect(dropped.iban).toBeUndefined();
    // Amounts that do not add up go together; a lone printed total stays, less sure.
    expect(dropped.subtotal).toBeUndefined();
    expect(dropped.total).toBeUndefined();
    expect(checkedAnswer({ total: '121.00' }, TEXT).total).toEqual({ value: '121.00', confidence: 0.5 });
    // A due date before the issue date is dropped.
    expect(checkedAnswer({ ...answer, issue_date: '2025-04-02', due_date: '2025-03-03' }, TEXT).due_date).toBeUndefined();
  });

  it('reads a hostile text in bounded time (a pasted line of 200,000 digits and dots)', () => {
    const started = performance.now();
    checkedAnswer({ ...answer, line_items: Array.from({ length: 500 }, () => ({ description: 'x', amount: '1.00' })) }, '9.'.repeat(100_000));
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('never replaces what the extractor was sure of', () => {
    const own = { invoice_number: { value: 'OWN-1', confidence: 0.9 }, total: { value: '121.00', confidence: 0.95 }, subtotal: { value: '100.00', confidence: 0.95 }, tax_amount: { value: '21.00', confidence: 0.95 } };
    const merged = mergeAnswer(own, checkedAnswer(answer, TEXT));
    expect(merged.invoice_number).toEqual(own.invoice_number);
    expect(merged.total).toEqual(own.total);
    expect(merged.tax_id).toEqual({ value: 'NL859123456B01', confidence: 0.6 });
  });
});

describe("the AI provider's URL (the shared provider rule, app/lib/provider-fetch.ts)", () => {
  it('calls public https hosts only, unless the local stand-in is allowed by name', () => {
    expect(providerUrlProblem('https://api.openai.com/v1/chat/completions', undefined)).toBeNull();
    expect(providerUrlProblem('http://api.openai.com/v1', undefined)).toBe('Enter a URL starting with https://');
    for (const url of ['https://127.0.0.1/v1', 'https://10.0.0.5/v1', 'https://169.254.169.254/latest', 'https://[::1]/v1', 'https://localhost/v1', 'https://ollama/v1', 'https://api.internal/v1']) {
      expect(providerUrlProblem(url, undefined), url).toBe('Use the address of a public server');
    }
    expect(providerUrlProblem('https://user:pw@api.example.com/v1', undefined)).toBe('Leave credentials out of the URL');
    expect(providerUrlProblem('http://127.0.0.1:8123/v1', '127.0.0.1:8123')).toBeNull();
    expect(providerUrlProblem('http://127.0.0.1:8124/v1', '127.0.0.1:8123')).toBe('Enter a URL starting with https://');
  });
});
