-- Bills: the supplier invoices the account has to pay (payables; decision 048).
-- A document whose supplier is not the account itself is a bill, not a sale:
-- create_bill_from_document records it from the document's approved fields,
-- once per document and once per (supplier, supplier's number).
--
-- Staff read, admins and members write (a bill to pay is edited and deleted
-- through the API under row-level security and column grants; a paid one is
-- history); auditors read; clients, suppliers and anyone else see nothing.
-- Paying goes through mark_bill_paid (a date neither in the future nor
-- before the bill's issue date).

create table public.bills (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  supplier_name text not null check (length(btrim(supplier_name)) between 1 and 200),
  supplier_email text check (length(supplier_email) between 3 and 320),
  supplier_tax_id text check (length(btrim(supplier_tax_id)) between 1 and 50),
  -- The supplier's own invoice number.
  number text check (length(btrim(number)) between 1 and 100),
  issue_date date,
  due_date date,
  -- Whatever the supplier billed in: an ISO 4217 code.
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  -- Cents (minor units).
  subtotal bigint check (subtotal >= 0 and subtotal <= 1000000000000000000),
  tax bigint check (tax >= 0 and tax <= 1000000000000000000),
  total bigint not null check (total > 0 and total <= 1000000000000000000),
  status text not null default 'to_pay' check (status in ('to_pay', 'paid')),
  paid_on date,
  document_id uuid,
  notes text check (length(notes) <= 5000),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status = 'paid') = (paid_on is not null)),
  check (paid_on is null or issue_date is null or paid_on >= issue_date),
  check (due_date is null or issue_date is null or due_date >= issue_date),
  unique (id, account_id),
  -- A document is recorded as one bill.
  unique (document_id),
  foreign key (document_id, account_id) references public.documents (id, account_id) on delete set null (document_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
-- One bill per supplier invoice: the same number from the same supplier is recorded once.
create unique index bills_account_supplier_number_key on public.bills (account_id, lower(btrim(supplier_name)), lower(btrim(number)));
create index bills_account_id_created_at_idx on public.bills (account_id, created_at desc, id desc);
create index bills_account_id_status_created_at_idx on public.bills (account_id, status, created_at desc, id desc);
create index bills_created_by_idx on public.bills (created_by);
create index bills_account_supplier_trgm_idx on public.bills using gin (account_id, supplier_name extensions.gin_trgm_ops);
create index bills_account_number_trgm_idx on public.bills using gin (account_id, number extensions.gin_trgm_ops);

create trigger bills_set_updated_at before update on public.bills
  for each row execute function private.set_updated_at();

-- Row-level security ----------------------------------------------------------

alter table public.bills enable row level security;
revoke all on public.bills from anon;
revoke insert, update, delete, truncate on public.bills from authenticated;
-- What a person may type; status, paid_on and the document link are the functions'.
grant insert (account_id, supplier_name, supplier_email, supplier_tax_id, number, issue_date, due_date, currency,
              subtotal, tax, total, notes) on public.bills to authenticated;
grant update (supplier_name, supplier_email, supplier_tax_id, number, issue_date, due_date, currency,
              subtotal, tax, total, notes) on public.bills to authenticated;
grant delete on public.bills to authenticated;

create policy "staff read their account's bills" on public.bills
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add bills" on public.bills
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
-- A paid bill is history: only a bill to pay is edited or deleted.
create policy "business writers update bills to pay" on public.bills
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()) and status = 'to_pay')
  with check (account_id = (select public.current_account_id()) and status = 'to_pay');
create policy "business writers delete bills to pay" on public.bills
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()) and status = 'to_pay');

-- Audit rows ------------------------------------------------------------------

create function private.audit_bill() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'bill_created', 'bill', new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    perform private.write_audit(old.account_id, 'bill_deleted', 'bill', old.id, to_jsonb(old), null);
  elsif new.status is distinct from old.status then
    perform private.write_audit(new.account_id, 'bill_' || new.status, 'bill', new.id,
                                jsonb_build_object('status', old.status, 'paid_on', old.paid_on),
                                jsonb_build_object('status', new.status, 'paid_on', new.paid_on, 'number', new.number));
  else
    select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, 'bill_updated', 'bill', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  end if;
  return null;
end;
$$;
revoke all on function private.audit_bill() from public;
create trigger bills_audit after insert or update or delete on public.bills
  for each row execute function private.audit_bill();

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('bill', 'public.bills', $$concat_ws(' ', r.supplier_name, r.number)$$, 'supplier_name', true);

-- The document's bill ----------------------------------------------------------

-- A field of a document's jsonb, trimmed; null when absent or blank.
create function private.document_field(p_fields jsonb, p_key text) returns text
language sql immutable
set search_path = ''
as $$
  select nullif(btrim(case when jsonb_typeof(p_fields -> p_key -> 'value') = 'string' then p_fields -> p_key ->> 'value' end), '')
$$;

-- '1542.60' → 154260; null for anything that is not an amount of up to 12 digits and 2 decimals.
create function private.amount_cents(p_value text) returns bigint
language sql immutable
set search_path = ''
as $$
  select case when p_value ~ '^\d{1,12}(\.\d{1,2})?$' then round(p_value::numeric * 100)::bigint end
$$;

create function private.document_date(p_value text) returns date
language plpgsql immutable
set search_path = ''
as $$
begin
  if p_value !~ '^\d{4}-\d{2}-\d{2}$' then
    return null;
  end if;
  return p_value::date;
exception when others then
  return null;
end;
$$;

-- The bill a reviewed document states: its supplier, number, dates, currency
-- and amounts as approved. Refused (22023) with the field to correct when one
-- is missing; a second bill from the document, or a bill already recorded
-- with that supplier and number, raises 23505 naming it (detail = its id).
create function public.create_bill_from_document(p_document_id uuid, p_notes text default null)
returns public.bills
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_document public.documents := private.reviewed_document(p_document_id);
  v_fields jsonb := case when jsonb_typeof(v_document.fields) = 'object' then v_document.fields else '{}'::jsonb end;
  v_supplier text := private.document_field(v_fields, 'supplier_name');
  v_number text := private.document_field(v_fields, 'invoice_number');
  v_currency text := upper(private.document_field(v_fields, 'currency'));
  v_total_text text := private.document_field(v_fields, 'total');
  v_total bigint := private.amount_cents(private.document_field(v_fields, 'total'));
  v_issue text := private.document_field(v_fields, 'issue_date');
  v_due text := private.document_field(v_fields, 'due_date');
  v_email text := lower(private.document_field(v_fields, 'email'));
  v_existing public.bills;
  v_bill public.bills;
begin
  select * into v_existing from public.bills b where b.document_id = v_document.id;
  if found then
    raise exception 'Already recorded as a bill from %', v_existing.supplier_name
      using errcode = '23505', detail = v_existing.id::text, hint = concat_ws(' ', v_existing.supplier_name, v_existing.number);
  end if;
  if v_supplier is null then
    raise exception 'Enter the supplier to record the bill' using errcode = '22023', hint = 'supplier_name';
  end if;
  if v_total_text is null then
    raise exception 'Enter the document''s total to record the bill' using errcode = '22023', hint = 'total';
  end if;
  if v_total is null or v_total <= 0 then
    raise exception 'The total must be more than zero' using errcode = '22023', hint = 'total';
  end if;
  if v_currency is null or v_currency !~ '^[A-Z]{3}$' then
    raise exception 'Enter the document''s currency (three letters) to record the bill' using errcode = '22023', hint = 'currency';
  end if;
  if v_issue is not null and private.document_date(v_issue) is null then
    raise exception 'The issue date is not a date' using errcode = '22023', hint = 'issue_date';
  end if;
  if v_due is not null and private.document_date(v_due) is null then
    raise exception 'The due date is not a date' using errcode = '22023', hint = 'due_date';
  end if;
  if private.document_date(v_due) < private.document_date(v_issue) then
    raise exception 'The due date cannot be before the issue date' using errcode = '22023', hint = 'due_date';
  end if;
  select * into v_existing from public.bills b
   where b.account_id = v_document.account_id
     and lower(btrim(b.supplier_name)) = lower(v_supplier) and lower(btrim(b.number)) = lower(v_number);
  if found then
    raise exception 'A bill from % numbered % is already recorded', v_existing.supplier_name, v_existing.number
      using errcode = '23505', detail = v_existing.id::text, hint = concat_ws(' ', v_existing.supplier_name, v_existing.number);
  end if;

  insert into public.bills (account_id, supplier_name, supplier_email, supplier_tax_id, number, issue_date, due_date,
                            currency, subtotal, tax, total, document_id, notes)
  values (v_document.account_id, left(v_supplier, 200),
          case when v_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and length(v_email) <= 320 then v_email end,
          left(private.document_field(v_fields, 'tax_id'), 50), left(v_number, 100),
          private.document_date(v_issue), private.document_date(v_due), v_currency,
          private.amount_cents(private.document_field(v_fields, 'subtotal')),
          private.amount_cents(private.document_field(v_fields, 'tax_amount')),
          v_total, v_document.id,
          coalesce(nullif(btrim(p_notes), ''), left('From the document "' || v_document.title || '"', 5000)))
  returning * into v_bill;
  perform private.write_audit(v_document.account_id, 'document_bill_recorded', 'document', v_document.id, null,
                              jsonb_build_object('bill_id', v_bill.id, 'supplier_name', v_bill.supplier_name, 'number', v_bill.number));
  return v_bill;
end;
$$;

-- Paid on a day that has come, and not before the bill was issued.
create function public.mark_bill_paid(p_bill_id uuid, p_paid_on date)
returns public.bills
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_bill public.bills;
begin
  if public.current_account_id() is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can mark bills paid' using errcode = '42501';
  end if;
  select * into v_bill from public.bills b
   where b.id = p_bill_id and b.account_id = public.current_account_id() for update;
  if not found then
    raise exception 'Bill not found' using errcode = 'P0002';
  end if;
  if v_bill.status <> 'to_pay' then
    raise exception 'This bill is already paid' using errcode = '22023';
  end if;
  if p_paid_on is null then
    raise exception 'Enter the day it was paid' using errcode = '22023';
  end if;
  if p_paid_on > current_date then
    raise exception 'The payment date cannot be in the future' using errcode = '22023';
  end if;
  if v_bill.issue_date is not null and p_paid_on < v_bill.issue_date then
    raise exception 'The payment date cannot be before the bill''s issue date' using errcode = '22023';
  end if;
  update public.bills b set status = 'paid', paid_on = p_paid_on where b.id = v_bill.id returning * into v_bill;
  return v_bill;
end;
$$;

-- The caller's bills whose supplier or number contain p_query (decision 037).
create function public.search_bills(p_query text)
returns setof public.bills
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select b.* from public.bills b
     where b.account_id = $1
       and (b.supplier_name ilike $2 or b.number ilike $2)
  $sql$ using v_account, private.contains_pattern(p_query);
end;
$$;

-- The list's totals: per currency, never added across currencies.
create function public.bill_totals()
returns table (currency text, to_pay bigint, to_pay_count integer, paid bigint, paid_count integer)
language sql stable
security invoker
set search_path = ''
as $$
  select b.currency,
         coalesce(sum(b.total) filter (where b.status = 'to_pay'), 0)::bigint,
         (count(*) filter (where b.status = 'to_pay'))::integer,
         coalesce(sum(b.total) filter (where b.status = 'paid'), 0)::bigint,
         (count(*) filter (where b.status = 'paid'))::integer
    from public.bills b
   where b.account_id = public.current_account_id()
   group by b.currency
   order by b.currency
$$;

revoke all on function private.document_field(jsonb, text) from public, anon, authenticated;
revoke all on function private.amount_cents(text) from public, anon, authenticated;
revoke all on function private.document_date(text) from public, anon, authenticated;
revoke all on function public.create_bill_from_document(uuid, text) from public, anon;
revoke all on function public.mark_bill_paid(uuid, date) from public, anon;
revoke all on function public.search_bills(text) from public, anon;
revoke all on function public.bill_totals() from public, anon;
grant execute on function public.create_bill_from_document(uuid, text) to authenticated;
grant execute on function public.mark_bill_paid(uuid, date) to authenticated;
grant execute on function public.search_bills(text) to authenticated;
grant execute on function public.bill_totals() to authenticated;
