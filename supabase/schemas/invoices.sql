-- Invoices, their lines and payments, numbers, figures and the public invoice link.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.invoices ──

-- An invoice (decision 029): a draft staff edit, then sent with a number and
-- never edited; paid through payments, voided rather than deleted.
create table public.invoices (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  invoice_number text,
  contact_id uuid,
  quote_id uuid,
  created_by uuid,
  client_name text not null,
  client_email text not null,
  currency text default 'USD'::text not null,
  tax_rate numeric(5,2) default 0 not null,
  discount numeric(5,2) default 0 not null,
  subtotal bigint default 0 not null,
  discount_amount bigint default 0 not null,
  tax bigint default 0 not null,
  total bigint default 0 not null,
  amount_paid bigint default 0 not null,
  due_date date not null,
  status text default 'draft'::text not null,
  notes text,
  sent_at timestamp with time zone,
  paid_at timestamp with time zone,
  voided_at timestamp with time zone,
  reminded_at timestamp with time zone,
  link_token_hash bytea,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  source_document_id uuid,
  seller jsonb,
  constraint invoices_pkey primary key (id),
  constraint invoices_account_id_invoice_number_key unique (account_id, invoice_number),
  constraint invoices_id_account_id_key unique (id, account_id),
  constraint invoices_link_token_hash_key unique (link_token_hash),
  constraint invoices_quote_id_key unique (quote_id),
  constraint invoices_source_document_id_key unique (source_document_id),
  constraint invoices_check check (((amount_paid >= 0) and (amount_paid <= total))),
  constraint invoices_client_email_check check (((length(client_email) >= 3) and (length(client_email) <= 320))),
  constraint invoices_client_email_no_control_chars check ((client_email !~ '[\x01-\x1f\x7f]'::text)),
  constraint invoices_client_name_check check (((length(btrim(client_name)) >= 1) and (length(btrim(client_name)) <= 200))),
  constraint invoices_client_name_no_control_chars check ((client_name !~ '[\x01-\x1f\x7f]'::text)),
  constraint invoices_currency_check check (public.is_currency(currency)),
  constraint invoices_discount_amount_check check ((discount_amount >= 0)),
  constraint invoices_discount_check check (((discount >= (0)::numeric) and (discount <= (100)::numeric))),
  constraint invoices_link_token_hash_check check ((octet_length(link_token_hash) = 32)),
  constraint invoices_notes_check check ((length(notes) <= 5000)),
  constraint invoices_status_check check ((status = any (array['draft'::text, 'sent'::text, 'pending'::text, 'paid'::text, 'overdue'::text, 'void'::text]))),
  constraint invoices_subtotal_check check (((subtotal >= 0) and (subtotal <= '1000000000000000000'::bigint))),
  constraint invoices_tax_check check ((tax >= 0)),
  constraint invoices_tax_rate_check check (((tax_rate >= (0)::numeric) and (tax_rate <= (100)::numeric))),
  constraint invoices_total_check check (((total >= 0) and (total <= '1000000000000000000'::bigint))),
  constraint invoices_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint invoices_contact_id_account_id_fkey foreign key (contact_id, account_id) references public.contacts(id, account_id) on delete set null (contact_id),
  constraint invoices_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint invoices_quote_id_account_id_fkey foreign key (quote_id, account_id) references public.quotes(id, account_id) on delete set null (quote_id),
  constraint invoices_source_document_fkey foreign key (source_document_id, account_id) references public.documents(id, account_id) on delete set null (source_document_id)
);
alter table public.invoices enable row level security;

create index invoices_account_client_email_trgm_idx on public.invoices using gin (account_id, client_email extensions.gin_trgm_ops);
create index invoices_account_client_name_trgm_idx on public.invoices using gin (account_id, client_name extensions.gin_trgm_ops);
create index invoices_account_id_client_name_id_idx on public.invoices using btree (account_id, client_name, id);
create index invoices_account_id_created_at_idx on public.invoices using btree (account_id, created_at desc, id desc);
create index invoices_account_id_due_date_id_idx on public.invoices using btree (account_id, due_date, id);
create index invoices_account_id_invoice_number_id_idx on public.invoices using btree (account_id, invoice_number, id);
create index invoices_account_id_status_created_at_idx on public.invoices using btree (account_id, status, created_at desc, id desc);
create index invoices_account_id_total_id_idx on public.invoices using btree (account_id, total, id);
create index invoices_account_invoice_number_trgm_idx on public.invoices using gin (account_id, invoice_number extensions.gin_trgm_ops);
create index invoices_contact_id_idx on public.invoices using btree (contact_id);
create index invoices_created_by_idx on public.invoices using btree (created_by);
create index invoices_open_due_idx on public.invoices using btree (due_date) where (status = any (array['sent'::text, 'pending'::text, 'overdue'::text]));

revoke all on table public.invoices from public, anon, authenticated, service_role;
grant all on table public.invoices to authenticated;
revoke delete, insert, truncate, update on table public.invoices from authenticated;
grant all on table public.invoices to service_role;

create or replace function private.assign_invoice_number()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_year integer := extract(year from coalesce(new.created_at, now()) at time zone 'UTC')::integer;
  v_next integer;
begin
  -- The upsert takes the counter row's lock: concurrent invoices of one
  -- account queue here until the first commits (or rolls back, returning its
  -- number), so numbers have no gaps and no repeats.
  insert into private.invoice_number_counters as c (account_id, year, last_value)
  values (new.account_id, v_year, 1)
  on conflict (account_id, year) do update set last_value = c.last_value + 1
  returning c.last_value into v_next;
  new.invoice_number := 'INV-' || v_year || '-' || lpad(v_next::text, greatest(4, length(v_next::text)), '0');
  return new;
end;
$function$;
revoke all on function private.assign_invoice_number() from public, anon, authenticated, service_role;

create or replace function private.audit_invoice()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_snapshot jsonb;
begin
  if tg_op = 'INSERT' then
    v_snapshot := to_jsonb(new) - 'link_token_hash';
    perform private.write_audit(new.account_id, 'invoice_created', 'invoice', new.id, null, v_snapshot);
    perform private.emit_event(new.account_id, 'invoice_created', 'invoices', new.id,
                               jsonb_build_object('invoice_number', new.invoice_number, 'quote_id', new.quote_id));
    return null;
  end if;
  if new.status is distinct from old.status and new.status in ('sent', 'paid', 'void', 'overdue') then
    perform private.write_audit(
      new.account_id,
      'invoice_' || case new.status when 'void' then 'voided' else new.status end,
      'invoice', new.id,
      jsonb_build_object('status', old.status, 'amount_paid', old.amount_paid),
      jsonb_build_object('status', new.status, 'amount_paid', new.amount_paid, 'invoice_number', new.invoice_number));
  end if;
  if new.status is distinct from old.status and new.status in ('paid', 'overdue') then
    perform private.emit_event(new.account_id, 'invoice_' || new.status, 'invoices', new.id,
                               jsonb_build_object('invoice_number', new.invoice_number, 'total', new.total,
                                                  'currency', new.currency));
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_invoice() from public, anon, authenticated, service_role;

create or replace function private.invoice_amounts()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_amounts record;
begin
  v_amounts := private.quote_amounts(new.subtotal, new.discount, new.tax_rate);
  if v_amounts.total > 1000000000000000000 then
    raise exception 'The invoice''s total is too large' using errcode = '22003';
  end if;
  new.discount_amount := v_amounts.discount_amount;
  new.tax := v_amounts.tax_amount;
  new.total := v_amounts.total;
  return new;
end;
$function$;
revoke all on function private.invoice_amounts() from public, anon, authenticated, service_role;

create or replace function private.invoice_by_link(p_token text, out invoice public.invoices, out limited boolean)
 returns record
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_caller text := coalesce(private.request_ip(), 'no address');
  v_hash bytea;
  v_link text;
  v_within_caller boolean;
  v_within_link boolean;
begin
  limited := false;
  invoice := null;
  if p_token is null or length(p_token) < 20 or length(p_token) > 200 then
    return;
  end if;
  if not private.hit_rate_limit('invoice_link:ip:' || v_caller, 120, interval '1 minute') then
    limited := true;
    return;
  end if;
  v_hash := sha256(convert_to(p_token, 'UTF8'));
  select * into invoice from public.invoices i where i.link_token_hash = v_hash and i.status not in ('draft', 'void');
  if invoice.id is null then
    invoice := null;
    return;
  end if;
  v_link := 'invoice_link:token:' || encode(v_hash, 'hex');
  -- Both counters count every call (each asked on its own), so the totals are true.
  v_within_caller := private.hit_rate_limit(v_link || ':ip:' || v_caller, 60, interval '1 minute');
  v_within_link := private.hit_rate_limit(v_link, 600, interval '1 minute');
  if not (v_within_caller and v_within_link) then
    limited := true;
    invoice := null;
  end if;
end;
$function$;
revoke all on function private.invoice_by_link(p_token text, out invoice public.invoices, out limited boolean) from public, anon, authenticated, service_role;

create or replace function private.invoice_draft_snapshot(p_invoice_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object(
    'due_date', i.due_date, 'notes', i.notes, 'tax_rate', i.tax_rate, 'discount', i.discount,
    'subtotal', i.subtotal, 'total', i.total,
    'items', (select coalesce(jsonb_agg(jsonb_build_object('description', it.description, 'qty', it.qty,
                                                           'unit_price', it.unit_price)
                                        order by it.position, it.created_at, it.id), '[]'::jsonb)
                from public.invoice_items it where it.invoice_id = i.id))
    from public.invoices i where i.id = p_invoice_id
$function$;
revoke all on function private.invoice_draft_snapshot(p_invoice_id uuid) from public, anon, authenticated, service_role;

create or replace function private.invoice_from_quote(p_account_id uuid, p_actor uuid, p_quote public.quotes)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_contact public.contacts;
  v_existing public.invoices;
  v_invoice public.invoices;
begin
  if p_quote.id is null or p_quote.account_id is distinct from p_account_id then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  select * into v_existing from public.invoices i where i.quote_id = p_quote.id;
  if found then
    raise exception 'Already converted to %', v_existing.invoice_number
      using errcode = '23505', detail = v_existing.id::text, hint = v_existing.invoice_number;
  end if;
  if p_quote.status <> 'signed' then
    raise exception 'Only a signed quote can be converted to an invoice' using errcode = '22023';
  end if;
  select * into v_contact from public.contacts c where c.id = p_quote.contact_id;
  if v_contact.id is null and p_quote.signer_email is null then
    raise exception 'The quote has no client to invoice' using errcode = '22023';
  end if;

  insert into public.invoices (account_id, contact_id, quote_id, created_by, client_name, client_email, currency,
                               tax_rate, discount, due_date, notes)
  values (p_account_id, v_contact.id, p_quote.id, p_actor,
          coalesce(v_contact.name, p_quote.signer_name, p_quote.signer_email),
          lower(coalesce(v_contact.email, p_quote.signer_email)), p_quote.currency, p_quote.tax_rate, p_quote.discount,
          (now() at time zone 'UTC')::date + 30, p_quote.notes)
  returning id into v_invoice.id;
  insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
  select v_invoice.id, qi.description, qi.qty, qi.unit_price, 0,
         (row_number() over (order by qi.position, qi.created_at, qi.id) - 1)::integer
    from public.quote_items qi where qi.quote_id = p_quote.id;
  -- Read back: the invoices' own triggers numbered and totalled it.
  select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  return v_invoice;
end;
$function$;
revoke all on function private.invoice_from_quote(p_account_id uuid, p_actor uuid, p_quote public.quotes) from public, anon, authenticated, service_role;

create or replace function private.invoice_in_state(p_invoice_id uuid, p_refusals jsonb)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices := private.writable_invoice(p_invoice_id);
begin
  if p_refusals ? v_invoice.status then
    raise exception '%', p_refusals ->> v_invoice.status using errcode = '22023';
  end if;
  return v_invoice;
end;
$function$;
revoke all on function private.invoice_in_state(p_invoice_id uuid, p_refusals jsonb) from public, anon, authenticated, service_role;

create or replace function private.invoice_writer_account()
 returns uuid
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
begin
  if v_account_id is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can change invoices' using errcode = '42501';
  end if;
  return v_account_id;
end;
$function$;
revoke all on function private.invoice_writer_account() from public, anon, authenticated, service_role;

create or replace function private.public_invoice_without_seller(p_token text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record := private.invoice_by_link(p_token);
  v_invoice public.invoices := v_found.invoice;
begin
  if v_found.limited then
    return jsonb_build_object('rate_limited', true);
  end if;
  if v_invoice.id is null then
    return null;
  end if;
  return jsonb_build_object(
    'account_name', (select a.name from public.accounts a where a.id = v_invoice.account_id),
    'invoice_number', v_invoice.invoice_number,
    'status', v_invoice.status,
    'client_name', v_invoice.client_name,
    'currency', v_invoice.currency,
    'subtotal', v_invoice.subtotal,
    'discount_amount', v_invoice.discount_amount,
    'tax', v_invoice.tax,
    'total', v_invoice.total,
    'amount_paid', v_invoice.amount_paid,
    'due_date', v_invoice.due_date,
    'created_at', v_invoice.created_at,
    'notes', v_invoice.notes,
    'items', (select coalesce(jsonb_agg(jsonb_build_object('description', it.description, 'qty', it.qty,
                                                           'unit_price', it.unit_price, 'total', it.total)
                                        order by it.position, it.created_at), '[]'::jsonb)
                from public.invoice_items it where it.invoice_id = v_invoice.id));
end;
$function$;
revoke all on function private.public_invoice_without_seller(p_token text) from public, anon, authenticated, service_role;

create or replace function private.roll_invoice_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.currency, old.status, old.total, old.created_at, old.sent_at, old.paid_at)
         is not distinct from (new.account_id, new.currency, new.status, new.total, new.created_at, new.sent_at, new.paid_at) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.status not in ('draft', 'void') then
    update private.invoice_day_stats s
       set invoice_count = s.invoice_count - 1, total_sum = s.total_sum - old.total,
           paid_count = s.paid_count - case when old.paid_at is not null and old.sent_at is not null then 1 else 0 end,
           pay_seconds = s.pay_seconds - coalesce(extract(epoch from old.paid_at - old.sent_at), 0)
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date and s.currency = old.currency;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.status not in ('draft', 'void') then
    insert into private.invoice_day_stats as s (account_id, day, currency, invoice_count, total_sum, paid_count, pay_seconds)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, new.currency, 1, new.total,
            case when new.paid_at is not null and new.sent_at is not null then 1 else 0 end,
            coalesce(extract(epoch from new.paid_at - new.sent_at), 0))
    on conflict (account_id, day, currency) do update
      set invoice_count = s.invoice_count + 1, total_sum = s.total_sum + excluded.total_sum,
          paid_count = s.paid_count + excluded.paid_count, pay_seconds = s.pay_seconds + excluded.pay_seconds;
  end if;
  -- A payment is counted in its invoice's currency: if that changes, its
  -- payments move with it.
  if tg_op = 'UPDATE' and old.currency is distinct from new.currency then
    update private.payment_day_stats s set amount_sum = s.amount_sum - p.amount
      from (select pa.paid_on, sum(pa.amount) as amount from public.payments pa where pa.invoice_id = new.id group by 1) p
     where s.account_id = old.account_id and s.day = p.paid_on and s.currency = old.currency;
    insert into private.payment_day_stats as s (account_id, day, currency, amount_sum)
    select new.account_id, pa.paid_on, new.currency, sum(pa.amount) from public.payments pa where pa.invoice_id = new.id group by 2
    on conflict (account_id, day, currency) do update set amount_sum = s.amount_sum + excluded.amount_sum;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_invoice_day_stats() from public, anon, authenticated, service_role;

create or replace function private.roll_invoice_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update private.invoice_stats s
       set invoice_count = s.invoice_count - 1, total_sum = s.total_sum - old.total, paid_sum = s.paid_sum - old.amount_paid
     where s.account_id = old.account_id and s.currency = old.currency and s.status = old.status
       and s.day = (old.created_at at time zone 'UTC')::date;
    update private.invoice_totals t
       set invoice_count = t.invoice_count - 1, total_sum = t.total_sum - old.total, paid_sum = t.paid_sum - old.amount_paid
     where t.account_id = old.account_id and t.currency = old.currency and t.status = old.status;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.invoice_stats as s (account_id, currency, status, day, invoice_count, total_sum, paid_sum)
    values (new.account_id, new.currency, new.status, (new.created_at at time zone 'UTC')::date, 1, new.total, new.amount_paid)
    on conflict (account_id, currency, status, day) do update
      set invoice_count = s.invoice_count + 1, total_sum = s.total_sum + excluded.total_sum,
          paid_sum = s.paid_sum + excluded.paid_sum;
    insert into private.invoice_totals as t (account_id, currency, status, invoice_count, total_sum, paid_sum)
    values (new.account_id, new.currency, new.status, 1, new.total, new.amount_paid)
    on conflict (account_id, currency, status) do update
      set invoice_count = t.invoice_count + 1, total_sum = t.total_sum + excluded.total_sum,
          paid_sum = t.paid_sum + excluded.paid_sum;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_invoice_stats() from public, anon, authenticated, service_role;

create or replace function private.unroll_invoice_payments()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  update private.payment_day_stats s set amount_sum = s.amount_sum - p.amount
    from (select pa.paid_on, sum(pa.amount) as amount from public.payments pa where pa.invoice_id = old.id group by 1) p
   where s.account_id = old.account_id and s.day = p.paid_on and s.currency = old.currency;
  return old;
end;
$function$;
revoke all on function private.unroll_invoice_payments() from public, anon, authenticated, service_role;

create or replace function private.writable_invoice(p_invoice_id uuid)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := private.invoice_writer_account();
  v_invoice public.invoices;
begin
  select * into v_invoice from public.invoices i where i.id = p_invoice_id and i.account_id = v_account_id for update;
  if not found then
    raise exception 'Invoice not found' using errcode = 'P0002';
  end if;
  return v_invoice;
end;
$function$;
revoke all on function private.writable_invoice(p_invoice_id uuid) from public, anon, authenticated, service_role;

create or replace function public.convert_quote_to_invoice(p_quote_id uuid)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := private.invoice_writer_account();
  v_quote public.quotes;
begin
  -- Locked: two conversions of one quote queue here; the second sees the first's invoice.
  select * into v_quote from public.quotes q where q.id = p_quote_id and q.account_id = v_account_id for update;
  if not found then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  return private.invoice_from_quote(v_account_id, public.current_user_id(), v_quote);
end;
$function$;
revoke all on function public.convert_quote_to_invoice(p_quote_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.convert_quote_to_invoice(p_quote_id uuid) to authenticated, service_role;

create or replace function public.create_invoice(p_client_name text, p_client_email text, p_description text, p_unit_price bigint, p_quantity integer, p_currency text, p_due_date date, p_notes text default null::text)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := private.invoice_writer_account();
  v_email text := lower(btrim(coalesce(p_client_email, '')));
  v_contact_id uuid;
  v_invoice public.invoices;
begin
  if nullif(btrim(p_client_name), '') is null or v_email = '' or nullif(btrim(p_description), '') is null then
    raise exception 'Client name, client email and description are required' using errcode = '22023';
  end if;
  if v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Client email is not an email address' using errcode = '22023';
  end if;
  if p_unit_price is null or p_unit_price < 0 then
    raise exception 'Unit price must be zero or more' using errcode = '22023';
  end if;
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Quantity must be at least 1' using errcode = '22023';
  end if;
  if not public.is_currency(coalesce(p_currency, '')) then
    raise exception 'Currency must be one of the listed currencies' using errcode = '22023';
  end if;
  if not public.fits_currency(p_unit_price, p_currency) then
    raise exception 'Unit price must be a whole amount in %', p_currency using errcode = '22023';
  end if;
  if p_due_date is null then
    raise exception 'Due date is required' using errcode = '22023';
  end if;
  if p_due_date < private.account_day(v_account_id, now()) then
    raise exception 'The due date cannot be in the past' using errcode = '22023';
  end if;

  select c.id into v_contact_id from public.contacts c
   where c.account_id = v_account_id and lower(c.email) = v_email
   order by c.created_at desc, c.id limit 1;
  if v_contact_id is null then
    insert into public.contacts (account_id, name, email)
    values (v_account_id, btrim(p_client_name), v_email)
    returning id into v_contact_id;
  end if;

  insert into public.invoices (account_id, contact_id, created_by, client_name, client_email, currency, due_date, notes)
  values (v_account_id, v_contact_id, public.current_user_id(), btrim(p_client_name), v_email, p_currency, p_due_date,
          nullif(btrim(p_notes), ''))
  returning id into v_invoice.id;
  insert into public.invoice_items (invoice_id, description, qty, unit_price, total)
  values (v_invoice.id, btrim(p_description), p_quantity, p_unit_price, 0);
  select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  return v_invoice;
end;
$function$;
revoke all on function public.create_invoice(p_client_name text, p_client_email text, p_description text, p_unit_price bigint, p_quantity integer, p_currency text, p_due_date date, p_notes text) from public, anon, authenticated, service_role;
grant execute on function public.create_invoice(p_client_name text, p_client_email text, p_description text, p_unit_price bigint, p_quantity integer, p_currency text, p_due_date date, p_notes text) to authenticated, service_role;

create or replace function public.create_invoice_from_document(p_document_id uuid, p_client_name text, p_client_email text, p_currency text, p_due_date date, p_items jsonb, p_tax_rate numeric default 0, p_notes text default null::text)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.create_invoice_from_document(p_document_id uuid, p_client_name text, p_client_email text, p_currency text, p_due_date date, p_items jsonb, p_tax_rate numeric, p_notes text) from public, anon, authenticated, service_role;
grant execute on function public.create_invoice_from_document(p_document_id uuid, p_client_name text, p_client_email text, p_currency text, p_due_date date, p_items jsonb, p_tax_rate numeric, p_notes text) to authenticated, service_role;

create or replace function public.invoice_link_logo(p_token text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record;
  v_path text;
begin
  select * into v_found from private.invoice_by_link(p_token);
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  if (v_found.invoice).id is null then
    return null;
  end if;
  v_path := private.document_seller((v_found.invoice).seller, (v_found.invoice).account_id) ->> 'logo_path';
  if v_path is not null and v_path not in ((v_found.invoice).account_id || '/logo.png', (v_found.invoice).account_id || '/logo.jpg') then
    v_path := null;
  end if;
  return jsonb_build_object('logo_path', v_path);
end;
$function$;
revoke all on function public.invoice_link_logo(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.invoice_link_logo(p_token text) to anon, authenticated, service_role;

create or replace function public.invoice_summary()
 returns table(total_count bigint, outstanding jsonb, paid_this_month jsonb, collection jsonb)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_today date := (now() at time zone 'UTC')::date;
begin
  if v_account_id is null or not public.is_account_staff() then
    raise exception 'Only the account''s staff read its invoice figures' using errcode = '42501';
  end if;
  return query
  select
    (select coalesce(sum(t.invoice_count), 0)::bigint from private.invoice_totals t where t.account_id = v_account_id),
    (select coalesce(jsonb_agg(jsonb_build_object('currency', o.currency, 'count', o.n, 'value', o.v, 'average', 0)
                               order by o.n desc, o.currency), '[]'::jsonb)
       from (select t.currency, sum(t.invoice_count) as n, sum(t.total_sum - t.paid_sum) as v
               from private.invoice_totals t
              where t.account_id = v_account_id and t.status in ('sent', 'pending', 'overdue')
              group by t.currency having sum(t.invoice_count) > 0) o),
    (select coalesce(jsonb_agg(jsonb_build_object('currency', p.currency, 'count', 0, 'value', p.amount_sum, 'average', 0)
                               order by p.amount_sum desc, p.currency), '[]'::jsonb)
       from private.payment_stats p
      where p.account_id = v_account_id and p.month = date_trunc('month', v_today)::date and p.amount_sum > 0),
    (select coalesce(jsonb_agg(jsonb_build_object('currency', c.currency, 'invoiced', c.invoiced, 'paid', c.paid)
                               order by c.invoiced desc, c.currency), '[]'::jsonb)
       from (select s.currency, sum(s.total_sum) as invoiced, sum(s.paid_sum) as paid
               from private.invoice_stats s
              where s.account_id = v_account_id and s.status not in ('draft', 'void') and s.day > v_today - 90
              group by s.currency having sum(s.total_sum) > 0) c);
end;
$function$;
revoke all on function public.invoice_summary() from public, anon, authenticated, service_role;
grant execute on function public.invoice_summary() to authenticated, service_role;

create or replace function public.public_invoice(p_token text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_answer jsonb := private.public_invoice_without_seller(p_token);
  v_invoice public.invoices;
begin
  if v_answer is null or v_answer ? 'rate_limited' then
    return v_answer;
  end if;
  -- The link was counted once above; find its invoice again without counting.
  select * into v_invoice from public.invoices i where i.link_token_hash = sha256(convert_to(p_token, 'UTF8'));
  return v_answer || jsonb_build_object('seller', private.document_seller(v_invoice.seller, v_invoice.account_id));
end;
$function$;
revoke all on function public.public_invoice(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.public_invoice(p_token text) to anon, authenticated, service_role;

create or replace function public.renew_invoice_link(p_invoice_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'draft', 'A draft invoice has no client link yet: send it first',
    'void', 'A void invoice has no client link'));
  v_token text := private.new_link_token();
begin
  -- The invoices audit trigger watches the status only: this update writes no row of its own.
  update public.invoices i set link_token_hash = sha256(convert_to(v_token, 'UTF8')) where i.id = v_invoice.id;
  perform private.write_audit(v_invoice.account_id, 'invoice_link_renewed', 'invoice', v_invoice.id,
                              jsonb_build_object('had_link', v_invoice.link_token_hash is not null),
                              jsonb_build_object('previous_link', 'void', 'invoice_number', v_invoice.invoice_number));
  return v_token;
end;
$function$;
revoke all on function public.renew_invoice_link(p_invoice_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.renew_invoice_link(p_invoice_id uuid) to authenticated, service_role;

create or replace function public.resend_invoice(p_invoice_id uuid, p_request_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'draft', 'A draft invoice is sent, not sent again',
    'void', 'A void invoice cannot be sent',
    'paid', 'A paid invoice cannot be sent'));
  v_key text := 'invoice_resend:' || p_invoice_id || ':' || p_request_id;
begin
  if p_request_id is null then
    raise exception 'A resend needs its request id' using errcode = '22023';
  end if;
  if exists (select 1 from public.jobs j where j.idempotency_key = v_key) then
    return v_invoice.client_email;
  end if;
  if not private.hit_rate_limit('invoice_resend:' || v_invoice.id, 5, interval '1 hour') then
    raise exception 'This invoice was sent again 5 times in the last hour; try again later' using errcode = '54000';
  end if;
  perform private.enqueue_job('invoice_send', v_invoice.account_id, jsonb_build_object('invoice_id', v_invoice.id),
                              v_key, v_invoice.id);
  perform private.write_audit(v_invoice.account_id, 'invoice_resent', 'invoice', v_invoice.id, null,
                              jsonb_build_object('email', v_invoice.client_email, 'invoice_number', v_invoice.invoice_number));
  return v_invoice.client_email;
end;
$function$;
revoke all on function public.resend_invoice(p_invoice_id uuid, p_request_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.resend_invoice(p_invoice_id uuid, p_request_id uuid) to authenticated, service_role;

create or replace function public.save_invoice_draft(p_invoice_id uuid, p_due_date date, p_notes text, p_tax_rate numeric, p_discount numeric, p_items jsonb)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'sent', 'Only a draft invoice can be edited',
    'pending', 'Only a draft invoice can be edited',
    'paid', 'Only a draft invoice can be edited',
    'overdue', 'Only a draft invoice can be edited',
    'void', 'Only a draft invoice can be edited'));
  v_before jsonb := private.invoice_draft_snapshot(p_invoice_id);
  v_changes record;
  v_notes text := nullif(btrim(p_notes), '');
  v_item jsonb;
  v_ord integer := 0;
  v_description text;
  v_qty numeric;
  v_price numeric;
  v_descriptions text[] := '{}';
  v_qtys integer[] := '{}';
  v_prices bigint[] := '{}';
begin
  if p_due_date is null then
    raise exception 'Due date is required' using errcode = '22023';
  end if;
  if p_due_date < private.account_day(v_invoice.account_id, now()) then
    raise exception 'The due date cannot be in the past' using errcode = '22023';
  end if;
  if length(v_notes) > 5000 then
    raise exception 'Notes must be at most 5000 characters' using errcode = '22023';
  end if;
  if p_tax_rate is null or p_tax_rate < 0 or p_tax_rate > 100 or p_tax_rate <> round(p_tax_rate, 2) then
    raise exception 'Tax rate must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  if p_discount is null or p_discount < 0 or p_discount > 100 or p_discount <> round(p_discount, 2) then
    raise exception 'Discount must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  -- The items as the edit form sends them: 1 to 100 objects with a
  -- description (1-2000 characters), a whole quantity (1 to 1,000,000) and a
  -- unit price in whole cents of the invoice's currency (0 to 10^11, the
  -- column's bound), all checked before anything is written. Anything else
  -- an object carries (a total) is ignored: totals are computed.
  if p_items is null or jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) < 1 then
    raise exception 'An invoice needs at least one line item' using errcode = '22023';
  end if;
  if jsonb_array_length(p_items) > 100 then
    raise exception 'An invoice has at most 100 line items' using errcode = '22023';
  end if;
  for v_item in select e.value from jsonb_array_elements(p_items) with ordinality e(value, n) order by e.n loop
    v_ord := v_ord + 1;
    if jsonb_typeof(v_item) <> 'object' then
      raise exception 'Line item % is not an item', v_ord using errcode = '22023';
    end if;
    v_description := btrim(case when jsonb_typeof(v_item -> 'description') = 'string' then v_item ->> 'description' end);
    if v_description is null or v_description = '' then
      raise exception 'Line item %: description is required', v_ord using errcode = '22023';
    end if;
    if length(v_description) > 2000 then
      raise exception 'Line item %: description must be at most 2000 characters', v_ord using errcode = '22023';
    end if;
    v_qty := case when jsonb_typeof(v_item -> 'qty') = 'number' then (v_item ->> 'qty')::numeric end;
    if v_qty is null or v_qty <> trunc(v_qty) or v_qty < 1 or v_qty > 1000000 then
      raise exception 'Line item %: quantity must be a whole number from 1 to 1,000,000', v_ord using errcode = '22023';
    end if;
    v_price := case when jsonb_typeof(v_item -> 'unit_price') = 'number' then (v_item ->> 'unit_price')::numeric end;
    if v_price is null or v_price <> trunc(v_price) or v_price < 0 or v_price > 100000000000 then
      raise exception 'Line item %: unit price must be whole cents from 0 to 1,000,000,000.00', v_ord using errcode = '22023';
    end if;
    if not public.fits_currency(v_price::bigint, v_invoice.currency) then
      raise exception 'Line item %: unit price must be a whole amount in %', v_ord, v_invoice.currency using errcode = '22023';
    end if;
    v_descriptions := v_descriptions || v_description;
    v_qtys := v_qtys || v_qty::integer;
    v_prices := v_prices || v_price::bigint;
  end loop;

  update public.invoices i
     set due_date = p_due_date, notes = v_notes, tax_rate = p_tax_rate, discount = p_discount
   where i.id = v_invoice.id;

  -- One statement: the row triggers that recompute the subtotal run once it
  -- has finished and all see the new lines, so the amounts change once.
  with removed as (
    delete from public.invoice_items it where it.invoice_id = v_invoice.id
  )
  insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
  select v_invoice.id, c.description, c.qty, c.unit_price, 0, (c.n - 1)::integer
    from unnest(v_descriptions, v_qtys, v_prices) with ordinality c(description, qty, unit_price, n)
   order by c.n;

  select * into v_changes from private.changed_values(v_before, private.invoice_draft_snapshot(v_invoice.id));
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(v_invoice.account_id, 'invoice_updated', 'invoice', v_invoice.id,
                                v_changes.old_values,
                                v_changes.new_values || jsonb_build_object('invoice_number', v_invoice.invoice_number));
  end if;

  select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  return v_invoice;
end;
$function$;
revoke all on function public.save_invoice_draft(p_invoice_id uuid, p_due_date date, p_notes text, p_tax_rate numeric, p_discount numeric, p_items jsonb) from public, anon, authenticated, service_role;
grant execute on function public.save_invoice_draft(p_invoice_id uuid, p_due_date date, p_notes text, p_tax_rate numeric, p_discount numeric, p_items jsonb) to authenticated, service_role;

create or replace function public.search_invoices(p_query text)
 returns setof public.invoices
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null then
    return;
  end if;
  -- As the invoices policy: staff every invoice of the account, a client those sent to it.
  return query execute $sql$
    select i.* from public.invoices i
     where i.account_id = $1
       and (i.invoice_number ilike $2 or i.client_name ilike $2 or i.client_email ilike $2)
       and ($3::uuid[] is null or (i.contact_id = any ($3::uuid[]) and i.sent_at is not null))
  $sql$ using v_account, private.contains_pattern(p_query), private.readable_contacts();
end;
$function$;
revoke all on function public.search_invoices(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_invoices(p_query text) to authenticated, service_role;

create or replace function public.send_invoice(p_invoice_id uuid)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'void', 'A void invoice cannot be sent',
    'paid', 'A paid invoice cannot be sent'));
begin
  if v_invoice.status <> 'draft' then
    perform public.resend_invoice(v_invoice.id, gen_random_uuid());
    return v_invoice;
  end if;
  update public.invoices i
     set status = 'sent', sent_at = now()
   where i.id = v_invoice.id
  returning * into v_invoice;
  perform private.enqueue_job('invoice_send', v_invoice.account_id, jsonb_build_object('invoice_id', v_invoice.id),
                              'invoice_send:' || v_invoice.id || ':' || extract(epoch from clock_timestamp())::text,
                              v_invoice.id);
  return v_invoice;
end;
$function$;
revoke all on function public.send_invoice(p_invoice_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.send_invoice(p_invoice_id uuid) to authenticated, service_role;

create or replace function public.sweep_overdue_invoices(p_now timestamp with time zone default null::timestamp with time zone)
 returns table(overdue_count integer, reminder_count integer)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_now timestamptz := coalesce(p_now, now());
  v_today date := (v_now at time zone 'UTC')::date;
  v_overdue integer;
  v_reminders integer;
begin
  update public.invoices i set status = 'overdue'
   where i.status in ('sent', 'pending') and i.due_date < v_today;
  get diagnostics v_overdue = row_count;

  with due as (
    update public.invoices i set reminded_at = v_now
     where i.status = 'overdue' and i.due_date < v_today
       and (i.reminded_at is null or i.reminded_at <= v_now - interval '7 days')
    returning i.id, i.account_id
  )
  select count(private.enqueue_job('invoice_reminder', d.account_id, jsonb_build_object('invoice_id', d.id),
                                   'invoice_reminder:' || d.id || ':' || v_today, d.id))::integer
    into v_reminders from due d;
  overdue_count := v_overdue;
  reminder_count := v_reminders;
  return next;
end;
$function$;
revoke all on function public.sweep_overdue_invoices(p_now timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.sweep_overdue_invoices(p_now timestamp with time zone) to service_role;

create or replace function public.void_invoice(p_invoice_id uuid)
 returns public.invoices
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'void', 'This invoice is already void',
    'paid', 'A paid invoice cannot be voided'));
begin
  update public.invoices i set status = 'void', voided_at = now() where i.id = v_invoice.id returning * into v_invoice;
  if v_invoice.amount_paid > 0 then
    insert into public.payments (account_id, invoice_id, amount, paid_on, method, reference, created_by, kind)
    values (v_invoice.account_id, v_invoice.id, -v_invoice.amount_paid, private.account_day(v_invoice.account_id, now()),
            'other', 'Credit: ' || v_invoice.invoice_number || ' voided', public.current_user_id(), 'credit');
    select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  end if;
  return v_invoice;
end;
$function$;
revoke all on function public.void_invoice(p_invoice_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.void_invoice(p_invoice_id uuid) to authenticated, service_role;

create trigger invoices_amounts before insert or update of subtotal, discount, tax_rate, discount_amount, tax, total on public.invoices for each row execute function private.invoice_amounts();
create trigger invoices_assign_number before insert on public.invoices for each row execute function private.assign_invoice_number();
create trigger invoices_audit after insert or update of status on public.invoices for each row execute function private.audit_invoice();
create trigger invoices_roll_day_stats after insert or delete or update of account_id, currency, status, total, created_at, sent_at, paid_at on public.invoices for each row execute function private.roll_invoice_day_stats();
create trigger invoices_roll_stats after insert or delete or update of status, currency, total, amount_paid, created_at on public.invoices for each row execute function private.roll_invoice_stats();
create trigger invoices_seller_at_send before insert or update on public.invoices for each row execute function private.take_seller_at_send();
create trigger invoices_set_updated_at before update on public.invoices for each row execute function private.set_updated_at();
create trigger invoices_unroll_payment_day_stats before delete on public.invoices for each row execute function private.unroll_invoice_payments();

create policy "staff read their account's invoices, a client those sent to it" on public.invoices
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (( select public.is_account_staff() as is_account_staff) or ((sent_at is not null) and (contact_id in ( select public.client_contact_ids() as client_contact_ids))))));

-- ── public.invoice_items ──

-- The lines of an invoice; their totals roll up into the invoice's.
create table public.invoice_items (
  id uuid default gen_random_uuid() not null,
  invoice_id uuid not null,
  description text not null,
  qty integer default 1 not null,
  unit_price bigint not null,
  total bigint not null,
  "position" integer default 0 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint invoice_items_pkey primary key (id),
  constraint invoice_items_description_check check (((length(btrim(description)) >= 1) and (length(btrim(description)) <= 2000))),
  constraint invoice_items_position_check check ((("position" >= 0) and ("position" < 100))),
  constraint invoice_items_qty_check check (((qty >= 1) and (qty <= 1000000))),
  constraint invoice_items_total_check check ((total >= 0)),
  constraint invoice_items_unit_price_check check (((unit_price >= 0) and (unit_price <= '100000000000'::bigint))),
  constraint invoice_items_invoice_id_fkey foreign key (invoice_id) references public.invoices(id) on delete cascade
);
alter table public.invoice_items enable row level security;

create index invoice_items_invoice_id_position_idx on public.invoice_items using btree (invoice_id, "position", created_at);

revoke all on table public.invoice_items from public, anon, authenticated, service_role;
grant all on table public.invoice_items to authenticated;
revoke delete, insert, truncate, update on table public.invoice_items from authenticated;
grant all on table public.invoice_items to service_role;

create or replace function private.invoice_item_total()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE' and new.invoice_id is distinct from old.invoice_id then
    raise exception 'A line item stays on its invoice' using errcode = '42501';
  end if;
  new.total := new.qty::bigint * new.unit_price;
  return new;
end;
$function$;
revoke all on function private.invoice_item_total() from public, anon, authenticated, service_role;

create or replace function private.recompute_invoice_subtotal()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice_id uuid := case when tg_op = 'DELETE' then old.invoice_id else new.invoice_id end;
  v_sum numeric;
begin
  select coalesce(sum(i.total), 0) into v_sum from public.invoice_items i where i.invoice_id = v_invoice_id;
  if v_sum > 1000000000000000000 then
    raise exception 'The invoice''s total is too large' using errcode = '22003';
  end if;
  update public.invoices v set subtotal = v_sum where v.id = v_invoice_id and v.subtotal <> v_sum;
  return null;
end;
$function$;
revoke all on function private.recompute_invoice_subtotal() from public, anon, authenticated, service_role;

create trigger invoice_items_recompute after insert or delete or update on public.invoice_items for each row execute function private.recompute_invoice_subtotal();
create trigger invoice_items_set_updated_at before update on public.invoice_items for each row execute function private.set_updated_at();
create trigger invoice_items_total before insert or update on public.invoice_items for each row execute function private.invoice_item_total();

create policy "readers of an invoice read its items" on public.invoice_items
  for select
  to authenticated
  using ((exists ( select 1
   from public.invoices i
  where ((i.id = invoice_items.invoice_id) and (i.account_id = ( select public.current_account_id() as current_account_id))))));

-- ── public.payments ──

-- Money received against an invoice; the invoice's paid amount and status follow them.
create table public.payments (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  invoice_id uuid not null,
  amount bigint not null,
  paid_on date not null,
  method text default 'bank_transfer'::text not null,
  reference text,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  kind text default 'payment'::text not null,
  constraint payments_pkey primary key (id),
  constraint payments_amount_check check ((((kind = 'payment'::text) and (amount > 0)) or ((kind = 'credit'::text) and (amount < 0)))),
  constraint payments_kind_check check ((kind = any (array['payment'::text, 'credit'::text]))),
  constraint payments_method_check check ((method = any (array['bank_transfer'::text, 'card'::text, 'cash'::text, 'other'::text]))),
  constraint payments_paid_on_check check ((paid_on >= '2000-01-01'::date)),
  constraint payments_reference_check check ((length(reference) <= 200)),
  constraint payments_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint payments_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint payments_invoice_id_account_id_fkey foreign key (invoice_id, account_id) references public.invoices(id, account_id) on delete cascade
);
alter table public.payments enable row level security;

create index payments_account_id_paid_on_idx on public.payments using btree (account_id, paid_on);
create index payments_created_by_idx on public.payments using btree (created_by);
create index payments_invoice_id_idx on public.payments using btree (invoice_id, paid_on, created_at);

revoke all on table public.payments from public, anon, authenticated, service_role;
grant all on table public.payments to authenticated;
revoke delete, insert, truncate, update on table public.payments from authenticated;
grant all on table public.payments to service_role;

create or replace function private.apply_payments()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice_id uuid := case when tg_op = 'DELETE' then old.invoice_id else new.invoice_id end;
  v_paid numeric;
begin
  select coalesce(sum(p.amount), 0) into v_paid from public.payments p where p.invoice_id = v_invoice_id;
  update public.invoices v
     set amount_paid = v_paid,
         status = case when v.status = 'void' then v.status
                       when v_paid >= v.total and v.total > 0 then 'paid'
                       when v_paid > 0 then 'pending'
                       else v.status end,
         paid_at = case when v_paid >= v.total and v.total > 0 then coalesce(v.paid_at, now()) else null end
   where v.id = v_invoice_id;
  return null;
end;
$function$;
revoke all on function private.apply_payments() from public, anon, authenticated, service_role;

create or replace function private.audit_payment()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.write_audit(new.account_id, 'payment_recorded', 'invoice', new.invoice_id, null,
                              jsonb_build_object('payment_id', new.id, 'amount', new.amount, 'paid_on', new.paid_on,
                                                 'method', new.method, 'reference', new.reference, 'kind', new.kind));
  return null;
end;
$function$;
revoke all on function private.audit_payment() from public, anon, authenticated, service_role;

create or replace function private.check_payment()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices;
  v_today date;
  v_issued date;
begin
  if tg_op = 'UPDATE' then
    raise exception 'A recorded payment cannot change' using errcode = '42501';
  end if;
  select * into v_invoice from public.invoices i where i.id = new.invoice_id for update;
  if not found then
    raise exception 'Invoice not found' using errcode = 'P0002';
  end if;
  new.account_id := v_invoice.account_id;
  if new.kind = 'credit' then
    -- Only void_invoice's: what a void invoice received, given back whole.
    if v_invoice.status <> 'void' or new.amount <> -v_invoice.amount_paid then
      raise exception 'A credit gives back what a voided invoice received' using errcode = '22023';
    end if;
    return new;
  end if;
  if v_invoice.status = 'void' then
    raise exception 'This invoice is void: no payment can be recorded' using errcode = '22023';
  end if;
  if v_invoice.status = 'draft' then
    raise exception 'This invoice is a draft: send it before recording a payment' using errcode = '22023';
  end if;
  if v_invoice.status = 'paid' then
    raise exception 'This invoice is paid in full' using errcode = '22023';
  end if;
  v_today := private.account_day(v_invoice.account_id, now());
  v_issued := private.account_day(v_invoice.account_id, coalesce(v_invoice.sent_at, v_invoice.created_at));
  if new.paid_on > v_today then
    raise exception 'The payment date cannot be in the future' using errcode = '22023';
  end if;
  if new.paid_on < v_issued then
    raise exception 'The payment date cannot be before the invoice was sent (%)', v_issued using errcode = '22023';
  end if;
  if new.amount > v_invoice.total - v_invoice.amount_paid then
    raise exception 'The payment is more than the balance due' using errcode = '22023';
  end if;
  return new;
end;
$function$;
revoke all on function private.check_payment() from public, anon, authenticated, service_role;

create or replace function private.roll_payment_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_currency text;
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.invoice_id, old.amount, old.paid_on)
         is not distinct from (new.account_id, new.invoice_id, new.amount, new.paid_on) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    select i.currency into v_currency from public.invoices i where i.id = old.invoice_id;
    if v_currency is not null then
      update private.payment_day_stats s set amount_sum = s.amount_sum - old.amount
       where s.account_id = old.account_id and s.day = old.paid_on and s.currency = v_currency;
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    select i.currency into v_currency from public.invoices i where i.id = new.invoice_id;
    if v_currency is not null then
      insert into private.payment_day_stats as s (account_id, day, currency, amount_sum)
      values (new.account_id, new.paid_on, v_currency, new.amount)
      on conflict (account_id, day, currency) do update set amount_sum = s.amount_sum + excluded.amount_sum;
    end if;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_payment_day_stats() from public, anon, authenticated, service_role;

create or replace function private.roll_payment_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_row public.payments := case when tg_op = 'DELETE' then old else new end;
  v_sign integer := case when tg_op = 'DELETE' then -1 else 1 end;
  v_currency text;
begin
  select i.currency into v_currency from public.invoices i where i.id = v_row.invoice_id;
  if v_currency is null then
    return null;
  end if;
  insert into private.payment_stats as s (account_id, currency, month, amount_sum)
  values (v_row.account_id, v_currency, date_trunc('month', v_row.paid_on)::date, v_sign * v_row.amount)
  on conflict (account_id, currency, month) do update set amount_sum = s.amount_sum + excluded.amount_sum;
  return null;
end;
$function$;
revoke all on function private.roll_payment_stats() from public, anon, authenticated, service_role;

create or replace function public.record_payment(p_invoice_id uuid, p_amount bigint, p_paid_on date, p_method text default 'bank_transfer'::text, p_reference text default null::text, p_currency text default null::text)
 returns public.payments
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_invoice public.invoices := private.writable_invoice(p_invoice_id);
  v_payment public.payments;
begin
  if p_currency is not null and p_currency <> v_invoice.currency then
    raise exception 'The payment must be in the invoice''s currency (%)', v_invoice.currency using errcode = '22023';
  end if;
  if p_amount is null or p_amount <= 0 then
    raise exception 'The amount must be more than zero' using errcode = '22023';
  end if;
  if p_paid_on is null then
    raise exception 'The payment date is required' using errcode = '22023';
  end if;
  if coalesce(p_method, '') not in ('bank_transfer', 'card', 'cash', 'other') then
    raise exception 'Method must be bank transfer, card, cash or other' using errcode = '22023';
  end if;
  insert into public.payments (account_id, invoice_id, amount, paid_on, method, reference, created_by)
  values (v_invoice.account_id, v_invoice.id, p_amount, p_paid_on, p_method, nullif(btrim(p_reference), ''),
          public.current_user_id())
  returning * into v_payment;
  return v_payment;
end;
$function$;
revoke all on function public.record_payment(p_invoice_id uuid, p_amount bigint, p_paid_on date, p_method text, p_reference text, p_currency text) from public, anon, authenticated, service_role;
grant execute on function public.record_payment(p_invoice_id uuid, p_amount bigint, p_paid_on date, p_method text, p_reference text, p_currency text) to authenticated, service_role;

create trigger payments_audit_recorded after insert on public.payments for each row execute function private.audit_payment();
create trigger payments_check before insert or update on public.payments for each row execute function private.check_payment();
create trigger payments_roll_day_stats after insert or delete or update of account_id, invoice_id, amount, paid_on on public.payments for each row execute function private.roll_payment_day_stats();
create trigger payments_roll_stats after insert or delete on public.payments for each row execute function private.roll_payment_stats();
create trigger payments_set_updated_at before update on public.payments for each row execute function private.set_updated_at();
create trigger payments_update_invoice after insert or delete on public.payments for each row execute function private.apply_payments();

create policy "readers of an invoice read its payments" on public.payments
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (exists ( select 1
   from public.invoices i
  where (i.id = payments.invoice_id)))));

-- ── private.invoice_number_counters ──

-- The last invoice number per account and year, so numbers have no gaps or doubles.
create table private.invoice_number_counters (
  account_id uuid not null,
  year integer not null,
  last_value integer not null,
  constraint invoice_number_counters_pkey primary key (account_id, year),
  constraint invoice_number_counters_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.invoice_number_counters enable row level security;

revoke all on table private.invoice_number_counters from public, anon, authenticated, service_role;

-- ── private.invoice_stats ──

-- Per account, currency, status and day of creation: how many invoices, their
-- totals and what was paid of them.
create table private.invoice_stats (
  account_id uuid not null,
  currency text not null,
  status text not null,
  day date not null,
  invoice_count bigint default 0 not null,
  total_sum numeric default 0 not null,
  paid_sum numeric default 0 not null,
  constraint invoice_stats_pkey primary key (account_id, currency, status, day),
  constraint invoice_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.invoice_stats enable row level security;

revoke all on table private.invoice_stats from public, anon, authenticated, service_role;

-- ── private.invoice_totals ──

create table private.invoice_totals (
  account_id uuid not null,
  currency text not null,
  status text not null,
  invoice_count bigint default 0 not null,
  total_sum numeric default 0 not null,
  paid_sum numeric default 0 not null,
  constraint invoice_totals_pkey primary key (account_id, currency, status),
  constraint invoice_totals_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.invoice_totals enable row level security;

revoke all on table private.invoice_totals from public, anon, authenticated, service_role;

-- ── private.payment_stats ──

-- Per account, currency and month of payment.
create table private.payment_stats (
  account_id uuid not null,
  currency text not null,
  month date not null,
  amount_sum numeric default 0 not null,
  constraint payment_stats_pkey primary key (account_id, currency, month),
  constraint payment_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.payment_stats enable row level security;

revoke all on table private.payment_stats from public, anon, authenticated, service_role;
