// An invoice as a PDF, laid out as a quote: heading, items, totals with what
// was paid and what is still due, the payments, notes.
import { finishDocument, startDocument, toDate } from '../../../lib/pdf/document.ts';
import { canonicalDecimal, centsToBigInt, day, label, minusMoney, money, percent } from '../../../lib/pdf/format.ts';
import { drawHeading } from '../../../lib/pdf/heading.ts';
import { embedLogo } from '../../../lib/pdf/logo.ts';
import { drawItemsTable } from '../../../lib/pdf/items-table.ts';
import { drawPayments } from './payments.ts';
import { drawParagraphs, drawTotals } from '../../../lib/pdf/totals.ts';
import type { InvoicePdfInput } from '../../../lib/pdf/types.ts';
import { sellerBankLines } from '../../../lib/seller.ts';

export interface InvoicePdfOptions {
  /** 'embedded' for the Factur-X PDF (PDF/A-3 needs its fonts embedded, decision 052). */
  fonts?: 'standard' | 'embedded';
}

export async function renderInvoicePdf(invoice: InvoicePdfInput, options: InvoicePdfOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const { account, currency } = invoice;
  const document = `Invoice ${invoice.invoiceNumber}`;
  const recipient = invoice.contact?.company || invoice.contact?.name;
  const flow = await startDocument({
    title: document,
    author: invoice.seller?.name || account.name,
    subject: recipient ? `${document} for ${recipient}` : document,
    created: toDate(invoice.issuedAt),
    modified: toDate(invoice.issuedAt),
    fonts: options.fonts,
  });

  drawHeading(flow, {
    title: 'Invoice',
    account,
    seller: invoice.seller,
    logo: await embedLogo(flow, invoice.logo),
    facts: [
      ['Invoice number', invoice.invoiceNumber],
      ['Status', label(invoice.status)],
      ['Issue date', day(invoice.issuedAt)],
      ['Due date', invoice.dueDate === null ? 'On receipt' : day(invoice.dueDate)],
      ['Currency', currency],
    ],
    recipientLabel: 'Bill to',
    contact: invoice.contact,
  });
  drawItemsTable(flow, invoice.items, currency);
  // Exact: amounts may be past Number's safe range.
  const balance = centsToBigInt(invoice.total) - centsToBigInt(invoice.amountPaid);
  const hasRate = invoice.taxRate !== undefined && invoice.taxRate !== null;
  const discounted = centsToBigInt(invoice.discount ?? 0) !== 0n || canonicalDecimal(invoice.discountPercent ?? 0) !== '0';
  drawTotals(flow, [
    { label: 'Subtotal', value: money(invoice.subtotal, currency) },
    ...(discounted
      ? [{ label: `Discount (${percent(invoice.discountPercent ?? 0)})`, value: minusMoney(invoice.discount ?? 0, currency) }]
      : []),
    { label: hasRate ? `Tax (${percent(invoice.taxRate!)})` : 'Tax', value: money(invoice.tax, currency) },
    { label: 'Total', value: money(invoice.total, currency), strong: true },
    { label: 'Paid', value: minusMoney(invoice.amountPaid, currency) },
    { label: 'Balance due', value: money(balance, currency), strong: true },
  ]);
  if (invoice.payments.length > 0) drawPayments(flow, invoice.payments, currency);
  if (invoice.notes && invoice.notes.trim() !== '') drawParagraphs(flow, 'Notes', invoice.notes);
  // How to pay: the seller's terms, then its bank details.
  const payment = invoice.seller
    ? [invoice.seller.payment_terms, sellerBankLines(invoice.seller).join('\n')].filter(Boolean).join('\n\n')
    : '';
  if (payment.trim() !== '') drawParagraphs(flow, 'Payment', payment);
  return finishDocument(flow, `${document} · ${invoice.seller?.name || account.name}`);
}
