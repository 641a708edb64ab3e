-- Invoices, real (decision 029): the account's invoice book, its line items
-- and the payments against it.
--
-- Who does what (the role matrix): staff (admin, member, auditor) read the
-- account's invoices, items and payments; a client reads the invoices
-- addressed to them (their contact, as for quotes) with their items and
-- payments; a supplier nothing. Nobody writes the tables through the API:
-- every write is a state change with rules (gapless numbers, totals computed
-- here, payments that must fit the balance), made by the functions below,
-- which check that the caller is an admin or member of the invoice's account.
--
-- Amounts in integer cents, each rounded half-up like a quote's:
--   subtotal        = sum of the items (qty x unit_price)
--   discount_amount = subtotal x discount / 100
--   tax             = (subtotal - discount_amount) x tax_rate / 100
--   total           = subtotal - discount_amount + tax
--   amount_paid     = sum of the payments (a trigger keeps it)
-- Status: draft -> sent -> pending (partly paid) -> paid; sent|pending ->
-- overdue (the daily job, past due_date); anything unpaid -> void.

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  -- Assigned by a trigger from the account's own counter (INV-2026-0001).
  invoice_number text,
  contact_id uuid,
  quote_id uuid,
  created_by uuid,
  client_name text not null check (length(btrim(client_name)) between 1 and 200),
  client_email text not null check (length(client_email) between 3 and 320),
  currency text not null default 'USD' check (currency in ('USD', 'EUR', 'GBP')),
  tax_rate numeric(5, 2) not null default 0 check (tax_rate >= 0 and tax_rate <= 100),
  discount numeric(5, 2) not null default 0 check (discount >= 0 and discount <= 100),
  subtotal bigint not null default 0 check (subtotal >= 0 and subtotal <= 1000000000000000000),
  discount_amount bigint not null default 0 check (discount_amount >= 0),
  tax bigint not null default 0 check (tax >= 0),
  total bigint not null default 0 check (total >= 0 and total <= 1000000000000000000),
  amount_paid bigint not null default 0 check (amount_paid >= 0 and amount_paid <= total),
  due_date date not null,
  status text not null default 'draft' check (status in ('draft', 'sent', 'pending', 'paid', 'overdue', 'void')),
  notes text check (length(notes) <= 5000),
  sent_at timestamptz,
  paid_at timestamptz,
  voided_at timestamptz,
  -- The last overdue reminder mailed (at most one per 7 days).
  reminded_at timestamptz,
  -- SHA-256 of the token of the public link /i/<token> (the token itself is never stored).
  link_token_hash bytea unique check (octet_length(link_token_hash) = 32),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, invoice_number),
  unique (id, account_id),
  -- A quote becomes an invoice once.
  unique (quote_id),
  foreign key (contact_id, account_id) references public.contacts (id, account_id) on delete set null (contact_id),
  foreign key (quote_id, account_id) references public.quotes (id, account_id) on delete set null (quote_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index invoices_account_id_created_at_idx on public.invoices (account_id, created_at desc, id desc);
create index invoices_account_id_status_created_at_idx on public.invoices (account_id, status, created_at desc, id desc);
create index invoices_contact_id_idx on public.invoices (contact_id);
create index invoices_created_by_idx on public.invoices (created_by);
-- The overdue sweep reads open invoices whose due date has passed.
create index invoices_open_due_idx on public.invoices (due_date) where status in ('sent', 'pending', 'overdue');

create table public.invoice_items (
  id uuid primary key default gen_random_uuid(),
  invoice_id uuid not null references public.invoices (id) on delete cascade,
  description text not null check (length(btrim(description)) between 1 and 2000),
  qty integer not null default 1 check (qty >= 1 and qty <= 1000000),
  unit_price bigint not null check (unit_price >= 0 and unit_price <= 100000000000),
  total bigint not null check (total >= 0),
  position integer not null default 0 check (position >= 0 and position < 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index invoice_items_invoice_id_position_idx on public.invoice_items (invoice_id, position, created_at);

create table public.payments (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  invoice_id uuid not null,
  -- In the invoice's currency (a payment has none of its own).
  amount bigint not null check (amount > 0),
  paid_on date not null,
  method text not null default 'bank_transfer' check (method in ('bank_transfer', 'card', 'cash', 'other')),
  reference text check (length(reference) <= 200),
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (invoice_id, account_id) references public.invoices (id, account_id) on delete cascade,
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index payments_invoice_id_idx on public.payments (invoice_id, paid_on, created_at);
create index payments_account_id_paid_on_idx on public.payments (account_id, paid_on);
create index payments_created_by_idx on public.payments (created_by);

create trigger invoices_set_updated_at before update on public.invoices
  for each row execute function private.set_updated_at();
create trigger invoice_items_set_updated_at before update on public.invoice_items
  for each row execute function private.set_updated_at();
create trigger payments_set_updated_at before update on public.payments
  for each row execute function private.set_updated_at();

-- Row-level security ----------------------------------------------------------

alter table public.invoices enable row level security;
alter table public.invoice_items enable row level security;
alter table public.payments enable row level security;
revoke all on public.invoices, public.invoice_items, public.payments from anon;
revoke insert, update, delete, truncate on public.invoices, public.invoice_items, public.payments from authenticated;

-- A client's invoices: those whose contact is theirs (client_contact_ids, as quotes).
create policy "staff read their account's invoices, a client those addressed to it" on public.invoices
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff()) or contact_id in (select public.client_contact_ids())));
-- Whoever reads the invoice reads its items and payments (the invoices policy applies inside).
create policy "readers of an invoice read its items" on public.invoice_items
  for select to authenticated
  using (exists (select 1 from public.invoices i
                 where i.id = invoice_id and i.account_id = (select public.current_account_id())));
create policy "readers of an invoice read its payments" on public.payments
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and exists (select 1 from public.invoices i where i.id = invoice_id));

-- Numbers ---------------------------------------------------------------------

create table private.invoice_number_counters (
  account_id uuid not null references public.accounts (id) on delete cascade,
  year integer not null,
  last_value integer not null,
  primary key (account_id, year)
);
alter table private.invoice_number_counters enable row level security;
revoke all on private.invoice_number_counters from public;

create or replace function private.assign_invoice_number() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
create trigger invoices_assign_number before insert on public.invoices
  for each row execute function private.assign_invoice_number();

-- Amounts ---------------------------------------------------------------------

create or replace function private.invoice_item_total() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.invoice_id is distinct from old.invoice_id then
    raise exception 'A line item stays on its invoice' using errcode = '42501';
  end if;
  new.total := new.qty::bigint * new.unit_price;
  return new;
end;
$$;
create trigger invoice_items_total before insert or update on public.invoice_items
  for each row execute function private.invoice_item_total();

-- Items changed: the invoice's subtotal follows (its other amounts follow from it below).
create or replace function private.recompute_invoice_subtotal() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
create trigger invoice_items_recompute after insert or update or delete on public.invoice_items
  for each row execute function private.recompute_invoice_subtotal();

-- Whatever is written, discount, tax and total are computed from the subtotal and rates.
create or replace function private.invoice_amounts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
create trigger invoices_amounts before insert or update of subtotal, discount, tax_rate, discount_amount, tax, total
  on public.invoices for each row execute function private.invoice_amounts();

-- Payments --------------------------------------------------------------------

-- A payment fits its invoice: the invoice is locked first (concurrent
-- payments of one invoice queue here), so two payments never overpay it.
create or replace function private.check_payment() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices;
begin
  if tg_op = 'UPDATE' then
    raise exception 'A recorded payment cannot change' using errcode = '42501';
  end if;
  select * into v_invoice from public.invoices i where i.id = new.invoice_id for update;
  if not found then
    raise exception 'Invoice not found' using errcode = 'P0002';
  end if;
  new.account_id := v_invoice.account_id;
  if v_invoice.status = 'void' then
    raise exception 'This invoice is void: no payment can be recorded' using errcode = '22023';
  end if;
  if v_invoice.status = 'paid' then
    raise exception 'This invoice is paid in full' using errcode = '22023';
  end if;
  if new.paid_on > (now() at time zone 'UTC')::date + 1 then
    -- A day of grace: today somewhere east of UTC is tomorrow here.
    raise exception 'The payment date cannot be in the future' using errcode = '22023';
  end if;
  if new.amount > v_invoice.total - v_invoice.amount_paid then
    raise exception 'The payment is more than the balance due' using errcode = '22023';
  end if;
  return new;
end;
$$;
create trigger payments_check before insert or update on public.payments
  for each row execute function private.check_payment();

-- The invoice follows its payments: amount_paid, then pending or paid.
create or replace function private.apply_payments() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
create trigger payments_update_invoice after insert or delete on public.payments
  for each row execute function private.apply_payments();

-- Audit rows and events -------------------------------------------------------

create or replace function private.audit_invoice() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
create trigger invoices_audit after insert or update of status on public.invoices
  for each row execute function private.audit_invoice();

create or replace function private.audit_payment() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.write_audit(new.account_id, 'payment_recorded', 'invoice', new.invoice_id, null,
                              jsonb_build_object('payment_id', new.id, 'amount', new.amount, 'paid_on', new.paid_on,
                                                 'method', new.method, 'reference', new.reference));
  return null;
end;
$$;
create trigger payments_audit_recorded after insert on public.payments
  for each row execute function private.audit_payment();

-- The cards' rollups: flat cost whatever the size of the book ------------------

-- Per account, currency, status and day of creation: how many invoices,
-- their totals and what was paid of them.
create table private.invoice_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  currency text not null,
  status text not null,
  day date not null,
  invoice_count bigint not null default 0,
  total_sum numeric not null default 0,
  paid_sum numeric not null default 0,
  primary key (account_id, currency, status, day)
);
-- Per account, currency and month of payment.
create table private.payment_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  currency text not null,
  month date not null,
  amount_sum numeric not null default 0,
  primary key (account_id, currency, month)
);
alter table private.invoice_stats enable row level security;
alter table private.payment_stats enable row level security;
revoke all on private.invoice_stats, private.payment_stats from public;

create or replace function private.roll_invoice_stats() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update private.invoice_stats s
       set invoice_count = s.invoice_count - 1, total_sum = s.total_sum - old.total, paid_sum = s.paid_sum - old.amount_paid
     where s.account_id = old.account_id and s.currency = old.currency and s.status = old.status
       and s.day = (old.created_at at time zone 'UTC')::date;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.invoice_stats as s (account_id, currency, status, day, invoice_count, total_sum, paid_sum)
    values (new.account_id, new.currency, new.status, (new.created_at at time zone 'UTC')::date, 1, new.total, new.amount_paid)
    on conflict (account_id, currency, status, day) do update
      set invoice_count = s.invoice_count + 1, total_sum = s.total_sum + excluded.total_sum,
          paid_sum = s.paid_sum + excluded.paid_sum;
  end if;
  return null;
end;
$$;
create trigger invoices_roll_stats after insert or delete or update of status, currency, total, amount_paid, created_at
  on public.invoices for each row execute function private.roll_invoice_stats();

create or replace function private.roll_payment_stats() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
create trigger payments_roll_stats after insert or delete on public.payments
  for each row execute function private.roll_payment_stats();

-- The four cards: Outstanding (balance of sent, pending and overdue
-- invoices), Paid This Month (payments dated this calendar month), Total
-- Invoices, Collection Rate (paid / invoiced over invoices of the last 90
-- days, drafts and void ones left out; null when nothing was invoiced).
-- Money per currency, never added across currencies.
create or replace function public.invoice_summary()
returns table (total_count bigint, outstanding jsonb, paid_this_month jsonb, collection jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_today date := (now() at time zone 'UTC')::date;
begin
  if v_account_id is null or not public.is_account_staff() then
    raise exception 'Only the account''s staff read its invoice figures' using errcode = '42501';
  end if;
  return query
  select
    (select coalesce(sum(s.invoice_count), 0)::bigint from private.invoice_stats s where s.account_id = v_account_id),
    (select coalesce(jsonb_agg(jsonb_build_object('currency', o.currency, 'count', o.n, 'value', o.v, 'average', 0)
                               order by o.n desc, o.currency), '[]'::jsonb)
       from (select s.currency, sum(s.invoice_count) as n, sum(s.total_sum - s.paid_sum) as v
               from private.invoice_stats s
              where s.account_id = v_account_id and s.status in ('sent', 'pending', 'overdue')
              group by s.currency having sum(s.invoice_count) > 0) o),
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
$$;

-- Writing: the product's functions ----------------------------------------------

-- The caller's account, when they may write business records; else an error.
create or replace function private.invoice_writer_account() returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
begin
  if v_account_id is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can change invoices' using errcode = '42501';
  end if;
  return v_account_id;
end;
$$;

-- The caller's invoice, locked; 'Invoice not found' for any other (another account's included).
create or replace function private.writable_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The New Invoice dialog: a draft with one line item, for the contact with
-- that email (matched case-insensitively), or a new contact.
create or replace function public.create_invoice(
  p_client_name text,
  p_client_email text,
  p_description text,
  p_unit_price bigint,
  p_quantity integer,
  p_currency text,
  p_due_date date,
  p_notes text default null
) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
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
  if coalesce(p_currency, '') not in ('USD', 'EUR', 'GBP') then
    raise exception 'Currency must be USD, EUR or GBP' using errcode = '22023';
  end if;
  if p_due_date is null then
    raise exception 'Due date is required' using errcode = '22023';
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
$$;

-- "Convert to invoice": a signed quote becomes a draft invoice with its items,
-- rates and contact, once. A second try names the invoice it became.
create or replace function public.convert_quote_to_invoice(p_quote_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := private.invoice_writer_account();
  v_quote public.quotes;
  v_contact public.contacts;
  v_existing public.invoices;
  v_invoice public.invoices;
begin
  -- Locked: two conversions of one quote queue here; the second sees the first's invoice.
  select * into v_quote from public.quotes q where q.id = p_quote_id and q.account_id = v_account_id for update;
  if not found then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  select * into v_existing from public.invoices i where i.quote_id = p_quote_id;
  if found then
    raise exception 'Already converted to %', v_existing.invoice_number
      using errcode = '23505', detail = v_existing.id::text, hint = v_existing.invoice_number;
  end if;
  if v_quote.status <> 'signed' then
    raise exception 'Only a signed quote can be converted to an invoice' using errcode = '22023';
  end if;
  select * into v_contact from public.contacts c where c.id = v_quote.contact_id;
  if v_contact.id is null and v_quote.signer_email is null then
    raise exception 'The quote has no client to invoice' using errcode = '22023';
  end if;

  insert into public.invoices (account_id, contact_id, quote_id, created_by, client_name, client_email, currency,
                               tax_rate, discount, due_date, notes)
  values (v_account_id, v_contact.id, v_quote.id, public.current_user_id(),
          coalesce(v_contact.name, v_quote.signer_name, v_quote.signer_email),
          lower(coalesce(v_contact.email, v_quote.signer_email)), v_quote.currency, v_quote.tax_rate, v_quote.discount,
          (now() at time zone 'UTC')::date + 30, v_quote.notes)
  returning id into v_invoice.id;
  insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
  select v_invoice.id, qi.description, qi.qty, qi.unit_price, 0,
         (row_number() over (order by qi.position, qi.created_at, qi.id) - 1)::integer
    from public.quote_items qi where qi.quote_id = v_quote.id;
  select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  return v_invoice;
end;
$$;

-- Record payment: in the invoice's currency (p_currency, when given, must be it).
create or replace function public.record_payment(
  p_invoice_id uuid,
  p_amount bigint,
  p_paid_on date,
  p_method text default 'bank_transfer',
  p_reference text default null,
  p_currency text default null
) returns public.payments
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create or replace function public.void_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.writable_invoice(p_invoice_id);
begin
  if v_invoice.status = 'void' then
    raise exception 'This invoice is already void' using errcode = '22023';
  end if;
  if v_invoice.status = 'paid' then
    raise exception 'A paid invoice cannot be voided' using errcode = '22023';
  end if;
  update public.invoices i set status = 'void', voided_at = now() where i.id = v_invoice.id returning * into v_invoice;
  return v_invoice;
end;
$$;

-- Send: the invoice is marked sent (a draft) and the mail queued for the
-- jobs runner (invoice_send: a fresh public link, the mail to the client).
-- Sending again re-mails it without changing its status. p_link_base: the
-- site's address the page was served from, for the mail's link.
create or replace function public.send_invoice(p_invoice_id uuid, p_link_base text default null) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.writable_invoice(p_invoice_id);
begin
  if v_invoice.status in ('void', 'paid') then
    raise exception 'A % invoice cannot be sent', v_invoice.status using errcode = '22023';
  end if;
  update public.invoices i
     set status = case when i.status = 'draft' then 'sent' else i.status end, sent_at = now()
   where i.id = v_invoice.id
  returning * into v_invoice;
  perform private.enqueue_job('invoice_send', v_invoice.account_id,
                              jsonb_strip_nulls(jsonb_build_object(
                                'invoice_id', v_invoice.id,
                                'link_base', case when p_link_base ~ '^https?://[^\s/?#]+$' and length(p_link_base) <= 200
                                                  then p_link_base end)),
                              'invoice_send:' || v_invoice.id || ':' || extract(epoch from clock_timestamp())::text,
                              v_invoice.id);
  return v_invoice;
end;
$$;

-- The daily sweep (the runner, service role): open invoices past their due
-- date become overdue; each overdue one gets a reminder mail queued, at most
-- one per 7 days. p_now is the run's clock (tests move it).
create or replace function public.sweep_overdue_invoices(p_now timestamptz default null)
returns table (overdue_count integer, reminder_count integer)
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The public page /i/<token> (no sign-in): the invoice whose link token hashes
-- to this, with its items and payments and the account's name; nothing for
-- any other token. Drafts and void invoices are not shown.
create or replace function public.public_invoice(p_token text) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices;
begin
  if p_token is null or length(p_token) < 20 or length(p_token) > 200 then
    return null;
  end if;
  select * into v_invoice from public.invoices i
   where i.link_token_hash = sha256(convert_to(p_token, 'UTF8')) and i.status not in ('draft', 'void');
  if not found then
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
$$;

revoke all on function private.assign_invoice_number() from public;
revoke all on function private.invoice_item_total() from public;
revoke all on function private.recompute_invoice_subtotal() from public;
revoke all on function private.invoice_amounts() from public;
revoke all on function private.check_payment() from public;
revoke all on function private.apply_payments() from public;
revoke all on function private.audit_invoice() from public;
revoke all on function private.audit_payment() from public;
revoke all on function private.roll_invoice_stats() from public;
revoke all on function private.roll_payment_stats() from public;
revoke all on function private.invoice_writer_account() from public;
revoke all on function private.writable_invoice(uuid) from public;
revoke all on function public.invoice_summary() from public, anon;
revoke all on function public.create_invoice(text, text, text, bigint, integer, text, date, text) from public, anon;
revoke all on function public.convert_quote_to_invoice(uuid) from public, anon;
revoke all on function public.record_payment(uuid, bigint, date, text, text, text) from public, anon;
revoke all on function public.void_invoice(uuid) from public, anon;
revoke all on function public.send_invoice(uuid, text) from public, anon;
revoke all on function public.sweep_overdue_invoices(timestamptz) from public, anon, authenticated;
revoke all on function public.public_invoice(text) from public;
grant execute on function public.invoice_summary() to authenticated;
grant execute on function public.create_invoice(text, text, text, bigint, integer, text, date, text) to authenticated;
grant execute on function public.convert_quote_to_invoice(uuid) to authenticated;
grant execute on function public.record_payment(uuid, bigint, date, text, text, text) to authenticated;
grant execute on function public.void_invoice(uuid) to authenticated;
grant execute on function public.send_invoice(uuid, text) to authenticated;
grant execute on function public.sweep_overdue_invoices(timestamptz) to service_role;
grant execute on function public.public_invoice(text) to anon, authenticated, service_role;
