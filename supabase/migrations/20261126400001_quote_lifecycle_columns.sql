-- What a quote needs to be edited, sent, signed and declined: tax and
-- discount with amounts computed here, ordered line items, revisions, the
-- moments of its life (viewed, signed, declined; sent_at exists already), the signature's
-- evidence, the hash of its public link's token (the token itself is never
-- stored) and the last mail delivery error.
--
-- Amounts, each rounded half-up to the cent (round() on a positive numeric):
--   subtotal        = sum of the items (qty x unit_price)
--   discount_amount = subtotal x discount / 100
--   tax_amount      = (subtotal - discount_amount) x tax_rate / 100
--   total           = subtotal - discount_amount + tax_amount
-- Tax applies after the discount, as on an invoice: the client pays tax on
-- what they are charged.

alter table public.quotes
  add column tax_rate numeric(5, 2) not null default 0 check (tax_rate >= 0 and tax_rate <= 100),
  add column discount numeric(5, 2) not null default 0 check (discount >= 0 and discount <= 100),
  add column discount_amount bigint not null default 0 check (discount_amount >= 0),
  add column tax_amount bigint not null default 0 check (tax_amount >= 0),
  add column revision_of uuid,
  add column revision integer not null default 0 check (revision >= 0),
  add column viewed_at timestamptz,
  add column signed_at timestamptz,
  add column declined_at timestamptz,
  add column decline_reason text check (length(decline_reason) <= 2000),
  add column signer_name text check (length(signer_name) <= 200),
  add column signer_email text check (length(signer_email) <= 320),
  add column signer_ip text check (length(signer_ip) <= 100),
  add column signer_user_agent text check (length(signer_user_agent) <= 1000),
  -- SHA-256 (hex) of the quote's canonical content at the moment it was signed.
  add column content_hash text check (content_hash ~ '^[0-9a-f]{64}$'),
  -- A drawn signature (PNG, when the signer's browser ran JavaScript).
  add column signature_png bytea check (octet_length(signature_png) <= 200000),
  add column link_token_hash bytea unique,
  add column delivery_error text check (length(delivery_error) <= 1000);

-- A revision points at a quote of its own account (the composite key needs
-- (id, account_id) to be unique).
alter table public.quotes add constraint quotes_id_account_id_key unique (id, account_id);
alter table public.quotes add constraint quotes_revision_of_account_fkey
  foreign key (revision_of, account_id) references public.quotes (id, account_id) on delete set null (revision_of);
create index quotes_revision_of_idx on public.quotes (revision_of) where revision_of is not null;
-- The expiry job reads open quotes whose expiry has passed.
create index quotes_open_expiry_idx on public.quotes (expires_at) where status in ('draft', 'sent', 'viewed');

-- Items keep the order the editor gave them.
alter table public.quote_items add column position integer not null default 0 check (position >= 0 and position < 100);
drop index public.quote_items_quote_id_idx;
create index quote_items_quote_id_position_idx on public.quote_items (quote_id, position, created_at);

-- A revision carries its original's number with a suffix (Q-2026-0007-R1);
-- every other quote takes the next number of the account's counter.
create or replace function private.assign_quote_number() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_year integer := extract(year from coalesce(new.created_at, now()) at time zone 'UTC')::integer;
  v_next integer;
  v_root text;
begin
  if new.revision_of is not null and new.revision > 0 then
    select regexp_replace(q.quote_number, '-R[0-9]+$', '') into v_root
      from public.quotes q where q.id = new.revision_of;
    if v_root is not null then
      new.quote_number := v_root || '-R' || new.revision;
      return new;
    end if;
  end if;
  -- The upsert takes the counter row's lock: concurrent quotes of one
  -- account queue here, other accounts are unaffected.
  insert into private.quote_number_counters as c (account_id, year, last_value)
  values (new.account_id, v_year, 1)
  on conflict (account_id, year) do update set last_value = c.last_value + 1
  returning c.last_value into v_next;

  new.quote_number := 'Q-' || v_year || '-' || lpad(v_next::text, greatest(4, length(v_next::text)), '0');
  return new;
end;
$$;

-- The amounts of a quote from its subtotal and rates.
create or replace function private.quote_amounts(p_subtotal numeric, p_discount numeric, p_tax_rate numeric,
  out discount_amount numeric, out tax_amount numeric, out total numeric)
language sql immutable
set search_path = ''
as $$
  select d, t, p_subtotal - d + t
    from (select round(p_subtotal * p_discount / 100) as d) dd,
         lateral (select round((p_subtotal - dd.d) * p_tax_rate / 100) as t) tt
$$;

-- Items changed: the quote's amounts follow (only when they differ, so
-- create_quote's single item adds no audit row).
create or replace function private.recompute_quote_totals() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote_id uuid := case when tg_op = 'DELETE' then old.quote_id else new.quote_id end;
  v_sum numeric;
  v_quote record;
  v_amounts record;
begin
  select coalesce(sum(i.total), 0) into v_sum from public.quote_items i where i.quote_id = v_quote_id;
  select q.discount, q.tax_rate into v_quote from public.quotes q where q.id = v_quote_id;
  if not found then
    return null;
  end if;
  v_amounts := private.quote_amounts(v_sum, v_quote.discount, v_quote.tax_rate);
  if v_sum > 1000000000000000000 or v_amounts.total > 1000000000000000000 then
    raise exception 'The quote''s total is too large' using errcode = '22003';
  end if;
  update public.quotes q
     set subtotal = v_sum, discount_amount = v_amounts.discount_amount,
         tax_amount = v_amounts.tax_amount, total = v_amounts.total
   where q.id = v_quote_id
     and (q.subtotal <> v_sum or q.total <> v_amounts.total
          or q.discount_amount <> v_amounts.discount_amount or q.tax_amount <> v_amounts.tax_amount);
  return null;
end;
$$;

-- Rates changed (or anyone wrote an amount): the amounts are recomputed from
-- the stored subtotal, so a crafted total never sticks.
create or replace function private.quote_amounts_follow_rates() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_amounts record;
begin
  v_amounts := private.quote_amounts(new.subtotal, new.discount, new.tax_rate);
  if v_amounts.total > 1000000000000000000 then
    raise exception 'The quote''s total is too large' using errcode = '22003';
  end if;
  new.discount_amount := v_amounts.discount_amount;
  new.tax_amount := v_amounts.tax_amount;
  new.total := v_amounts.total;
  return new;
end;
$$;
create trigger quotes_amounts_follow_rates before insert or update of subtotal, total, discount, tax_rate,
  discount_amount, tax_amount on public.quotes
  for each row execute function private.quote_amounts_follow_rates();

-- At the end of a member's transaction, a quote they inserted carries its
-- items' sum (its other amounts follow from it by the trigger above).
create or replace function private.check_quote_totals() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_subtotal bigint;
  v_sum numeric;
begin
  if not private.is_end_user_request() then
    return null;
  end if;
  select q.subtotal into v_subtotal from public.quotes q where q.id = new.id;
  if not found then
    return null;
  end if;
  select coalesce(sum(i.total), 0) into v_sum from public.quote_items i where i.quote_id = new.id;
  if v_subtotal <> v_sum then
    raise exception 'A quote''s subtotal and total are computed from its line items' using errcode = '23514';
  end if;
  return null;
end;
$$;

revoke all on function private.quote_amounts(numeric, numeric, numeric) from public;
revoke all on function private.quote_amounts_follow_rates() from public;

-- A member edits a draft's rates; everything else about the lifecycle is
-- written by the product's own functions.
grant update (tax_rate, discount) on public.quotes to authenticated;

-- A quote that has left draft is what the client was sent: a member can no
-- longer change who it is for, its currency, expiry, notes or rates (its
-- items are frozen by guard_quote_item). The server's own paths may.
create or replace function private.guard_sent_quote() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.is_end_user_request() and old.status <> 'draft'
     and (new.contact_id is distinct from old.contact_id or new.currency is distinct from old.currency
          or new.expires_at is distinct from old.expires_at or new.notes is distinct from old.notes
          or new.tax_rate is distinct from old.tax_rate or new.discount is distinct from old.discount
          or new.subtotal is distinct from old.subtotal or new.total is distinct from old.total) then
    raise exception 'A sent quote cannot change; revise it instead' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke all on function private.guard_sent_quote() from public;
create trigger quotes_guard_sent before update on public.quotes
  for each row execute function private.guard_sent_quote();
