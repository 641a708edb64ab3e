-- An invoice as its PDF shows it, in one read (the keys are the renderer's,
-- app/lib/pdf InvoicePdfInput; amounts as text, exact past 2^53), as
-- quote_document does for quotes. invoice_document(id) answers whoever may
-- read the invoice (the invoices policy's rule; the service role for the
-- jobs runner); invoice_link_document(token) the holder of its public link,
-- on the same terms as public_invoice (not a draft, not void).

create or replace function private.invoice_document_json(p_invoice_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'account', jsonb_build_object('name', a.name, 'contactEmail', a.billing_email),
    'invoiceNumber', coalesce(i.invoice_number, ''),
    'status', i.status,
    'issuedAt', coalesce(i.sent_at, i.created_at),
    'dueDate', i.due_date,
    'currency', i.currency,
    'contact', jsonb_build_object('name', i.client_name, 'email', i.client_email, 'company', c.company),
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', it.description, 'quantity', it.qty,
                                          'unitPrice', it.unit_price::text, 'lineTotal', it.total::text)
                       order by it.position, it.created_at, it.id)
        from public.invoice_items it where it.invoice_id = i.id), '[]'::jsonb),
    'subtotal', i.subtotal::text,
    'discountPercent', i.discount::text,
    'discount', i.discount_amount::text,
    'taxRate', i.tax_rate::text,
    'tax', i.tax::text,
    'total', i.total::text,
    'amountPaid', i.amount_paid::text,
    'payments', coalesce((
      select jsonb_agg(jsonb_build_object('paidOn', p.paid_on, 'method', p.method, 'reference', p.reference,
                                          'amount', p.amount::text)
                       order by p.paid_on, p.created_at, p.id)
        from public.payments p where p.invoice_id = i.id), '[]'::jsonb),
    'notes', i.notes)
  from public.invoices i
  join public.accounts a on a.id = i.account_id
  left join public.contacts c on c.id = i.contact_id
  where i.id = p_invoice_id
$$;
revoke all on function private.invoice_document_json(uuid) from public;

create or replace function public.invoice_document(p_invoice_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.invoice_document_json(i.id)
    from public.invoices i
   where i.id = p_invoice_id
     and (coalesce(auth.role(), '') = 'service_role'
          or (i.account_id = public.current_account_id()
              and (public.is_account_staff() or i.contact_id in (select public.client_contact_ids()))))
$$;
revoke all on function public.invoice_document(uuid) from public, anon;
grant execute on function public.invoice_document(uuid) to authenticated, service_role;

create or replace function public.invoice_link_document(p_token text) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.invoice_document_json(i.id)
    from public.invoices i
   where p_token is not null and length(p_token) between 20 and 200
     and i.link_token_hash = sha256(convert_to(p_token, 'UTF8'))
     and i.status not in ('draft', 'void')
$$;
revoke all on function public.invoice_link_document(text) from public;
grant execute on function public.invoice_link_document(text) to anon, authenticated, service_role;
