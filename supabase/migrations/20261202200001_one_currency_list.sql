-- One list of currencies for the whole product (issue 31, decision 046).
-- Settings offered CAD and AUD while quotes and invoices took only USD, EUR
-- and GBP, each place with its own list. public.currencies() is now the one
-- list, readable by everyone (it is public knowledge, and the functions that
-- run as their caller check against it); the app's app/lib/currencies.ts is the same list (a test compares
-- them). Amounts stay integer hundredths of the currency's unit everywhere
-- (the columns' "cents"); a currency without minor units (JPY) takes whole
-- amounts only, so its prices are multiples of 100.
--
-- And a new or edited draft invoice may not fall due before today in the
-- account's time zone (the quote editor already refuses a past expiry).

-- ISO 4217 code, digits after the decimal point, English name.
create function public.currencies()
returns table (code text, minor_units integer, name text)
language sql immutable parallel safe
set search_path = ''
as $$
  values ('USD', 2, 'US dollar'),
         ('EUR', 2, 'Euro'),
         ('GBP', 2, 'Pound sterling'),
         ('CAD', 2, 'Canadian dollar'),
         ('AUD', 2, 'Australian dollar'),
         ('NZD', 2, 'New Zealand dollar'),
         ('CHF', 2, 'Swiss franc'),
         ('JPY', 0, 'Japanese yen'),
         ('CNY', 2, 'Chinese yuan'),
         ('HKD', 2, 'Hong Kong dollar'),
         ('SGD', 2, 'Singapore dollar'),
         ('INR', 2, 'Indian rupee'),
         ('AED', 2, 'UAE dirham'),
         ('SEK', 2, 'Swedish krona'),
         ('NOK', 2, 'Norwegian krone'),
         ('DKK', 2, 'Danish krone'),
         ('PLN', 2, 'Polish złoty'),
         ('CZK', 2, 'Czech koruna'),
         ('ZAR', 2, 'South African rand'),
         ('BRL', 2, 'Brazilian real'),
         ('MXN', 2, 'Mexican peso')
$$;

-- True for a code of the list. Used by the check constraints below, which
-- run as whoever writes the row, and by functions that run as their caller:
-- so in public, executable by everyone (it reads nothing but the list).
create function public.is_currency(p_code text) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select exists (select 1 from public.currencies() c where c.code = p_code)
$$;

-- True when an amount in hundredths of the unit can be written in the
-- currency: any amount for a currency with cents, whole units (multiples of
-- 100) for one without (JPY). Unknown currencies are the caller's check.
create function public.fits_currency(p_hundredths bigint, p_code text) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select p_hundredths is null
      or p_hundredths % (10 ^ (2 - coalesce((select c.minor_units from public.currencies() c where c.code = p_code), 2)))::bigint = 0
$$;

grant execute on function public.currencies(), public.is_currency(text), public.fits_currency(bigint, text)
  to public, anon, authenticated, service_role;

alter table public.quotes drop constraint quotes_currency_check;
alter table public.quotes add constraint quotes_currency_check check (public.is_currency(currency));
alter table public.invoices drop constraint invoices_currency_check;
alter table public.invoices add constraint invoices_currency_check check (public.is_currency(currency));
alter table public.accounts drop constraint accounts_default_currency_check;
alter table public.accounts add constraint accounts_default_currency_check check (public.is_currency(default_currency));

-- The functions that named the old list of three, as last defined
-- (20261122000013, 20261125100001, 20261126500001, 20261126700001,
-- 20261127100001), with the list's checks instead; save_invoice_draft and
-- create_invoice also refuse a due date in the past. Nothing else changes.

create or replace function public.create_quote(
  p_contact_name text,
  p_contact_email text,
  p_company text,
  p_description text,
  p_unit_price integer,
  p_quantity integer,
  p_currency text default 'USD',
  p_expires_in_days integer default 30,
  p_notes text default null
) returns public.quotes
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_user_id uuid := public.current_user_id();
  v_total bigint;
  v_contact_id uuid;
  v_quote public.quotes;
begin
  if v_account_id is null then
    raise exception 'User account not found' using errcode = 'P0001';
  end if;
  if nullif(btrim(p_contact_name), '') is null or nullif(btrim(p_contact_email), '') is null
     or nullif(btrim(p_company), '') is null or nullif(btrim(p_description), '') is null then
    raise exception 'Contact name, contact email, company and description are required' using errcode = '22023';
  end if;
  if p_unit_price is null or p_unit_price < 0 then
    raise exception 'Unit price must be zero or more' using errcode = '22023';
  end if;
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Quantity must be at least 1' using errcode = '22023';
  end if;
  if not public.is_currency(coalesce(p_currency, 'USD')) then
    raise exception 'Currency must be one of the listed currencies' using errcode = '22023';
  end if;
  if not public.fits_currency(p_unit_price, coalesce(p_currency, 'USD')) then
    raise exception 'Unit price must be a whole amount in %', coalesce(p_currency, 'USD') using errcode = '22023';
  end if;
  if p_expires_in_days is null or p_expires_in_days < 1 or p_expires_in_days > 365 then
    raise exception 'Expiry must be between 1 and 365 days' using errcode = '22023';
  end if;

  v_total := p_unit_price::bigint * p_quantity;

  insert into public.contacts (account_id, name, email, company, is_primary)
  values (v_account_id, btrim(p_contact_name), btrim(p_contact_email), btrim(p_company), true)
  returning id into v_contact_id;

  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes, status)
  values (v_account_id, v_contact_id, v_user_id, coalesce(p_currency, 'USD'), v_total, v_total,
          now() + make_interval(days => p_expires_in_days), nullif(btrim(p_notes), ''), 'draft')
  returning * into v_quote;

  insert into public.quote_items (quote_id, description, qty, unit_price, total)
  values (v_quote.id, btrim(p_description), p_quantity, p_unit_price, v_total);

  return v_quote;
end;
$$;

create or replace function public.create_client_quote(
  p_contact_id uuid,
  p_description text,
  p_unit_price integer,
  p_quantity integer,
  p_currency text default 'USD',
  p_expires_in_days integer default 30,
  p_notes text default null
) returns public.quotes
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_total bigint;
  v_quote public.quotes;
begin
  if v_account_id is null then
    raise exception 'User account not found' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.contacts c where c.id = p_contact_id and c.account_id = v_account_id) then
    raise exception 'Client not found' using errcode = 'P0002';
  end if;
  if nullif(btrim(p_description), '') is null then
    raise exception 'Description is required' using errcode = '22023';
  end if;
  if p_unit_price is null or p_unit_price < 0 then
    raise exception 'Unit price must be zero or more' using errcode = '22023';
  end if;
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Quantity must be at least 1' using errcode = '22023';
  end if;
  if not public.is_currency(coalesce(p_currency, 'USD')) then
    raise exception 'Currency must be one of the listed currencies' using errcode = '22023';
  end if;
  if not public.fits_currency(p_unit_price, coalesce(p_currency, 'USD')) then
    raise exception 'Unit price must be a whole amount in %', coalesce(p_currency, 'USD') using errcode = '22023';
  end if;
  if p_expires_in_days is null or p_expires_in_days < 1 or p_expires_in_days > 365 then
    raise exception 'Expiry must be between 1 and 365 days' using errcode = '22023';
  end if;
  v_total := p_unit_price::bigint * p_quantity;
  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes, status)
  values (v_account_id, p_contact_id, public.current_user_id(), coalesce(p_currency, 'USD'), v_total, v_total,
          now() + make_interval(days => p_expires_in_days), nullif(btrim(p_notes), ''), 'draft')
  returning * into v_quote;
  insert into public.quote_items (quote_id, description, qty, unit_price, total)
  values (v_quote.id, btrim(p_description), p_quantity, p_unit_price, v_total);
  return v_quote;
end;
$$;

create or replace function public.save_quote_draft(
  p_quote_id uuid,
  p_contact_id uuid,
  p_currency text,
  p_expires_at timestamptz,
  p_notes text,
  p_tax_rate numeric,
  p_discount numeric,
  p_items jsonb
) returns public.quotes
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_quote public.quotes;
  v_notes text := nullif(btrim(p_notes), '');
  v_item jsonb;
  v_ord integer := 0;
  v_description text;
  v_qty numeric;
  v_price numeric;
  v_descriptions text[] := '{}';
  v_qtys integer[] := '{}';
  v_prices integer[] := '{}';
begin
  if not coalesce(public.can_write_business(), false) then
    raise exception 'Your role can view quotes but not change them' using errcode = '42501';
  end if;
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if not found then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  if v_quote.status <> 'draft' then
    raise exception 'Only a draft quote can be edited; revise it instead' using errcode = '42501';
  end if;
  if p_contact_id is null or not exists (
       select 1 from public.contacts c where c.id = p_contact_id and c.account_id = v_quote.account_id) then
    raise exception 'Client not found' using errcode = 'P0002';
  end if;
  if not coalesce(public.is_currency(p_currency), false) then
    raise exception 'Currency must be one of the listed currencies' using errcode = '22023';
  end if;
  if p_expires_at is null or p_expires_at <= now() then
    raise exception 'The expiry must be in the future' using errcode = '22023';
  end if;
  if length(v_notes) > 2000 then
    raise exception 'Notes must be at most 2000 characters' using errcode = '22023';
  end if;
  if p_tax_rate is null or p_tax_rate < 0 or p_tax_rate > 100 or p_tax_rate <> round(p_tax_rate, 2) then
    raise exception 'Tax rate must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  if p_discount is null or p_discount < 0 or p_discount > 100 or p_discount <> round(p_discount, 2) then
    raise exception 'Discount must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  -- The items as the edit form sends them: 1 to 100 objects with a
  -- description (1-2000 characters), a whole quantity (1 to 1,000,000) and a
  -- unit price in whole cents (0 to 2^31-1), checked before anything is
  -- written. Anything else an object carries (a total) is ignored: totals
  -- are computed.
  if p_items is null or jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) < 1 then
    raise exception 'A quote needs at least one line item' using errcode = '22023';
  end if;
  if jsonb_array_length(p_items) > 100 then
    raise exception 'A quote has at most 100 line items' using errcode = '22023';
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
    if v_price is null or v_price <> trunc(v_price) or v_price < 0 or v_price > 2147483647 then
      raise exception 'Line item %: unit price must be whole cents of at least 0', v_ord using errcode = '22023';
    end if;
    if not public.fits_currency(v_price::bigint, p_currency) then
      raise exception 'Line item %: unit price must be a whole amount in %', v_ord, p_currency using errcode = '22023';
    end if;
    v_descriptions := v_descriptions || v_description;
    v_qtys := v_qtys || v_qty::integer;
    v_prices := v_prices || v_price::integer;
  end loop;

  -- The form gives a day: the same day as before (still ahead) keeps its
  -- moment, so a save that did not touch the expiry does not change it.
  update public.quotes q
     set contact_id = p_contact_id, currency = p_currency, notes = v_notes,
         tax_rate = p_tax_rate, discount = p_discount,
         expires_at = case
           when q.expires_at > now()
                and (q.expires_at at time zone 'UTC')::date = (p_expires_at at time zone 'UTC')::date then q.expires_at
           else p_expires_at end
   where q.id = p_quote_id;

  -- One statement: the row triggers that recompute the amounts run once it
  -- has finished, so the quote's amounts change (and are audited) once.
  with removed as (
    delete from public.quote_items i where i.quote_id = p_quote_id
  )
  insert into public.quote_items (quote_id, description, qty, unit_price, total, position)
  select p_quote_id, c.description, c.qty, c.unit_price, c.qty::bigint * c.unit_price, (c.n - 1)::integer
    from unnest(v_descriptions, v_qtys, v_prices) with ordinality c(description, qty, unit_price, n)
   order by c.n;

  select * into v_quote from public.quotes q where q.id = p_quote_id;
  return v_quote;
end;
$$;

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
$$;

create or replace function public.save_invoice_draft(
  p_invoice_id uuid,
  p_due_date date,
  p_notes text,
  p_tax_rate numeric,
  p_discount numeric,
  p_items jsonb
) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
