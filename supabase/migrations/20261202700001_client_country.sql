-- A client's country (ISO 3166-1 alpha-2), so that an e-invoice names the
-- buyer's own country (BT-55) rather than assuming the seller's (decision
-- 052). Shaped like the seller's country of decision 045: the database holds
-- the shape, the form the list of codes. Who may write it is who may write
-- the client (business writers, the contacts policies); nothing new to grant.
alter table public.contacts
  add column country text constraint contacts_country_code check (country ~ '^[A-Z]{2}$');

-- The invoice as its documents read it: the answer so far, plus the buyer's
-- address and country from the invoice's client (as the client's company is
-- read today: the client as it is now).
alter function private.invoice_document_json(uuid) rename to invoice_document_json_without_buyer;
revoke all on function private.invoice_document_json_without_buyer(uuid) from public, anon, authenticated, service_role;
create function private.invoice_document_json(p_invoice_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.invoice_document_json_without_buyer(i.id)
         || jsonb_build_object('buyer', jsonb_build_object('address', c.address, 'country', c.country))
    from public.invoices i
    left join public.contacts c on c.id = i.contact_id and c.account_id = i.account_id
   where i.id = p_invoice_id
$$;
revoke all on function private.invoice_document_json(uuid) from public;
