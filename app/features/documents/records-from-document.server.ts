// Create invoice / Create contact on a document's page (decision 033): what
// was already made from the document, and the two writes. The fields are read
// as stored (a person's corrections included); a field that stops the record
// comes back under that field of the review form, nothing written. The
// database functions check the role, the account and that it happens once.
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type RouterContextProvider } from 'react-router';
import { redirectWithToast } from 'remix-toast';
import type { Json } from '~/lib/database.types';
import { statusOfRefusal, serverMessage } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { dataWithError, redirectWithCreated } from '~/lib/toast.server';
import { FIELD_KEYS, FIELDS, type DocumentFields, type FieldKey } from './extraction/fields';
import type { MadeFromDocument } from './records-from-document';
import { documentParty, type AccountIdentity } from './document-party';
import { contactDraftFrom, invoiceDraftFrom, type FieldErrors } from './records-from-fields';
import { reviewSchema } from './schema';
import { RECORDS_FROM_DOCUMENT_TEXTS as TEXTS } from './texts';

interface ActionArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** The invoice made from the document, if any: needs only the id, so it is read alongside the document. */
export async function loadInvoiceFromDocument(supabase: Supabase, documentId: string): Promise<MadeFromDocument['invoice']> {
  const { data: invoice, error } = await supabase.from('invoices').select('id, invoice_number').eq('source_document_id', documentId).maybeSingle();
  if (error) console.error(`document's invoice failed to load: ${error.message}`);
  return invoice ?? null;
}

/** The bill recorded from the document, if any (decision 048). */
export async function loadBillFromDocument(supabase: Supabase, documentId: string): Promise<MadeFromDocument['bill']> {
  const { data: bill, error } = await supabase.from('bills').select('id, supplier_name, number').eq('document_id', documentId).maybeSingle();
  if (error) console.error(`document's bill failed to load: ${error.message}`);
  return bill ?? null;
}

/** The caller's account as documents are told apart by (its name; its tax ids once the account has them). */
export async function loadAccountIdentity(supabase: Supabase): Promise<AccountIdentity> {
  // The account's own tax ID (Settings → Account) tells its sales from its suppliers' bills too.
  const { data: account, error } = await supabase.from('accounts').select('name, tax_id').maybeSingle();
  if (error) console.error(`account failed to load: ${error.message}`);
  return { name: account?.name ?? '', taxIds: [account?.tax_id] };
}

/** The client the document's email names (the newest, if several), or null. */
export async function loadDocumentContact(supabase: Supabase, documentId: string): Promise<MadeFromDocument['contact']> {
  const { data: contact, error } = await supabase.rpc('document_contact_match', { p_document_id: documentId }).maybeSingle();
  if (error) console.error(`document's contact failed to load: ${error.message}`);
  return contact ?? null;
}

/** What the review form re-renders with: the stored fields, and each refusal under its field. */
function refusedFields(args: ActionArgs, fields: DocumentFields, errors: FieldErrors, toast: string) {
  const form = new FormData();
  form.set('intent', 'review');
  for (const key of FIELD_KEYS) form.set(key, fields[key]?.value ?? '');
  const result = parseWithZod(form, { schema: reviewSchema }).reply({ fieldErrors: errors as Record<string, string[]> });
  const problems = (Object.keys(errors) as FieldKey[]).map((key) => ({ field: FIELDS[key].label, message: errors[key]![0] }));
  return dataWithError(args, { result, problems }, toast, { status: 400 });
}

function refusedByDatabase(args: ActionArgs, error: { code?: string; message?: string }, fallback: string) {
  const status = statusOfRefusal(error.code);
  if (status === 500) console.error(`${fallback}: ${error.message}`);
  return dataWithError(args, { result: undefined, problems: [] }, status === 500 ? fallback : serverMessage(error, fallback), { status });
}

export async function createInvoiceFromDocument(
  args: ActionArgs,
  supabase: Supabase,
  document: { id: string; title: string; fields: DocumentFields },
  page: string,
  ownSale: boolean,
) {
  // A supplier's invoice is a bill: never a sales invoice to the supplier's address, unless the person says it is theirs.
  const supplier = document.fields.supplier_name?.value.trim();
  if (!ownSale && supplier && documentParty(document.fields, await loadAccountIdentity(supabase)) === 'bill') {
    const errors: FieldErrors = { supplier_name: [TEXTS.billNotSale(supplier)] };
    return refusedFields(args, document.fields, errors, TEXTS.billNotSale(supplier));
  }
  const planned = invoiceDraftFrom(document.fields, document, new Date().toISOString().slice(0, 10));
  if (planned.errors) return refusedFields(args, document.fields, planned.errors, TEXTS.invoiceRefused);
  const { draft } = planned;
  const { data: invoice, error } = await supabase.rpc('create_invoice_from_document', {
    p_document_id: document.id,
    p_client_name: draft.client_name,
    p_client_email: draft.client_email,
    p_currency: draft.currency,
    p_due_date: draft.due_date,
    p_items: draft.items as unknown as Json,
    p_tax_rate: draft.tax_rate,
    p_notes: draft.notes,
  });
  // Made before (a second click, another tab): say so, and link to that invoice.
  if (error?.code === '23505' && error.details && error.hint) {
    return redirectWithToast(page, {
      type: 'info',
      message: TEXTS.invoiceExists(error.hint),
      link: { href: `/invoices/${error.details}`, label: TEXTS.invoiceLink(error.hint) },
    });
  }
  if (error?.code === 'P0002') throw data({ error: TEXTS.notFound }, { status: 404 });
  if (error || !invoice) return refusedByDatabase(args, error ?? {}, TEXTS.invoiceFailed);
  return redirectWithCreated(page, TEXTS.invoiceCreated(invoice.invoice_number ?? ''), {
    href: `/invoices/${invoice.id}`,
    label: TEXTS.invoiceLink(invoice.invoice_number ?? ''),
  });
}

/** The bill of a supplier's invoice, from the stored fields; a field that stops it is marked under that field. */
export async function createBillFromDocument(args: ActionArgs, supabase: Supabase, document: { id: string; fields: DocumentFields }, page: string) {
  const { data: bill, error } = await supabase.rpc('create_bill_from_document', { p_document_id: document.id });
  // Recorded before (this document, or the same supplier and number): say so, and link to that bill.
  if (error?.code === '23505' && error.details) {
    return redirectWithToast(page, {
      type: 'info',
      message: TEXTS.billExists(error.hint ?? ''),
      link: { href: `/bills/${error.details}`, label: TEXTS.billLink },
    });
  }
  if (error?.code === 'P0002') throw data({ error: TEXTS.notFound }, { status: 404 });
  const field = error?.code === '22023' && (FIELD_KEYS as readonly string[]).includes(error.hint ?? '') ? (error.hint as FieldKey) : null;
  if (field) return refusedFields(args, document.fields, { [field]: [error!.message] }, TEXTS.billRefused);
  if (error || !bill) return refusedByDatabase(args, error ?? {}, TEXTS.billFailed);
  return redirectWithCreated(page, TEXTS.billRecorded, { href: `/bills/${bill.id}`, label: TEXTS.billLink });
}

export async function createContactFromDocument(
  args: ActionArgs,
  supabase: Supabase,
  document: { id: string; fields: DocumentFields },
  page: string,
) {
  const planned = contactDraftFrom(document.fields);
  if (planned.errors) return refusedFields(args, document.fields, planned.errors, TEXTS.contactRefused);
  const { draft } = planned;
  const { data: rows, error } = await supabase.rpc('create_contact_from_document', {
    p_document_id: document.id,
    p_name: draft.name,
    p_email: draft.email,
    p_phone: draft.phone ?? undefined,
  });
  if (error?.code === 'P0002') throw data({ error: TEXTS.notFound }, { status: 404 });
  const contact = rows?.[0];
  if (error || !contact) return refusedByDatabase(args, error ?? {}, TEXTS.contactFailed);
  const link = { href: `/clients/${contact.contact_id}`, label: TEXTS.contactLink(contact.contact_name) };
  if (!contact.created) return redirectWithToast(page, { type: 'info', message: TEXTS.contactExists(contact.contact_name), link });
  return redirectWithCreated(page, TEXTS.contactCreated(contact.contact_name), link);
}
