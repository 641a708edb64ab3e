// A purchase order as a PDF (decision 077): the quote's heading (the seller's
// name, logo, address and tax details as on quotes, decision 045), the lines
// and the total, from the shared pieces in app/lib/pdf. Plain values in, so
// the job and a test build the same input.
import { finishDocument, startDocument, toDate } from '~/lib/pdf/document';
import { day, money } from '~/lib/pdf/format';
import { drawHeading } from '~/lib/pdf/heading';
import { drawItemsTable } from '~/lib/pdf/items-table';
import { embedLogo } from '~/lib/pdf/logo';
import { drawParagraphs, drawTotals } from '~/lib/pdf/totals';
import type { Cents, PdfAccount, PdfLineItem, PdfLogo, PdfSeller } from '~/lib/pdf/types';

export interface PurchaseOrderPdfInput {
  account: PdfAccount;
  seller: PdfSeller | null;
  logo?: PdfLogo | null;
  poNumber: string;
  issuedAt: string;
  expectedOn: string | null;
  currency: string;
  supplier: { name: string; email: string | null };
  items: readonly PdfLineItem[];
  total: Cents;
  notes: string | null;
}

export async function renderPurchaseOrderPdf(po: PurchaseOrderPdfInput): Promise<Uint8Array<ArrayBuffer>> {
  const title = `Purchase order ${po.poNumber}`;
  const buyer = po.seller?.name || po.account.name;
  const flow = await startDocument({
    title,
    author: buyer,
    subject: `${title} for ${po.supplier.name}`,
    created: toDate(po.issuedAt),
    modified: toDate(po.issuedAt),
  });
  drawHeading(flow, {
    title: 'Purchase Order',
    account: po.account,
    seller: po.seller,
    logo: await embedLogo(flow, po.logo),
    facts: [
      ['PO number', po.poNumber],
      ['Issue date', day(po.issuedAt)],
      ['Expected on', po.expectedOn ? day(po.expectedOn) : 'Not set'],
      ['Currency', po.currency],
    ],
    recipientLabel: 'Supplier',
    contact: { name: po.supplier.name, email: po.supplier.email, company: null },
  });
  drawItemsTable(flow, po.items, po.currency);
  drawTotals(flow, [{ label: 'Total', value: money(po.total, po.currency), strong: true }]);
  if (po.notes && po.notes.trim() !== '') drawParagraphs(flow, 'Notes', po.notes);
  return finishDocument(flow, `${title} · ${buyer}`);
}
