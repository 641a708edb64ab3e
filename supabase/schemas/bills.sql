-- Bills: what suppliers invoice the account.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.bills ──

-- What a supplier invoices the account (decision 048), made from a reviewed document.
create table public.bills (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  supplier_name text not null,
  supplier_email text,
  supplier_tax_id text,
  number text,
  issue_date date,
  due_date date,
  currency text not null,
  subtotal bigint,
  tax bigint,
  total bigint not null,
  status text default 'to_pay'::text not null,
  paid_on date,
  document_id uuid,
  notes text,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint bills_pkey primary key (id),
  constraint bills_document_id_key unique (document_id),
  constraint bills_id_account_id_key unique (id, account_id),
  constraint bills_check check (((status = 'paid'::text) = (paid_on is not null))),
  constraint bills_check1 check (((paid_on is null) or (issue_date is null) or (paid_on >= issue_date))),
  constraint bills_check2 check (((due_date is null) or (issue_date is null) or (due_date >= issue_date))),
  constraint bills_currency_check check ((currency ~ '^[A-Z]{3}$'::text)),
  constraint bills_notes_check check ((length(notes) <= 5000)),
  constraint bills_number_check check (((length(btrim(number)) >= 1) and (length(btrim(number)) <= 100))),
  constraint bills_status_check check ((status = any (array['to_pay'::text, 'paid'::text]))),
  constraint bills_subtotal_check check (((subtotal >= 0) and (subtotal <= '1000000000000000000'::bigint))),
  constraint bills_supplier_email_check check (((length(supplier_email) >= 3) and (length(supplier_email) <= 320))),
  constraint bills_supplier_name_check check (((length(btrim(supplier_name)) >= 1) and (length(btrim(supplier_name)) <= 200))),
  constraint bills_supplier_tax_id_check check (((length(btrim(supplier_tax_id)) >= 1) and (length(btrim(supplier_tax_id)) <= 50))),
  constraint bills_tax_check check (((tax >= 0) and (tax <= '1000000000000000000'::bigint))),
  constraint bills_total_check check (((total > 0) and (total <= '1000000000000000000'::bigint))),
  constraint bills_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint bills_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint bills_document_id_account_id_fkey foreign key (document_id, account_id) references public.documents(id, account_id) on delete set null (document_id)
);
alter table public.bills enable row level security;

create index bills_account_id_created_at_idx on public.bills using btree (account_id, created_at desc, id desc);
create index bills_account_id_due_date_id_idx on public.bills using btree (account_id, due_date, id);
create index bills_account_id_status_created_at_idx on public.bills using btree (account_id, status, created_at desc, id desc);
create index bills_account_id_supplier_name_id_idx on public.bills using btree (account_id, supplier_name, id);
create index bills_account_id_total_id_idx on public.bills using btree (account_id, total, id);
create index bills_account_number_trgm_idx on public.bills using gin (account_id, number extensions.gin_trgm_ops);
create unique index bills_account_supplier_number_key on public.bills using btree (account_id, lower(btrim(supplier_name)), lower(btrim(number)));
create index bills_account_supplier_trgm_idx on public.bills using gin (account_id, supplier_name extensions.gin_trgm_ops);
create index bills_created_by_idx on public.bills using btree (created_by);

revoke all on table public.bills from public, anon, authenticated, service_role;
grant all on table public.bills to authenticated;
revoke insert, truncate, update on table public.bills from authenticated;
grant all on table public.bills to service_role;
grant insert (account_id, supplier_name, supplier_email, supplier_tax_id, number, issue_date, due_date, currency, subtotal, tax, total, notes) on table public.bills to authenticated;
grant update (supplier_name, supplier_email, supplier_tax_id, number, issue_date, due_date, currency, subtotal, tax, total, notes) on table public.bills to authenticated;

create or replace function private.audit_bill()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.audit_bill() from public, anon, authenticated, service_role;

create or replace function public.bill_totals()
 returns table(currency text, to_pay bigint, to_pay_count integer, paid bigint, paid_count integer)
 language sql
 stable
 set search_path to ''
as $function$
  select b.currency,
         coalesce(sum(b.total) filter (where b.status = 'to_pay'), 0)::bigint,
         (count(*) filter (where b.status = 'to_pay'))::integer,
         coalesce(sum(b.total) filter (where b.status = 'paid'), 0)::bigint,
         (count(*) filter (where b.status = 'paid'))::integer
    from public.bills b
   where b.account_id = public.current_account_id()
   group by b.currency
   order by b.currency
$function$;
revoke all on function public.bill_totals() from public, anon, authenticated, service_role;
grant execute on function public.bill_totals() to authenticated, service_role;

create or replace function public.create_bill_from_document(p_document_id uuid, p_notes text default null::text)
 returns public.bills
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.create_bill_from_document(p_document_id uuid, p_notes text) from public, anon, authenticated, service_role;
grant execute on function public.create_bill_from_document(p_document_id uuid, p_notes text) to authenticated, service_role;

create or replace function public.mark_bill_paid(p_bill_id uuid, p_paid_on date)
 returns public.bills
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.mark_bill_paid(p_bill_id uuid, p_paid_on date) from public, anon, authenticated, service_role;
grant execute on function public.mark_bill_paid(p_bill_id uuid, p_paid_on date) to authenticated, service_role;

create or replace function public.search_bills(p_query text)
 returns setof public.bills
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
    select b.* from public.bills b
     where b.account_id = $1
       and (b.supplier_name ilike $2 or b.number ilike $2)
  $sql$ using v_account, private.contains_pattern(p_query);
end;
$function$;
revoke all on function public.search_bills(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_bills(p_query text) to authenticated, service_role;

create trigger bills_audit after insert or delete or update on public.bills for each row execute function private.audit_bill();
create trigger bills_set_updated_at before update on public.bills for each row execute function private.set_updated_at();

create policy "business writers add bills" on public.bills
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete bills to pay" on public.bills
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business) and (status = 'to_pay'::text)));

create policy "business writers update bills to pay" on public.bills
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business) and (status = 'to_pay'::text)))
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and (status = 'to_pay'::text)));

create policy "staff read their account's bills" on public.bills
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));
