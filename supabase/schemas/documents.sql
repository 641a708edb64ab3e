-- Documents: files in storage, what was read from them, and the records made from them.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.documents ──

-- An account's documents (decision 023): the file lives in the documents bucket
-- at file_path; this row says what it is, who uploaded it, how far its review is
-- and what extraction found (decision 027).
create table public.documents (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  title text not null,
  type text default 'other'::text not null,
  description text,
  file_path text not null,
  file_name text not null,
  file_size bigint not null,
  mime_type text not null,
  sha256 text not null,
  uploaded_by uuid,
  status text default 'Pending Review'::text not null,
  extraction_status text default 'queued'::text not null,
  extraction_error text,
  text text,
  fields jsonb default '{}'::jsonb not null,
  search tsvector generated always as ((setweight(to_tsvector('simple'::regconfig, coalesce(title, ''::text)), 'A'::"char") || setweight(to_tsvector('simple'::regconfig, "left"(coalesce(text, ''::text), 200000)), 'B'::"char"))) stored,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  extraction_too_complex boolean default false not null,
  constraint documents_pkey primary key (id),
  constraint documents_account_id_sha256_key unique (account_id, sha256),
  constraint documents_file_path_key unique (file_path),
  constraint documents_id_account_id_key unique (id, account_id),
  constraint documents_check check ((split_part(file_path, '/'::text, 1) = (account_id)::text)),
  constraint documents_description_check check (((description is null) or (length(description) <= 2000))),
  constraint documents_extraction_status_check check ((extraction_status = any (array['queued'::text, 'done'::text, 'failed'::text, 'needs_text'::text]))),
  constraint documents_file_name_check check (((length(file_name) >= 1) and (length(file_name) <= 255))),
  constraint documents_file_size_check check (((file_size >= 1) and (file_size <= 10485760))),
  constraint documents_mime_type_check check ((mime_type = any (array['application/pdf'::text, 'application/msword'::text, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'::text, 'application/vnd.ms-excel'::text, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'::text, 'text/plain'::text, 'text/csv'::text, 'image/jpeg'::text, 'image/png'::text]))),
  constraint documents_sha256_check check ((sha256 ~ '^[0-9a-f]{64}$'::text)),
  constraint documents_status_check check ((status = any (array['Pending Review'::text, 'Approved'::text, 'Final'::text]))),
  constraint documents_title_check check (((length(btrim(title)) >= 1) and (length(btrim(title)) <= 200))),
  constraint documents_type_check check ((type = any (array['invoice'::text, 'contract'::text, 'report'::text, 'presentation'::text, 'legal'::text, 'financial'::text, 'other'::text]))),
  constraint documents_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint documents_uploaded_by_fkey foreign key (uploaded_by) references public.users(id) on delete set null
);
alter table public.documents enable row level security;

create index documents_account_id_created_at_idx on public.documents using btree (account_id, created_at desc, id desc);
create index documents_account_id_status_idx on public.documents using btree (account_id, status, created_at desc);
create index documents_account_id_title_id_idx on public.documents using btree (account_id, title, id);
create index documents_account_search_idx on public.documents using gin (account_id, search);
create index documents_account_title_trgm_idx on public.documents using gin (account_id, title extensions.gin_trgm_ops);

revoke all on table public.documents from public, anon, authenticated, service_role;
grant all on table public.documents to authenticated;
revoke insert, truncate, update on table public.documents from authenticated;
grant all on table public.documents to service_role;
grant insert (account_id, title, type, description, file_path, file_name, file_size, mime_type, sha256) on table public.documents to authenticated;
grant update (title, type, description, status, fields, updated_at) on table public.documents to authenticated;

create or replace function private.audit_document()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) - 'text' - 'search' end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) - 'text' - 'search' end;
  v_changes record;
  v_action text := 'document_updated';
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'document_uploaded', 'document', new.id, null, v_new - 'fields');
  elsif tg_op = 'UPDATE' then
    if new.extraction_status is distinct from old.extraction_status then
      v_action := case new.extraction_status
        when 'done' then 'document_extracted'
        when 'failed' then 'document_extraction_failed'
        when 'needs_text' then 'document_needs_text'
        else 'document_extraction_queued' end;
      v_old := v_old - 'fields';
      v_new := v_new - 'fields';
    elsif new.fields is distinct from old.fields then
      v_action := 'document_reviewed';
    end if;
    select * into v_changes from private.changed_values(v_old, v_new);
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_action, 'document', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  elsif exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, 'document_deleted', 'document', old.id, v_old - 'fields', null);
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_document() from public, anon, authenticated, service_role;
grant execute on function private.audit_document() to public;

create or replace function private.document_date(p_value text)
 returns date
 language plpgsql
 immutable
 set search_path to ''
as $function$
begin
  if p_value !~ '^\d{4}-\d{2}-\d{2}$' then
    return null;
  end if;
  return p_value::date;
exception when others then
  return null;
end;
$function$;
revoke all on function private.document_date(p_value text) from public, anon, authenticated, service_role;

create or replace function private.document_extraction_start()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  new.extraction_status := case when new.mime_type in ('image/jpeg', 'image/png') then 'needs_text' else 'queued' end;
  new.extraction_error := null;
  new.extraction_too_complex := false;
  new.uploaded_by := coalesce(public.current_user_id(), new.uploaded_by);
  return new;
end;
$function$;
revoke all on function private.document_extraction_start() from public, anon, authenticated, service_role;
grant execute on function private.document_extraction_start() to public;

create or replace function private.document_field(p_fields jsonb, p_key text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select nullif(btrim(case when jsonb_typeof(p_fields -> p_key -> 'value') = 'string' then p_fields -> p_key ->> 'value' end), '')
$function$;
revoke all on function private.document_field(p_fields jsonb, p_key text) from public, anon, authenticated, service_role;

create or replace function private.document_seller(p_snapshot jsonb, p_account_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(p_snapshot, private.account_seller(p_account_id))
$function$;
revoke all on function private.document_seller(p_snapshot jsonb, p_account_id uuid) from public, anon, authenticated, service_role;

create or replace function private.guard_document_status()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.status is distinct from old.status and not (
    (old.status = 'Pending Review' and new.status = 'Approved') or
    (old.status = 'Approved' and new.status in ('Final', 'Pending Review'))
  ) then
    raise exception 'A document cannot go from % to %', old.status, new.status using errcode = '23514';
  end if;
  if old.status = 'Final' and (new.title, new.type, new.description, new.fields) is distinct from (old.title, old.type, old.description, old.fields) then
    raise exception 'A final document cannot be changed' using errcode = '23514';
  end if;
  return new;
end;
$function$;
revoke all on function private.guard_document_status() from public, anon, authenticated, service_role;
grant execute on function private.guard_document_status() to public;

create or replace function private.invoice_document_json(p_invoice_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.invoice_document_json_without_buyer(i.id)
         || jsonb_build_object('buyer', jsonb_build_object('address', c.address, 'country', c.country))
    from public.invoices i
    left join public.contacts c on c.id = i.contact_id and c.account_id = i.account_id
   where i.id = p_invoice_id
$function$;
revoke all on function private.invoice_document_json(p_invoice_id uuid) from public, anon, authenticated, service_role;

create or replace function private.invoice_document_json_without_buyer(p_invoice_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.invoice_document_json_without_seller(i.id)
         || jsonb_build_object('seller', private.document_seller(i.seller, i.account_id))
    from public.invoices i
   where i.id = p_invoice_id
$function$;
revoke all on function private.invoice_document_json_without_buyer(p_invoice_id uuid) from public, anon, authenticated, service_role;

create or replace function private.invoice_document_json_without_seller(p_invoice_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.invoice_document_json_without_seller(p_invoice_id uuid) from public, anon, authenticated, service_role;

create or replace function private.queue_document_extraction()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.extraction_status = 'queued' and (tg_op = 'INSERT' or old.extraction_status <> 'queued') then
    perform private.enqueue_job('documents.extract', new.account_id, jsonb_build_object('document_id', new.id),
      'documents.extract:' || new.id || ':' || to_char(clock_timestamp(), 'YYYYMMDDHH24MISSUS'), new.id);
  end if;
  if tg_op = 'UPDATE' and new.extraction_status = 'done' and old.extraction_status <> 'done' then
    perform private.emit_event(new.account_id, 'document_extracted', 'document', new.id,
      jsonb_build_object('title', new.title, 'kind', new.fields -> 'kind' ->> 'value'));
  end if;
  return null;
end;
$function$;
revoke all on function private.queue_document_extraction() from public, anon, authenticated, service_role;

create or replace function private.quote_document_json(p_quote_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.quote_document_json_without_seller(q.id)
         || jsonb_build_object('seller', coalesce(q.signed_document -> 'seller',
                                                  private.document_seller(q.seller, q.account_id)))
    from public.quotes q
   where q.id = p_quote_id
$function$;
revoke all on function private.quote_document_json(p_quote_id uuid) from public, anon, authenticated, service_role;

create or replace function private.quote_document_json_without_seller(p_quote_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case when q.signed_document is not null then
    (q.signed_document - 'v') || jsonb_build_object('status', q.status, 'signature', jsonb_build_object(
      'signerName', q.signer_name, 'signerEmail', coalesce(q.signer_email, ''), 'signedAt', q.signed_at,
      'ip', q.signer_ip, 'userAgent', q.signer_user_agent, 'contentHash', coalesce(q.content_hash, ''),
      'drawnSignaturePng', encode(q.signature_png, 'base64')))
  else jsonb_build_object(
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
  end
  from public.quotes q
  join public.accounts a on a.id = q.account_id
  left join public.contacts c on c.id = q.contact_id
  where q.id = p_quote_id
$function$;
revoke all on function private.quote_document_json_without_seller(p_quote_id uuid) from public, anon, authenticated, service_role;

create or replace function private.reviewed_document(p_document_id uuid)
 returns public.documents
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.reviewed_document(p_document_id uuid) from public, anon, authenticated, service_role;

create or replace function public.create_contact_from_document(p_document_id uuid, p_name text, p_email text, p_phone text default null::text)
 returns table(contact_id uuid, contact_name text, created boolean)
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.create_contact_from_document(p_document_id uuid, p_name text, p_email text, p_phone text) from public, anon, authenticated, service_role;
grant execute on function public.create_contact_from_document(p_document_id uuid, p_name text, p_email text, p_phone text) to authenticated, service_role;

create or replace function public.document_contact_match(p_document_id uuid)
 returns table(id uuid, name text)
 language sql
 stable
 set search_path to ''
as $function$
  select c.id, c.name
    from public.documents d
    join public.contacts c
      on c.account_id = d.account_id
     and lower(c.email) = lower(btrim(d.fields -> 'email' ->> 'value'))
   where d.id = p_document_id
   order by c.created_at desc, c.id desc
   limit 1
$function$;
revoke all on function public.document_contact_match(p_document_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.document_contact_match(p_document_id uuid) to authenticated, service_role;

create or replace function public.document_summary()
 returns table(total_count bigint, processed_count bigint, pending_review_count bigint, storage_bytes bigint)
 language sql
 stable
 set search_path to ''
as $function$
  select count(*),
         count(*) filter (where d.extraction_status = 'done'),
         count(*) filter (where d.status = 'Pending Review'),
         coalesce(sum(d.file_size), 0)::bigint
    from public.documents d
   where d.account_id = public.current_account_id()
$function$;
revoke all on function public.document_summary() from public, anon, authenticated, service_role;
grant execute on function public.document_summary() to authenticated, service_role;

create or replace function public.invoice_document(p_invoice_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.invoice_document_json(i.id)
    from public.invoices i
   where i.id = p_invoice_id
     and private.reads_business_row(i.account_id, case when i.sent_at is not null then i.contact_id end)
$function$;
revoke all on function public.invoice_document(p_invoice_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.invoice_document(p_invoice_id uuid) to authenticated, service_role;

create or replace function public.invoice_link_document(p_token text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record := private.invoice_by_link(p_token);
begin
  if v_found.limited then
    return jsonb_build_object('rate_limited', true);
  end if;
  if (v_found.invoice).id is null then
    return null;
  end if;
  return private.invoice_document_json((v_found.invoice).id);
end;
$function$;
revoke all on function public.invoice_link_document(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.invoice_link_document(p_token text) to anon, authenticated, service_role;

create or replace function public.paste_document_text(p_document_id uuid, p_text text)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_document public.documents;
  v_text text := btrim(coalesce(p_text, ''), E' \t\r\n');
begin
  if v_text = '' then
    raise exception 'Paste the text of the document' using errcode = '22023';
  end if;
  if length(v_text) > 200000 then
    raise exception 'The text is at most 200000 characters' using errcode = '22023';
  end if;
  v_document := private.document_extraction_request(p_document_id, 'paste_text');
  if v_document.extraction_status not in ('needs_text', 'failed') then
    raise exception 'This document already has its text: correct its fields instead.' using errcode = '22023';
  end if;
  update public.documents
     set text = v_text, extraction_status = 'queued', extraction_error = null
   where id = v_document.id;
  perform private.write_audit(v_document.account_id, 'document_text_pasted', 'document', v_document.id,
    jsonb_build_object('extraction_status', v_document.extraction_status),
    jsonb_build_object('characters', length(v_text)));
end;
$function$;
revoke all on function public.paste_document_text(p_document_id uuid, p_text text) from public, anon, authenticated, service_role;
grant execute on function public.paste_document_text(p_document_id uuid, p_text text) to authenticated, service_role;

create or replace function public.purchase_order_document(p_purchase_order_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object(
    'order', jsonb_build_object(
      'id', po.id, 'account_id', po.account_id, 'po_number', po.po_number, 'status', po.status,
      'supplier_name', po.supplier_name, 'supplier_email', po.supplier_email, 'currency', po.currency,
      'total', po.total::text, 'expected_on', po.expected_on, 'notes', po.notes,
      'sent_at', po.sent_at, 'created_at', po.created_at),
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', it.description, 'qty', it.qty,
                                          'unit_price', it.unit_price::text, 'total', it.total::text)
                       order by it.position, it.created_at, it.id)
        from public.purchase_order_items it where it.purchase_order_id = po.id), '[]'::jsonb),
    'seller', private.account_seller(po.account_id)
              || jsonb_build_object('billing_email', (select a.billing_email from public.accounts a where a.id = po.account_id)))
  from public.purchase_orders po
  where po.id = p_purchase_order_id
    and (coalesce(auth.role(), '') = 'service_role'
         or (po.account_id = public.current_account_id()
             and (public.is_account_staff() or (private.is_po_supplier(po.supplier_user_id) and po.status <> 'draft'))))
$function$;
revoke all on function public.purchase_order_document(p_purchase_order_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.purchase_order_document(p_purchase_order_id uuid) to authenticated, service_role;

create or replace function public.quote_document(p_quote_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.quote_document_json(q.id)
    from public.quotes q
   where q.id = p_quote_id
     and private.reads_quote(q)
$function$;
revoke all on function public.quote_document(p_quote_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.quote_document(p_quote_id uuid) to authenticated, service_role;

create or replace function public.quote_link_document(p_token text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record;
begin
  select * into v_found from private.quote_by_link(p_token);
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  if (v_found.quote).id is null or private.quote_link_state(v_found.quote) in ('not_found', 'superseded') then
    return null;
  end if;
  return private.quote_document_json((v_found.quote).id);
end;
$function$;
revoke all on function public.quote_link_document(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.quote_link_document(p_token text) to anon, authenticated, service_role;

create or replace function public.rerun_document_extraction(p_document_id uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_document public.documents := private.document_extraction_request(p_document_id, 'rerun');
begin
  if v_document.extraction_status <> 'failed' then
    raise exception 'Only a document whose extraction failed can be extracted again.' using errcode = '22023';
  end if;
  if v_document.extraction_too_complex and coalesce(btrim(v_document.text), '') = '' then
    raise exception 'The file is too complex to read: paste its text to extract its fields.' using errcode = '22023';
  end if;
  update public.documents
     set extraction_status = 'queued', extraction_error = null
   where id = v_document.id;
  perform private.write_audit(v_document.account_id, 'document_extraction_rerun', 'document', v_document.id,
    jsonb_build_object('extraction_status', v_document.extraction_status), null);
end;
$function$;
revoke all on function public.rerun_document_extraction(p_document_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.rerun_document_extraction(p_document_id uuid) to authenticated, service_role;

create or replace function public.search_documents(p_query text)
 returns setof public.documents
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select d.* from public.documents d
     where d.account_id = $1
       and (d.search @@ $2 or d.title ilike $3)
  $sql$ using v_account, private.prefix_tsquery(p_query), private.contains_pattern(p_query);
end;
$function$;
revoke all on function public.search_documents(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_documents(p_query text) to authenticated, service_role;

create trigger documents_audit after insert or delete or update on public.documents for each row execute function private.audit_document();
create trigger documents_extraction_start before insert on public.documents for each row execute function private.document_extraction_start();
create trigger documents_guard_status before update on public.documents for each row execute function private.guard_document_status();
create trigger documents_queue_extraction after insert or update of extraction_status on public.documents for each row execute function private.queue_document_extraction();
create trigger documents_set_updated_at before update on public.documents for each row execute function private.set_updated_at();

create policy "business writers add documents" on public.documents
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete documents" on public.documents
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update documents" on public.documents
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's documents" on public.documents
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── private.document_extraction_requests ──

create or replace function private.document_extraction_request(p_document_id uuid, p_kind text)
 returns public.documents
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_document public.documents;
begin
  if v_account_id is null or not coalesce(public.can_write_business(), false) then
    raise exception 'Only the account''s admins and members can extract a document''s fields' using errcode = '42501';
  end if;
  select * into v_document from public.documents d
   where d.id = p_document_id and d.account_id = v_account_id for update;
  if not found then
    raise exception 'Document not found' using errcode = 'P0002';
  end if;
  if v_document.status = 'Final' then
    raise exception 'This document is final: its fields can no longer change.' using errcode = '22023';
  end if;
  if not private.hit_rate_limit('document_extraction:document:' || p_document_id, 5, interval '1 hour') then
    raise exception 'This document''s fields were extracted too often: try again in % minutes.',
      private.rate_limit_minutes_left(interval '1 hour') using errcode = 'PT429';
  end if;
  if not private.hit_rate_limit('document_extraction:account:' || v_account_id, 60, interval '1 hour') then
    raise exception 'Too many extractions in this account: try again in % minutes.',
      private.rate_limit_minutes_left(interval '1 hour') using errcode = 'PT429';
  end if;
  return v_document;
end;
$function$;
revoke all on function private.document_extraction_request(p_document_id uuid, p_kind text) from public, anon, authenticated, service_role;

-- ── functions ──

create policy "account files: staff read" on storage.objects
  for select
  to authenticated
  using (((bucket_id = any (array['documents'::text, 'evidence'::text, 'reports'::text])) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.is_account_staff() as is_account_staff)));

create policy "account files: writers add" on storage.objects
  for insert
  to authenticated
  with check (((bucket_id = any (array['documents'::text, 'evidence'::text, 'reports'::text])) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.can_write_business() as can_write_business)));

create policy "account files: writers change" on storage.objects
  for update
  to authenticated
  using (((bucket_id = any (array['documents'::text, 'evidence'::text, 'reports'::text])) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and (not ((bucket_id = 'evidence'::text) and ((storage.foldername(name))[2] = 'compliance'::text))) and ( select public.can_write_business() as can_write_business)))
  with check (((bucket_id = any (array['documents'::text, 'evidence'::text, 'reports'::text])) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and (not ((bucket_id = 'evidence'::text) and ((storage.foldername(name))[2] = 'compliance'::text))) and ( select public.can_write_business() as can_write_business)));
