-- A quote as its PDF shows it, in one read: the account's name and contact
-- email, the quote, its contact and items, and (once signed) the signature's
-- evidence. Amounts come as text: bigint cents past 2^53 would lose digits
-- as JSON numbers. The keys are the renderer's (app/lib/pdf QuotePdfInput),
-- so the Worker maps nothing by hand.
--
-- Who may read it: quote_document(id) answers whoever may read the quote
-- (the same rule as the quotes policy; the service role for the jobs
-- runner); quote_link_document(token) answers the holder of a quote's public
-- link, for the PDF of the public page, counted against the link's limit
-- ({"limited": true} when it is used up; null for no such link).

create or replace function private.quote_document_json(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'account', jsonb_build_object('name', a.name, 'contactEmail', a.billing_email),
    'quoteNumber', coalesce(q.quote_number, ''),
    'status', q.status,
    'issuedAt', coalesce(q.sent_at, q.created_at),
    'expiresAt', q.expires_at,
    'currency', q.currency,
    'contact', case when c.id is null then null
                    else jsonb_build_object('name', c.name, 'email', c.email, 'company', c.company) end,
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', i.description, 'quantity', i.qty,
                                          'unitPrice', i.unit_price::text, 'lineTotal', i.total::text)
                       order by i.position, i.created_at, i.id)
        from public.quote_items i where i.quote_id = q.id), '[]'::jsonb),
    'subtotal', q.subtotal::text,
    'discountPercent', q.discount::text,
    'discount', q.discount_amount::text,
    'taxRate', q.tax_rate::text,
    'tax', q.tax_amount::text,
    'total', q.total::text,
    'notes', q.notes,
    'signature', case when q.status = 'signed' and q.signed_at is not null then jsonb_build_object(
      'signerName', q.signer_name, 'signerEmail', coalesce(q.signer_email, ''), 'signedAt', q.signed_at,
      'ip', q.signer_ip, 'userAgent', q.signer_user_agent, 'contentHash', coalesce(q.content_hash, ''),
      'drawnSignaturePng', encode(q.signature_png, 'base64')) end)
  from public.quotes q
  join public.accounts a on a.id = q.account_id
  left join public.contacts c on c.id = q.contact_id
  where q.id = p_quote_id
$$;
revoke all on function private.quote_document_json(uuid) from public;

create or replace function public.quote_document(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.quote_document_json(q.id)
    from public.quotes q
   where q.id = p_quote_id
     and (coalesce(auth.role(), '') = 'service_role'
          or (q.account_id = public.current_account_id()
              and (public.is_account_staff() or q.contact_id in (select public.client_contact_ids()))))
$$;
revoke all on function public.quote_document(uuid) from public, anon;
grant execute on function public.quote_document(uuid) to authenticated, service_role;

create or replace function public.quote_link_document(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.quote_by_link(p_token);
  if (v_found.quote).id is null or private.quote_link_state(v_found.quote) = 'not_found' then
    return null;
  end if;
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  return private.quote_document_json((v_found.quote).id);
end;
$$;
revoke all on function public.quote_link_document(text) from public;
grant execute on function public.quote_link_document(text) to anon, authenticated, service_role;
