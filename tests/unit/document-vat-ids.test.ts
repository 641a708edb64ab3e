// VAT ids printed without a label the extractor knows: found by their
// country's format and check digit, never from an IBAN, an order number or an
// id whose check digit is wrong.
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
import { unlabelledVatIds } from '../../app/features/documents/extraction/vat-ids.ts';

const ids = (text: string) => unlabelledVatIds(text.split('\n').map((line) => ({ text: line }))).map((id) => id.value);

describe('unlabelledVatIds', () => {
  it('finds ids of each country whose check digit is right, as printed', () => {
    for (const id of ['DE136695976', 'ATU13585627', 'IT01484710387', 'FR40303265045', 'NL810433941B01', 'NL000099998B57', 'BE0428759497', 'PL5260250274', 'PT501964843', 'GB 123 4567 89', 'ESB12345678', 'CHE-123.456.789', '27AAPFU0939F1ZV']) {
      expect(ids(`Musterfirma GmbH · ${id} · Berlin`), id).toEqual([id]);
    }
  });

  it('refuses an id whose check digit is wrong, an IBAN, an order number and an id run into more digits', () => {
    expect(ids('DE136695977')).toEqual([]);
    expect(ids('IT01484710388')).toEqual([]);
    expect(ids('PL5260250275')).toEqual([]);
    expect(ids('IBAN DE89 3704 0044 0532 0130 00')).toEqual([]);
    expect(ids('IBAN DE89370400440532013000')).toEqual([]);
    expect(ids('Order DE20251234')).toEqual([]);
    expect(ids('Ref DE136695976 123')).toEqual([]);
    expect(ids('XDE136695976')).toEqual([]);
  });

  it('stops at its limit on a text of thousands of ids, reading each line once', () => {
    const text = Array.from({ length: 5_000 }, () => 'DE136695976 DE136695976').join('\n');
    expect(ids(text)).toHaveLength(20);
  });
});

describe('the supplier tax id without a label', () => {
  it('is the VAT id in its country format, given below 0.8', () => {
    const { fields } = extractFields(['Rechnung Nr. 4711', 'Musterfirma GmbH · Hauptstraße 1 · 10115 Berlin · DE136695976', 'Summe 119,00 EUR'].join('\n'));
    expect(fields.tax_id).toEqual({ value: 'DE136695976', confidence: 0.6 });
  });

  it('is not an id on the buyer line when the seller prints one too', () => {
    const { fields } = extractFields(['Invoice 7', 'Seller: Acme SARL FR40303265045', 'Customer: Beta GmbH DE136695976', 'Total 10.00 EUR'].join('\n'));
    expect(fields.tax_id?.value).toBe('FR40303265045');
  });

  it('is the VAT id before a national tax number when labels name both', () => {
    const { fields } = extractFields(['Rechnung Nr. 4711', 'Tax No.: 201/113/40209', 'VAT ID: DE136695976', 'Summe 119,00 EUR'].join('\n'));
    expect(fields.tax_id?.value).toBe('DE136695976');
  });
});
