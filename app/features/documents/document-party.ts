// Whose document is it (decision 048)? An invoice whose supplier is the
// account itself is the account's own sale (Create invoice); one from anyone
// else is a bill to pay (Record bill) — never a sales invoice to the
// supplier's address. Read from the fields as stored (a person's corrections
// included); the person can still choose the other way on the page.
// Relative imports only: the unit tests load this in Node.
import type { DocumentFields } from './extraction/fields.ts';

/** 'sale': the account issued it; 'bill': a supplier did; 'unsure': the fields do not say. */
export type DocumentParty = 'sale' | 'bill' | 'unsure';

/** What the account is known by: its name, and its tax ids when it has any on file. */
export interface AccountIdentity {
  name: string;
  taxIds?: readonly (string | null | undefined)[];
}

/** Words a company name carries or drops without being another company. */
const LEGAL_FORMS = new Set([
  'inc', 'incorporated', 'llc', 'llp', 'ltd', 'limited', 'plc', 'co', 'corp', 'corporation', 'company', 'gmbh', 'ag', 'kg',
  'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv', 'oy', 'ab', 'as', 'pty', 'the',
]);

/** 'Northwind Traders Ltd.' → 'northwind traders': lower case, accents, punctuation and legal forms dropped. */
export function companyKey(name: string | null | undefined): string {
  return (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word && !LEGAL_FORMS.has(word))
    .join(' ');
}

/** 'DE 123.456-789' → 'DE123456789'. */
export function taxIdKey(value: string | null | undefined): string {
  return (value ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
}

const sameCompany = (a: string | null | undefined, b: string) => {
  const key = companyKey(a);
  return key !== '' && key === companyKey(b);
};

/**
 * The document's party. The tax id on a document is most often the seller's:
 * when it is one of the account's, the account sold. Else the supplier's
 * name decides; a document naming no supplier is a bill when its customer is
 * the account, and unsure otherwise.
 */
export function documentParty(fields: DocumentFields, account: AccountIdentity): DocumentParty {
  const supplier = fields.supplier_name?.value.trim() || null;
  const customer = fields.customer_name?.value.trim() || null;
  const taxId = taxIdKey(fields.tax_id?.value);
  const ownTaxIds = (account.taxIds ?? []).map(taxIdKey).filter(Boolean);
  if (taxId && ownTaxIds.includes(taxId)) return 'sale';
  if (supplier && sameCompany(supplier, account.name)) return 'sale';
  if (supplier) return 'bill';
  if (customer && sameCompany(customer, account.name)) return 'bill';
  return 'unsure';
}
