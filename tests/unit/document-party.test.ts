// Whose document it is (decision 048): a supplier's invoice is a bill, the
// account's own a sale, whatever legal form, case or punctuation the names carry.
import { describe, expect, it } from 'vitest';
import { companyKey, documentParty } from '../../app/features/documents/document-party.ts';
import type { DocumentFields } from '../../app/features/documents/extraction/fields.ts';

const fields = (values: Record<string, string>): DocumentFields =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, confidence: 1 }]));
const account = { name: 'OpsHub Pro' };

describe('documentParty', () => {
  it("is a bill when the supplier is someone else, whoever the customer is", () => {
    expect(documentParty(fields({ supplier_name: 'Northwind Traders Ltd', customer_name: 'OpsHub Pro' }), account)).toBe('bill');
    expect(documentParty(fields({ supplier_name: 'Northwind Traders Ltd', customer_name: 'Acme' }), account)).toBe('bill');
  });

  it("is a sale when the supplier is the account itself, in any legal form or case", () => {
    expect(documentParty(fields({ supplier_name: 'OPSHUB PRO, Inc.', customer_name: 'Acme' }), account)).toBe('sale');
    expect(documentParty(fields({ supplier_name: 'Müller GmbH' }), { name: 'Muller' })).toBe('sale');
  });

  it("is a sale when the document's tax id is one of the account's, whatever the name says", () => {
    expect(documentParty(fields({ supplier_name: 'OH Pro Trading', tax_id: 'GB 123 456 789' }), { ...account, taxIds: ['GB123456789'] })).toBe('sale');
    expect(documentParty(fields({ supplier_name: 'Northwind', tax_id: 'GB999' }), { ...account, taxIds: ['GB123456789', null] })).toBe('bill');
  });

  it('is a bill when only the customer is named and it is the account; else unsure', () => {
    expect(documentParty(fields({ customer_name: 'OpsHub Pro Ltd' }), account)).toBe('bill');
    expect(documentParty(fields({ customer_name: 'Acme' }), account)).toBe('unsure');
    expect(documentParty(fields({}), account)).toBe('unsure');
    // An account whose name is only a legal form matches nothing.
    expect(documentParty(fields({ supplier_name: 'Ltd' }), { name: 'Ltd.' })).toBe('bill');
  });

  it('keys a company by its words', () => {
    expect(companyKey('  The Northwind Traders Ltd. ')).toBe('northwind traders');
  });
});
