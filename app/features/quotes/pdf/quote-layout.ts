// A quote as a PDF: heading, items, totals, notes, and, once signed, the
// signature certificate page.
import { drawSignatureCertificate } from './certificate.ts';
import { finishDocument, startDocument, toDate } from '../../../lib/pdf/document.ts';
import { canonicalDecimal, centsToBigInt, day, label, minusMoney, money, percent } from '../../../lib/pdf/format.ts';
import { drawHeading } from '../../../lib/pdf/heading.ts';
import { embedLogo } from '../../../lib/pdf/logo.ts';
import { drawItemsTable } from '../../../lib/pdf/items-table.ts';
import { drawParagraphs, drawTotals } from '../../../lib/pdf/totals.ts';
import type { QuotePdfInput } from '../../../lib/pdf/types.ts';

export async function renderQuotePdf(quote: QuotePdfInput): Promise<Uint8Array<ArrayBuffer>> {
  const { account, currency } = quote;
  const document = `Quote ${quote.quoteNumber}`;
  const recipient = quote.contact?.company || quote.contact?.name;
  const flow = await startDocument({
    title: document,
    author: quote.seller?.name || account.name,
    subject: recipient ? `${document} for ${recipient}` : document,
    created: toDate(quote.issuedAt),
    modified: toDate(quote.signature?.signedAt ?? quote.issuedAt),
  });

  drawHeading(flow, {
    title: 'Quote',
    account,
    seller: quote.seller,
    logo: await embedLogo(flow, quote.logo),
    facts: [
      ['Quote number', quote.quoteNumber],
      ['Status', label(quote.status)],
      ['Issue date', day(quote.issuedAt)],
      ['Valid until', quote.expiresAt === null ? 'No expiry' : day(quote.expiresAt)],
      ['Currency', currency],
    ],
    recipientLabel: 'Prepared for',
    contact: quote.contact,
  });
  drawItemsTable(flow, quote.items, currency);
  // No discount, no discount line; tax shows even at 0%, as the rate applied.
  const discounted = centsToBigInt(quote.discount) !== 0n || canonicalDecimal(quote.discountPercent) !== '0';
  drawTotals(flow, [
    { label: 'Subtotal', value: money(quote.subtotal, currency) },
    ...(discounted ? [{ label: `Discount (${percent(quote.discountPercent)})`, value: minusMoney(quote.discount, currency) }] : []),
    { label: `Tax (${percent(quote.taxRate)})`, value: money(quote.tax, currency) },
    { label: 'Total', value: money(quote.total, currency), strong: true },
  ]);
  if (quote.notes && quote.notes.trim() !== '') drawParagraphs(flow, 'Notes', quote.notes);
  if (quote.signature) {
    await drawSignatureCertificate(flow, { document, accountName: account.name }, quote.signature);
  }
  return finishDocument(flow, `${document} · ${quote.seller?.name || account.name}`);
}
