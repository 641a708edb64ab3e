// What the PDF renderer needs to know about a quote or an invoice: plain
// values, no database rows, so the pages, the jobs runner and the benchmarks
// all build the same input. Money is integer cents (see Cents in money.ts).
import type { Cents } from '../money.ts';
import type { Seller } from '../seller.ts';

export type { Cents };

/** An instant or a calendar day: a Date, an ISO timestamp, or 'YYYY-MM-DD' (read as that day in UTC). */
export type DateInput = Date | string;

/** A decimal written as a number or as text: 2, '2.5', '8.25'. */
export type DecimalInput = number | string;

/** The account the document comes from. */
export interface PdfAccount {
  name: string;
  /** Where the recipient writes back; left out when null. */
  contactEmail: string | null;
}

/** The seller as the document was sent (decision 045): name, address, tax and bank details. */
export type PdfSeller = Seller;

/** The seller's logo as stored (PNG or JPEG bytes); checked again before it is drawn. */
export interface PdfLogo {
  bytes: Uint8Array;
}

/** Who the document is for; any part may be missing. */
export interface PdfContact {
  name: string | null;
  email: string | null;
  company: string | null;
}

export interface PdfLineItem {
  /** Any length; wraps inside its column and, when very long, across pages. */
  description: string;
  quantity: DecimalInput;
  unitPrice: Cents;
  /** As the database computed it: never recomputed here. */
  lineTotal: Cents;
}

/** What was recorded when a quote was accepted: becomes the signature certificate page. */
export interface PdfSignature {
  signerName: string;
  signerEmail: string;
  signedAt: DateInput;
  ip: string | null;
  userAgent: string | null;
  /** quoteContentHash of the quote when it was signed: 64 lower-case hex digits. */
  contentHash: string;
  /** The drawn signature (a PNG), when the signer drew one. */
  drawnSignaturePng?: Uint8Array | null;
}

export interface QuotePdfInput {
  account: PdfAccount;
  /** The seller's details; left out (name and email only) when absent. */
  seller?: PdfSeller | null;
  /** The seller's logo, drawn above its name. */
  logo?: PdfLogo | null;
  quoteNumber: string;
  /** The quote's status as stored ('draft', 'sent', 'viewed', 'signed', ...). */
  status: string;
  /** The day the quote was issued: the PDF's creation date too. */
  issuedAt: DateInput;
  expiresAt: DateInput | null;
  /** ISO 4217 code, e.g. 'USD'. */
  currency: string;
  contact: PdfContact | null;
  items: readonly PdfLineItem[];
  subtotal: Cents;
  /** Percent, 0–100. */
  discountPercent: DecimalInput;
  discount: Cents;
  /** Percent, 0–100, two decimals. */
  taxRate: DecimalInput;
  tax: Cents;
  total: Cents;
  notes: string | null;
  /** Present once the quote is signed: adds the signature certificate page. */
  signature?: PdfSignature | null;
}

export interface PdfPayment {
  paidOn: DateInput;
  /** As stored: 'bank_transfer', 'card', 'cash', 'other'. */
  method: string;
  reference: string | null;
  amount: Cents;
}

export interface InvoicePdfInput {
  account: PdfAccount;
  /** The seller's details; the payment section prints its terms and bank details. */
  seller?: PdfSeller | null;
  /** The seller's logo, drawn above its name. */
  logo?: PdfLogo | null;
  invoiceNumber: string;
  status: string;
  issuedAt: DateInput;
  dueDate: DateInput | null;
  currency: string;
  contact: PdfContact | null;
  items: readonly PdfLineItem[];
  subtotal: Cents;
  /** Percent and amount; no discount line when both are absent or zero. */
  discountPercent?: DecimalInput | null;
  discount?: Cents | null;
  /** Percent; the tax line shows it when given. */
  taxRate?: DecimalInput | null;
  tax: Cents;
  total: Cents;
  amountPaid: Cents;
  payments: readonly PdfPayment[];
  notes: string | null;
}
