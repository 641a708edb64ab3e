// Quote and invoice inputs for the PDF renderer, shared by the unit tests,
// the Worker test and the benchmark. Totals are computed as the database
// does (half-up to the cent), in bigint so large amounts stay exact.
import { type InvoicePdfInput, type PdfLineItem, type PdfSeller, type PdfSignature, type QuotePdfInput, quoteContentHash } from '../../app/lib/pdf/index.ts';

const LONG =
  'Implementation workshop covering data migration, single sign-on configuration, role mapping for ' +
  'every department, two rounds of user acceptance testing, and a written hand-over with runbooks.';

/** Half-up division of a non-negative bigint. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

export function sampleItems(count: number): PdfLineItem[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    const quantity = (n % 5) + 1;
    const unitPrice = 12_500 + n * 100;
    return {
      description: n % 7 === 0 ? `Line ${n}: ${LONG}` : `Line ${n}: Consulting hours`,
      quantity,
      unitPrice,
      lineTotal: quantity * unitPrice,
    };
  });
}

/** A quote with `count` line items, 10% discount and 8.25% tax. */
export function sampleQuote(count: number, overrides: Partial<QuotePdfInput> = {}): QuotePdfInput {
  const items = overrides.items ?? sampleItems(count);
  const subtotal = items.reduce((sum, item) => sum + BigInt(item.lineTotal), 0n);
  const discount = divideHalfUp(subtotal * 10n, 100n);
  const tax = divideHalfUp((subtotal - discount) * 825n, 10_000n);
  return {
    account: { name: 'Northwind Trading', contactEmail: 'sales@northwind.example' },
    quoteNumber: 'Q-2026-0007',
    status: 'sent',
    issuedAt: '2026-11-20T09:30:00Z',
    expiresAt: '2026-12-20',
    currency: 'USD',
    contact: { name: 'Ada Lovelace', email: 'ada@analytical.example', company: 'Analytical Engines Ltd' },
    items,
    subtotal: subtotal.toString(),
    discountPercent: 10,
    discount: discount.toString(),
    taxRate: '8.25',
    tax: tax.toString(),
    total: (subtotal - discount + tax).toString(),
    notes: 'Prices valid for 30 days.\nPayment within 14 days of the invoice.',
    ...overrides,
  };
}

/** A 1×1 PNG, as a drawn signature. */
export const TINY_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (char) => char.charCodeAt(0),
);

export function sampleSignature(contentHash: string, overrides: Partial<PdfSignature> = {}): PdfSignature {
  return {
    signerName: 'Ada Lovelace',
    signerEmail: 'ada@analytical.example',
    signedAt: '2026-11-22T14:05:09Z',
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36',
    contentHash,
    drawnSignaturePng: TINY_PNG,
    ...overrides,
  };
}

export function sampleInvoice(count: number, overrides: Partial<InvoicePdfInput> = {}): InvoicePdfInput {
  const items = overrides.items ?? sampleItems(count);
  const subtotal = items.reduce((sum, item) => sum + BigInt(item.lineTotal), 0n);
  const tax = divideHalfUp(subtotal * 825n, 10_000n);
  const total = subtotal + tax;
  const paid = total / 2n;
  return {
    account: { name: 'Northwind Trading', contactEmail: 'billing@northwind.example' },
    invoiceNumber: 'INV-2026-0042',
    status: 'pending',
    issuedAt: '2026-11-21',
    dueDate: '2026-12-05',
    currency: 'EUR',
    contact: { name: 'Grace Hopper', email: 'grace@cobol.example', company: 'Compiler Works' },
    items,
    subtotal: subtotal.toString(),
    taxRate: 8.25,
    tax: tax.toString(),
    total: total.toString(),
    amountPaid: paid.toString(),
    payments: [{ paidOn: '2026-11-25', method: 'bank_transfer', reference: 'SEPA-88121', amount: paid.toString() }],
    notes: null,
    ...overrides,
  };
}

/** The 3-line sample quote, signed (its certificate carries its content hash). */
export async function signedSampleQuote(): Promise<QuotePdfInput> {
  const quote = sampleQuote(3, { status: 'signed' });
  return { ...quote, signature: sampleSignature(await quoteContentHash(quote)) };
}

/**
 * SHA-256 of renderQuotePdf(await signedSampleQuote()): the unit tests (Node)
 * and the Worker test (workerd) both expect it, which proves the same input
 * gives the same bytes in both. A deliberate change to the layout changes it:
 * update it then, never to make a run pass by itself. (Changed by issue 30: the
 * certificate's note names the stored snapshot, and the drawn signature is drawn
 * re-encoded within bounds.)
 */
export const SIGNED_SAMPLE_PDF_SHA256 = '2ca1133f4c5e548248866ce0452fa6f617c0d61c63fd14930283993d4b789ea1';

/** A seller with every detail filled (decision 045). */
export const SAMPLE_SELLER: PdfSeller = {
  name: 'Northwind Trading GmbH',
  address_line1: '1 Harbour Street',
  address_line2: 'Floor 2',
  postal_code: '10115',
  city: 'Berlin',
  region: null,
  country: 'DE',
  tax_id: 'DE123456789',
  company_registration: 'HRB 12345',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  bank_details: 'Commerzbank Berlin',
  payment_terms: 'Net 30. Thank you for your business.',
  logo_path: null,
  accent_color: '#1a7f5a',
};
