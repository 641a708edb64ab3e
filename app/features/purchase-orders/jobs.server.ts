// The jobs of purchase orders (listed by app/jobs/registry.server.ts):
//   purchase_order_send  queued by the po_sent event (20261205100001): mails
//                        the supplier the order with its PDF attached.
// Runs in the jobs runner with the service role, never in the request.
import type { SupabaseClient } from '@supabase/supabase-js';
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import type { Database } from '~/lib/database.types';
import { sendAccountMail } from '~/lib/mail/send-mail.server';
import { pdfAttachment, pdfFileName } from '~/lib/pdf/delivery';
import type { Seller } from '~/lib/seller';
import { sellerLogo } from '~/lib/seller-logo.server';
import { renderPurchaseOrderPdf, type PurchaseOrderPdfInput } from './pdf/po-layout';
import { purchaseOrderMail } from './po-mail';

type Client = SupabaseClient<Database>;

/** What purchase_order_document answers (20261206100002): amounts as text, exact. */
interface OrderDocument {
  order: {
    id: string; account_id: string; po_number: string; status: string; supplier_name: string; supplier_email: string | null;
    currency: string; total: string; expected_on: string | null; notes: string | null; sent_at: string | null; created_at: string;
  };
  items: { description: string; qty: number; unit_price: string; total: string }[];
  seller: Seller & { billing_email: string | null };
}

/**
 * The order as its PDF shows it, with the account's seller details now (the mail goes out as it is sent),
 * in one read: purchase_order_document answers the service role (the runner) and whoever may read the order
 * (staff of its account, the supplier it is addressed to once sent); anyone else, or no such order, null.
 */
export async function purchaseOrderDocument(client: Client, id: string) {
  const { data, error } = await client.rpc('purchase_order_document', { p_purchase_order_id: id });
  if (error) throw new Error(`reading purchase order ${id} failed: ${error.message}`);
  if (!data) return null;
  const { order: po, items, seller: withEmail } = data as unknown as OrderDocument;
  const { billing_email, ...seller } = withEmail;
  const input: PurchaseOrderPdfInput = {
    account: { name: seller.name, contactEmail: billing_email ?? null },
    seller,
    poNumber: po.po_number,
    issuedAt: po.sent_at ?? po.created_at,
    expectedOn: po.expected_on,
    currency: po.currency,
    supplier: { name: po.supplier_name, email: po.supplier_email },
    items: items.map((item) => ({ description: item.description, quantity: item.qty, unitPrice: item.unit_price, lineTotal: item.total })),
    total: po.total,
    notes: po.notes,
  };
  return { po, seller, input };
}

const purchaseOrderSend: JobHandler = async (payload, { admin, env, job }) => {
  const id = payloadText(payload, 'purchase_order_id');
  const document = await purchaseOrderDocument(admin, id);
  if (!document) throw new PermanentJobError(`Purchase order ${id} no longer exists`);
  const { po, seller, input } = document;
  if (job.account_id && job.account_id !== po.account_id) throw new PermanentJobError('The job and the purchase order belong to different accounts');
  // Cancelled before the runner got to it: the supplier is not sent an order that no longer stands.
  if (po.status === 'cancelled' || po.status === 'draft') return;
  if (!po.supplier_email) throw new PermanentJobError('The purchase order has no supplier email');
  const pdf = await renderPurchaseOrderPdf({ ...input, logo: await sellerLogo(seller) });
  const mail = purchaseOrderMail({
    buyerName: seller.name,
    poNumber: po.po_number,
    supplierName: po.supplier_name,
    total: Number(po.total),
    currency: po.currency,
    expectedOn: po.expected_on,
    seller,
  });
  await sendAccountMail(admin, env, po.account_id, {
    to: po.supplier_email,
    ...mail,
    attachments: [pdfAttachment(pdf, pdfFileName(po.po_number, 'purchase-order'))],
  });
};

export const PURCHASE_ORDER_JOB_TYPES: Record<string, JobHandler> = {
  purchase_order_send: purchaseOrderSend,
};
