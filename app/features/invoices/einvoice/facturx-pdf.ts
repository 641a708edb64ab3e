// /invoices/:id/facturx.pdf: the invoice PDF with its CII XML embedded as
// factur-x.xml (Factur-X / ZUGFeRD, EN 16931), for whoever may read the
// invoice (staff; its client once sent). Refusals as /invoices/:id/einvoice.xml.
import type { Route } from './+types/facturx-pdf';
import { requireUser } from '~/lib/auth.server';
import { pdfFileName, pdfResponse } from '~/lib/pdf/delivery';
import { isUuid } from '~/lib/records.server';
import { EInvoiceIncomplete, renderFacturXPdf } from './index';
import { incompleteResponse, invoiceNotFound, readEInvoiceInput } from './einvoice-document.server';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  if (!isUuid(params.id)) return invoiceNotFound();
  const input = await readEInvoiceInput(supabase, params.id);
  if (!input) return invoiceNotFound();
  try {
    const bytes = await renderFacturXPdf(input);
    return pdfResponse(bytes, pdfFileName(input.invoice.invoiceNumber, 'invoice').replace(/\.pdf$/, '-facturx.pdf'));
  } catch (error) {
    if (error instanceof EInvoiceIncomplete) return incompleteResponse(error);
    throw error;
  }
}
