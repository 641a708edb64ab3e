-- doc2data's last step (decision 033): a reviewed document becomes a draft
-- invoice (once) or a contact of the account.
--
-- The invoice is made by create_invoice (numbering, the contact matched or
-- created by email, amounts by the invoice triggers), then given the
-- document's further line items, its tax rate and a link back to the document
-- (invoices.source_document_id: unique, and in the same account by its
-- foreign key). A second try raises SQLSTATE 23505 naming the invoice, as a
-- quote's conversion does. Both functions check can_write_business() and the
-- account; another account's document is 'Document not found' (P0002).

alter table public.documents add constraint documents_id_account_id_key unique (id, account_id);

alter table public.invoices add column source_document_id uuid;
alter table public.invoices add constraint invoices_source_document_id_key unique (source_document_id);
alter table public.invoices add constraint invoices_source_document_fkey
  foreign key (source_document_id, account_id) references public.documents (id, account_id)
  on delete set null (source_document_id);

-- The caller's reviewed document, locked (two tries queue here); else the error.
create or replace function private.reviewed_document(p_document_id uuid) returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_document public.documents;
begin
  if v_account_id is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can create records from documents' using errcode = '42501';
  end if;
  select * into v_document from public.documents d
   where d.id = p_document_id and d.account_id = v_account_id for update;
  if not found then
    raise exception 'Document not found' using errcode = 'P0002';
  end if;
  if v_document.status not in ('Approved', 'Final') then
    raise exception 'Approve the document''s fields first' using errcode = '22023';
  end if;
  return v_document;
end;
$$;

-- p_items: [{ description, qty, unit_price }], 1 to 100 lines, prices in cents.
create or replace function public.create_invoice_from_document(
  p_document_id uuid,
  p_client_name text,
  p_client_email text,
  p_currency text,
  p_due_date date,
  p_items jsonb,
  p_tax_rate numeric default 0,
  p_notes text default null
) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_document public.documents := private.reviewed_document(p_document_id);
  v_existing public.invoices;
  v_invoice public.invoices;
  v_first jsonb;
begin
  select * into v_existing from public.invoices i where i.source_document_id = v_document.id;
  if found then
    raise exception 'Already created as %', v_existing.invoice_number
      using errcode = '23505', detail = v_existing.id::text, hint = v_existing.invoice_number;
  end if;
  if jsonb_typeof(p_items) is distinct from 'array' or jsonb_array_length(p_items) not between 1 and 100 then
    raise exception 'An invoice takes 1 to 100 line items' using errcode = '22023';
  end if;
  if p_tax_rate is null or p_tax_rate < 0 or p_tax_rate > 100 then
    raise exception 'Tax rate must be between 0 and 100' using errcode = '22023';
  end if;

  v_first := p_items -> 0;
  v_invoice := public.create_invoice(p_client_name, p_client_email, v_first ->> 'description',
                                     (v_first ->> 'unit_price')::bigint, (v_first ->> 'qty')::integer,
                                     p_currency, p_due_date, p_notes);
  insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
  select v_invoice.id, btrim(item.value ->> 'description'), (item.value ->> 'qty')::integer,
         (item.value ->> 'unit_price')::bigint, 0, (item.ordinality - 1)::integer
    from jsonb_array_elements(p_items) with ordinality as item
   where item.ordinality > 1;
  update public.invoices i set source_document_id = v_document.id, tax_rate = p_tax_rate where i.id = v_invoice.id;

  select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  perform private.write_audit(v_document.account_id, 'document_invoice_created', 'document', v_document.id, null,
                              jsonb_build_object('invoice_id', v_invoice.id, 'invoice_number', v_invoice.invoice_number));
  return v_invoice;
end;
$$;

-- The contact a document names: the account's contact with that email when
-- there is one (created = false, nothing written), else a new one.
create or replace function public.create_contact_from_document(
  p_document_id uuid,
  p_name text,
  p_email text,
  p_phone text default null
) returns table (contact_id uuid, contact_name text, created boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_document public.documents := private.reviewed_document(p_document_id);
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_contact public.contacts;
begin
  if nullif(btrim(p_name), '') is null or length(btrim(p_name)) > 200 then
    raise exception 'The contact needs a name of at most 200 characters' using errcode = '22023';
  end if;
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or length(v_email) > 254 then
    raise exception 'The contact needs an email address' using errcode = '22023';
  end if;
  select * into v_contact from public.contacts c
   where c.account_id = v_document.account_id and lower(c.email) = v_email
   order by c.created_at desc, c.id limit 1;
  if found then
    return query select v_contact.id, v_contact.name, false;
    return;
  end if;
  insert into public.contacts (account_id, name, email, phone, notes)
  values (v_document.account_id, btrim(p_name), v_email, nullif(left(btrim(coalesce(p_phone, '')), 50), ''),
          'From the document ' || v_document.title)
  returning * into v_contact;
  perform private.write_audit(v_document.account_id, 'document_contact_created', 'document', v_document.id, null,
                              jsonb_build_object('contact_id', v_contact.id, 'contact_name', v_contact.name));
  return query select v_contact.id, v_contact.name, true;
end;
$$;

revoke all on function private.reviewed_document(uuid) from public, anon, authenticated;
revoke all on function public.create_invoice_from_document(uuid, text, text, text, date, jsonb, numeric, text) from public, anon;
revoke all on function public.create_contact_from_document(uuid, text, text, text) from public, anon;
grant execute on function public.create_invoice_from_document(uuid, text, text, text, date, jsonb, numeric, text) to authenticated;
grant execute on function public.create_contact_from_document(uuid, text, text, text) to authenticated;
