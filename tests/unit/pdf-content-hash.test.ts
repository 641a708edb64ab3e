// The hash a signature is bound to: its canonical form, and that it moves
// with the content and only with it.
import { describe, expect, it } from 'vitest';
import { quoteCanonicalJson, quoteContentHash } from '../../app/lib/pdf/index.ts';
import { sampleQuote } from '../support/quote-pdf-samples.ts';

describe('quoteContentHash', () => {
  it('is SHA-256 of the canonical JSON, sorted keys and exact values', async () => {
    const quote = sampleQuote(1, {
      items: [{ description: 'Setup', quantity: '2.50', unitPrice: 1000, lineTotal: '2500' }],
      subtotal: 2500,
      discountPercent: '0',
      discount: 0,
      taxRate: 8.25,
      tax: 206,
      total: 2706n,
      expiresAt: '2026-12-20',
      notes: null,
    });
    const json = quoteCanonicalJson(quote);
    expect(json).toBe(
      '{"contact":{"company":"Analytical Engines Ltd","email":"ada@analytical.example","name":"Ada Lovelace"},' +
        '"currency":"USD","discount":"0","discount_percent":"0","expires_at":"2026-12-20T00:00:00.000Z",' +
        '"items":[{"description":"Setup","line_total":"2500","quantity":"2.5","unit_price":"1000"}],' +
        '"notes":null,"number":"Q-2026-0007","subtotal":"2500","tax":"206","tax_rate":"8.25","total":"2706","v":1}',
    );
    // SHA-256 of that text (computed with Node's crypto when the form was fixed):
    // a change to the canonical form shows here, and would orphan stored hashes.
    expect(await quoteContentHash(quote)).toBe('e2ea926e2b1803c2d6f0a8987cd62b0fd2879b35fe0bc36d1ccba1d5929965cd');
  });

  it('is the same whatever form the values come in', async () => {
    const quote = sampleQuote(3);
    const same = {
      ...quote,
      items: quote.items.map((item) => ({ ...item, quantity: `${item.quantity}.0`, unitPrice: BigInt(item.unitPrice), lineTotal: String(item.lineTotal) })),
      subtotal: BigInt(quote.subtotal),
      discountPercent: '10.00',
      taxRate: 8.25,
      expiresAt: new Date('2026-12-20T00:00:00Z'),
      status: 'signed',
      issuedAt: '2027-01-01',
    };
    expect(await quoteContentHash(same)).toBe(await quoteContentHash(quote));
  });

  it('changes when anything the signer accepted changes', async () => {
    const quote = sampleQuote(3);
    const base = await quoteContentHash(quote);
    const changes = [
      { quoteNumber: 'Q-2026-0008' },
      { currency: 'EUR' },
      { total: '1' },
      { discountPercent: 11 },
      { taxRate: '8.26' },
      { expiresAt: '2026-12-21' },
      { expiresAt: null },
      { notes: 'Other terms' },
      { contact: { ...quote.contact!, email: 'other@example.com' } },
      { contact: null },
      { items: quote.items.slice(1) },
      { items: [...quote.items].reverse() },
      { items: quote.items.map((item, i) => (i === 0 ? { ...item, description: `${item.description} ` } : item)) },
    ];
    const hashes = await Promise.all(changes.map((change) => quoteContentHash({ ...quote, ...change })));
    for (const [index, hash] of hashes.entries()) expect(hash, JSON.stringify(changes[index])).not.toBe(base);
    expect(new Set(hashes).size).toBe(changes.length);
  });

  it('refuses amounts that are not whole cents and quantities that are not decimals', () => {
    expect(() => quoteCanonicalJson(sampleQuote(1, { total: 12.5 }))).toThrow(RangeError);
    expect(() => quoteCanonicalJson(sampleQuote(1, { total: '1e3' }))).toThrow(RangeError);
    expect(() => quoteCanonicalJson(sampleQuote(1, { discountPercent: Number.NaN }))).toThrow(RangeError);
  });
});
