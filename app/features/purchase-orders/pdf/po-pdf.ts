// /purchase-orders/:id/pdf: a purchase order's PDF, the same renderer and
// input as the mail to the supplier (jobs.server.ts), for whoever may read the
// order: staff of its account and the supplier it is addressed to (RLS on
// purchase_orders, decision 062). Anyone else, and an id that is no order,
// get a 404. The seller's details are read with the service role once the
// caller's own read found the order: a supplier may not read the account row.
import { env } from 'cloudflare:workers';
import type { Route } from './+types/po-pdf';
import { serviceClient } from '~/jobs/runner.server';
import { requireUser } from '~/lib/auth.server';
import { pdfFileName, pdfResponse } from '~/lib/pdf/delivery';
import { isUuid } from '~/lib/records.server';
import { sellerLogo } from '~/lib/seller-logo.server';
import { purchaseOrderDocument } from '~/features/purchase-orders/jobs.server';
import { renderPurchaseOrderPdf } from './po-layout';

const notFound = () => new Response('Purchase order not found', { status: 404, headers: { 'Cache-Control': 'private, no-store' } });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  if (!isUuid(params.id)) return notFound();
  const { data: visible, error } = await supabase.from('purchase_orders').select('id').eq('id', params.id).maybeSingle();
  if (error) throw new Error(`reading purchase order ${params.id} failed: ${error.message}`);
  if (!visible) return notFound();
  const admin = serviceClient(env);
  if (!admin) return new Response('PDFs are not set up (no service role key)', { status: 503 });
  const { po, seller, input } = await purchaseOrderDocument(admin, visible.id);
  const pdf = await renderPurchaseOrderPdf({ ...input, logo: await sellerLogo(seller) });
  return pdfResponse(pdf, pdfFileName(po.po_number, 'purchase-order'));
}
