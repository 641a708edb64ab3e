// /invoices/:id/einvoice.xml?format=ubl|cii: the invoice as an EN 16931
// e-invoice, UBL 2.1 (Peppol BIS Billing 3.0) or CII (Factur-X EN 16931),
// for whoever may read the invoice (staff; its client once sent). Anyone
// else, and an id that is no invoice, get a 404; another format a 400; an
// invoice missing a mandatory term (no seller country, a draft's number) a 409.
import type { Route } from './+types/einvoice-xml';
import { requireUser } from '~/lib/auth.server';
import { isUuid } from '~/lib/records.server';
import { EInvoiceIncomplete, renderEInvoiceXml } from './index';
import { incompleteResponse, invoiceNotFound, readEInvoiceInput, xmlFileName, xmlResponse } from './einvoice-document.server';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  const format = new URL(request.url).searchParams.get('format') ?? 'ubl';
  if (format !== 'ubl' && format !== 'cii') {
    return new Response('Choose format=ubl or format=cii.', { status: 400, headers: { 'Cache-Control': 'private, no-store' } });
  }
  if (!isUuid(params.id)) return invoiceNotFound();
  const input = await readEInvoiceInput(supabase, params.id);
  if (!input) return invoiceNotFound();
  try {
    return xmlResponse(renderEInvoiceXml(input, format), xmlFileName(input.invoice.invoiceNumber, format));
  } catch (error) {
    if (error instanceof EInvoiceIncomplete) return incompleteResponse(error);
    throw error;
  }
}
