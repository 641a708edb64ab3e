// The hash a signature records: canonical JSON (keys sorted at every depth),
// so the same quote hashes the same however its fields were ordered or its
// expiry spelled, and any change to what was signed changes the hash.
import { describe, expect, it } from 'vitest';
import { canonicalJson, quoteContentHash, type QuoteContent } from '../../app/features/quotes/public/content-hash';

const content: QuoteContent = {
  account_name: 'Linkwise Ltd',
  quote_number: 'Q-2026-0001',
  currency: 'EUR',
  items: [{ description: 'Survey', qty: 2, unit_price: 50_000, total: 100_000 }],
  subtotal: 100_000,
  discount: 5,
  discount_amount: 5_000,
  tax_rate: 10,
  tax_amount: 9_500,
  total: 104_500,
  expires_at: '2026-12-31T00:00:00+00:00',
  notes: null,
};

describe('quoteContentHash', () => {
  it('writes keys in order at every depth, without whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }] })).toBe('{"a":[{"c":null,"d":"x"}],"b":1}');
  });

  it('is the hex SHA-256 of the canonical JSON', async () => {
    const text = canonicalJson({ ...content, expires_at: '2026-12-31T00:00:00.000Z' } as never);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    const expected = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(text.startsWith('{"account_name":"Linkwise Ltd","currency":"EUR","discount":5,')).toBe(true);
    expect(await quoteContentHash(content)).toBe(expected);
  });

  it('ignores field order, extra fields and the spelling of the expiry', async () => {
    const shuffled = Object.fromEntries(Object.entries(content).reverse()) as unknown as QuoteContent;
    const extra = { ...content, id: 'not part of it', expires_at: '2026-12-31T00:00:00Z' } as QuoteContent;
    expect(await quoteContentHash(shuffled)).toBe(await quoteContentHash(content));
    expect(await quoteContentHash(extra)).toBe(await quoteContentHash(content));
  });

  it('changes with anything the client signed', async () => {
    const base = await quoteContentHash(content);
    expect(await quoteContentHash({ ...content, total: 104_501 })).not.toBe(base);
    expect(await quoteContentHash({ ...content, items: [{ ...content.items[0], description: 'Survey!' }] })).not.toBe(base);
    expect(await quoteContentHash({ ...content, notes: '' })).not.toBe(base);
  });
});
