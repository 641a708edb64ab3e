// An invoice as EN 16931 sees it: one pure step from what the invoice PDF
// shows (InvoicePdfInput), the seller (the `seller` snapshot of a sent
// invoice) and the buyer, to the business terms both syntaxes (UBL, CII)
// write. Amounts stay exact (bigint cents) and are written in the currency's
// minor units (two decimals; JPY whole yen).
// Decision 049 says what is mapped and why.
import { canonicalDecimal, centsToBigInt } from '../../../lib/pdf/format.ts';
import type { Cents, DecimalInput, InvoicePdfInput } from '../../../lib/pdf/types.ts';
import type { Seller } from '../../../lib/seller.ts';
import { minorUnits } from '../../../lib/currencies.ts';

/** The seller as a sent invoice keeps it (the `seller` snapshot, decision 045). */
export type SellerSnapshot = Seller;

/** What is known of the buyer beyond the invoice's contact. */
export interface BuyerDetails {
  /** Free text, as contacts.address holds it: the first line is the street, the others follow. */
  address?: string | null;
  /** ISO 3166-1 alpha-2, the client's country (BT-55); mandatory (BR-11), decision 052. */
  country?: string | null;
  /** The buyer's VAT number (BT-48), when known. */
  taxId?: string | null;
}

export interface EInvoiceInput {
  invoice: InvoicePdfInput;
  seller: SellerSnapshot;
  buyer?: BuyerDetails;
}

export interface Address {
  street: string | null;
  additionalStreet: string | null;
  city: string | null;
  postalCode: string | null;
  region: string | null;
  country: string;
}

export interface Party {
  name: string;
  email: string | null;
  address: Address;
  /** BT-31 / BT-48: a VAT number, with its country prefix. */
  vatId: string | null;
  /** BT-32: a tax number that is no VAT number (a GST, an EIN...). */
  taxRegistration: string | null;
  registration: string | null;
}

/** UNCL 5305 VAT category: S standard, Z zero rated, O not subject to VAT. */
export type VatCategory = 'S' | 'Z' | 'O';

export interface Line {
  id: string;
  name: string;
  /** Canonical decimal: '2', '2.5'. */
  quantity: string;
  /** UN/ECE Rec 20: C62, "one". */
  unitCode: 'C62';
  netPrice: string;
  netAmount: string;
}

export interface EInvoice {
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  /** BT-10: Peppol asks for a buyer reference or an order reference; we have neither, so the invoice number. */
  buyerReference: string;
  note: string | null;
  seller: Party;
  buyer: Party;
  /** BT-20, always present when there is no due date (BR-CO-25). */
  paymentTerms: string | null;
  /** BG-16, when the seller gave an IBAN (58 SEPA credit transfer in EUR, 30 credit transfer otherwise). */
  paymentMeans: { code: '58' | '30'; iban: string; bic: string | null; remittance: string } | null;
  lines: Line[];
  vat: {
    category: VatCategory;
    /** Canonical decimal percent, absent for O. */
    rate: string | null;
    taxableAmount: string;
    taxAmount: string;
    exemptionReason: string | null;
  };
  /** BG-20: the invoice's discount as one document-level allowance, absent when zero. */
  allowance: { amount: string; reason: string; percent: string | null } | null;
  totals: {
    lineNet: string; // BT-106
    allowances: string; // BT-107
    taxExclusive: string; // BT-109
    tax: string; // BT-110
    taxInclusive: string; // BT-112
    /** BT-113, absent when nothing was paid. */
    paid: string | null;
    payable: string; // BT-115
  };
}

/** What the e-invoice cannot be made without: each entry names the field to fill in. */
export class EInvoiceIncomplete extends Error {
  readonly missing: string[];
  constructor(missing: string[]) {
    super(`The e-invoice needs: ${missing.join(', ')}.`);
    this.name = 'EInvoiceIncomplete';
    this.missing = missing;
  }
}

/**
 * Integer cents (hundredths) rounded to the currency's minor units, half away
 * from zero as the app shows money (Intl's halfExpand): 2 → unchanged, 0 →
 * whole units (JPY: 10050n → 10100n, ¥100.50 → ¥101).
 */
export function roundCents(cents: Cents, minorUnits: number): bigint {
  const value = centsToBigInt(cents);
  const step = 10n ** BigInt(Math.max(0, 2 - minorUnits));
  if (step === 1n) return value;
  const abs = value < 0n ? -value : value;
  const rounded = ((abs + step / 2n) / step) * step;
  return value < 0n ? -rounded : rounded;
}

/**
 * Integer cents written with the currency's minor units: 123456 → '1234.56'
 * (2), -5 → '-0.05'; with 0 (JPY) 123400 → '1234'. Round first (roundCents):
 * digits beyond the minor units are cut off.
 */
export function amount(cents: Cents, minorUnits = 2): string {
  const value = centsToBigInt(cents);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = `${sign}${abs / 100n}`;
  const digits = Math.min(2, Math.max(0, minorUnits));
  return digits === 0 ? whole : `${whole}.${(abs % 100n).toString().padStart(2, '0').slice(0, digits)}`;
}

/**
 * A unit price (BT-146): in the currency's minor units when it has no more
 * (¥101), else its two decimals as stored; a price is not an amount and is
 * never rounded (the line's amount is).
 */
function price(cents: Cents, units: number): string {
  const value = centsToBigInt(cents);
  return roundCents(value, units) === value ? amount(value, units) : amount(value);
}

/** 'YYYY-MM-DD' of a day or an instant (UTC). */
export function isoDay(value: Date | string): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${String(value)}`);
  return date.toISOString().slice(0, 10);
}

/** A value as written: control characters (which XML cannot hold) dropped, trimmed; null when nothing is left. */
const text = (value: string | null | undefined) => {
  // eslint-disable-next-line no-control-regex
  const cleaned = (value ?? '').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '').trim();
  return cleaned === '' ? null : cleaned;
};
const country = (value: string | null | undefined) => {
  const code = text(value)?.toUpperCase() ?? null;
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
};
/** A VAT number starts with its country's code (BR-CO-09); 'GB 123 4567 89' → 'GB123456789'. */
const vatNumber = (value: string | null) => {
  const compact = value?.replace(/[\s.-]+/g, '').toUpperCase() ?? '';
  return /^(?:[A-Z]{2}|EL)[0-9A-Z+*]{2,13}$/.test(compact) ? compact : null;
};
const isZero = (value: DecimalInput | null | undefined) => value === null || value === undefined || canonicalDecimal(value) === '0';

/** The EN 16931 model of an invoice; throws EInvoiceIncomplete when a mandatory term has no value. */
export function toEInvoice({ invoice, seller, buyer = {} }: EInvoiceInput): EInvoice {
  const sellerName = text(seller.name);
  const sellerCountry = country(seller.country);
  const buyerName = text(invoice.contact?.company) ?? text(invoice.contact?.name);
  const buyerCountry = country(buyer.country);
  const sellerTaxId = text(seller.tax_id);
  const rate = isZero(invoice.taxRate) ? null : canonicalDecimal(invoice.taxRate!);
  const missing = [
    ...(text(invoice.invoiceNumber) ? [] : ['an invoice number (send the invoice first)']),
    ...(sellerName ? [] : ["the seller's name"]),
    ...(sellerCountry ? [] : ["the seller's country (Settings → Account)"]),
    ...(buyerName ? [] : ["the client's name"]),
    // BT-55 is mandatory (BR-11); assuming the seller's country would misstate a foreign sale.
    ...(buyerCountry ? [] : ["the client's country (Clients → the client → Edit)"]),
    ...(invoice.items.length > 0 ? [] : ['at least one line']),
    // Standard rated VAT needs the seller's VAT or tax number (BR-S-02).
    ...(rate === null || sellerTaxId ? [] : ["the seller's VAT or tax number (Settings → Account)"]),
  ];
  if (missing.length > 0 || !sellerName || !sellerCountry || !buyerName || !buyerCountry) throw new EInvoiceIncomplete(missing);

  const sellerVat = vatNumber(sellerTaxId);
  // A rate is standard VAT; no rate is zero rated for a seller with a VAT or
  // tax number, and not subject to VAT for one without (BR-Z, BR-O rules).
  const category: VatCategory = rate !== null ? 'S' : sellerTaxId ? 'Z' : 'O';
  // Amounts in the currency's minor units (JPY: whole yen), each stored
  // amount rounded once, the sums derived from the rounded parts so that
  // BR-CO-10, -13, -15 and -16 hold exactly.
  const units = minorUnits(invoice.currency);
  const lineAmounts = invoice.items.map((item) => roundCents(item.lineTotal, units));
  const lineNet = lineAmounts.reduce((sum, value) => sum + value, 0n);
  const discount = roundCents(invoice.discount ?? 0, units);
  const taxExclusive = lineNet - discount;
  const tax = roundCents(invoice.tax, units);
  const taxInclusive = taxExclusive + tax;
  const paid = roundCents(invoice.amountPaid, units);
  const money = (cents: bigint) => amount(cents, units);
  const dueDate = invoice.dueDate === null ? null : isoDay(invoice.dueDate);
  const iban = text(seller.iban)?.replace(/\s+/g, '').toUpperCase() ?? null;
  const [street, ...rest] = (buyer.address ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);

  return {
    number: invoice.invoiceNumber.trim(),
    issueDate: isoDay(invoice.issuedAt),
    dueDate,
    currency: invoice.currency,
    buyerReference: invoice.invoiceNumber.trim(),
    note: text(invoice.notes),
    seller: {
      name: sellerName,
      email: text(invoice.account.contactEmail),
      address: {
        street: text(seller.address_line1),
        additionalStreet: text(seller.address_line2),
        city: text(seller.city),
        postalCode: text(seller.postal_code),
        region: text(seller.region),
        country: sellerCountry,
      },
      vatId: sellerVat,
      taxRegistration: sellerVat ? null : sellerTaxId,
      registration: text(seller.company_registration),
    },
    buyer: {
      name: buyerName,
      email: text(invoice.contact?.email),
      address: {
        street: street ?? null,
        additionalStreet: rest.length > 0 ? rest.join(', ') : null,
        city: null,
        postalCode: null,
        region: null,
        country: buyerCountry,
      },
      // Not subject to VAT: no VAT number for either party (BR-O-02).
      vatId: category === 'O' ? null : vatNumber(text(buyer.taxId)),
      taxRegistration: null,
      registration: null,
    },
    paymentTerms: text(seller.payment_terms) ?? (dueDate === null ? 'Due on receipt' : null),
    paymentMeans: iban
      ? { code: invoice.currency === 'EUR' ? '58' : '30', iban, bic: text(seller.bic)?.toUpperCase() ?? null, remittance: invoice.invoiceNumber.trim() }
      : null,
    lines: invoice.items.map((item, index) => ({
      id: String(index + 1),
      name: text(item.description) ?? `Line ${index + 1}`,
      quantity: canonicalDecimal(item.quantity),
      unitCode: 'C62',
      netPrice: price(item.unitPrice, units),
      netAmount: money(lineAmounts[index]),
    })),
    vat: {
      category,
      rate: category === 'O' ? null : (rate ?? '0'),
      taxableAmount: money(taxExclusive),
      taxAmount: money(tax),
      exemptionReason: category === 'O' ? 'Not subject to VAT' : null,
    },
    allowance:
      discount !== 0n
        ? { amount: money(discount), reason: 'Discount', percent: isZero(invoice.discountPercent) ? null : canonicalDecimal(invoice.discountPercent!) }
        : null,
    totals: {
      lineNet: money(lineNet),
      allowances: money(discount),
      taxExclusive: money(taxExclusive),
      tax: money(tax),
      taxInclusive: money(taxInclusive),
      paid: paid === 0n ? null : money(paid),
      payable: money(taxInclusive - paid),
    },
  };
}
