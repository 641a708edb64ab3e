// /purchase-orders/:id/pdf: a purchase order's PDF, the same renderer and
// input as the mail to the supplier (jobs.server.ts), for whoever may read the
// order: staff of its account and the supplier it is addressed to once sent
// (purchase_order_document, on the purchase_orders policy's rule, decision
// 062). Anyone else, and an id that is no order, get a 404. The order, its
// lines and the seller's details are one read, started alongside the users row.
import type { Route } from './+types/po-pdf';
import { requireUserWith } from '~/lib/auth.server';
import { pdfFileName, pdfResponse } from '~/lib/pdf/delivery';
import { isUuid } from '~/lib/records.server';
import { sellerLogo } from '~/lib/seller-logo.server';
import { purchaseOrderDocument } from '~/features/purchase-orders/jobs.server';
import { renderPurchaseOrderPdf } from './po-layout';

const notFound = () => new Response('Purchase order not found', { status: 404, headers: { 'Cache-Control': 'private, no-store' } });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const [, document] = await requireUserWith(request, context, (supabase) =>
    isUuid(params.id) ? purchaseOrderDocument(supabase, params.id) : Promise.resolve(null),
  );
  if (!document) return notFound();
  const { po, seller, input } = document;
  const pdf = await renderPurchaseOrderPdf({ ...input, logo: await sellerLogo(seller) });
  return pdfResponse(pdf, pdfFileName(po.po_number, 'purchase-order'));
}
