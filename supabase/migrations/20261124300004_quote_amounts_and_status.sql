-- A quote's amounts and status change only through the product's own paths.
--
-- Amounts: a line item's total is qty x unit_price, and a quote's subtotal and
-- total are the sum of its items (no tax or discount yet), both computed here.
-- The API roles cannot update subtotal, total or status; a member who inserts
-- a quote (create_quote does, as the caller) must leave it a draft whose
-- totals equal its items' sum when the transaction ends. Items of a quote
-- that has left draft are frozen.
-- Status: public.change_quote_status() and its transitions, below.
-- Bounds: quantities up to 1,000,000, quote amounts up to 10^18 cents, and
-- the rollup and summary sum in numeric, so no figure overflows. The bounds
-- are NOT VALID: rows written before them (an oversized total) do not stop
-- the migration; every new write is checked.
-- The service role (server code, jobs, the seed) is trusted with all of it.

alter table public.quotes drop constraint quotes_status_check;
alter table public.quotes add constraint quotes_status_check
  check (status in ('draft', 'sent', 'viewed', 'signed', 'declined', 'expired'));
alter table public.quotes add constraint quotes_amounts_bounded
  check (subtotal <= 1000000000000000000 and total <= 1000000000000000000) not valid;
alter table public.quote_items add constraint quote_items_qty_bounded
  check (qty <= 1000000) not valid;

revoke update on public.quotes from authenticated;
grant update (contact_id, created_by, currency, expires_at, notes, updated_at) on public.quotes to authenticated;
revoke update on public.quote_items from authenticated;
grant update (description, qty, unit_price, updated_at) on public.quote_items to authenticated;

-- A new quote from a member starts as a draft.
create or replace function private.guard_new_quote() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.is_end_user_request() and new.status <> 'draft' then
    raise exception 'A new quote is a draft; its status changes through change_quote_status' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger quotes_guard_new before insert on public.quotes
  for each row execute function private.guard_new_quote();

-- At the end of a member's transaction, a quote they inserted carries its items' sum.
create or replace function private.check_quote_totals() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote record;
  v_sum numeric;
begin
  if not private.is_end_user_request() then
    return null;
  end if;
  select q.subtotal, q.total into v_quote from public.quotes q where q.id = new.id;
  if not found then
    return null;
  end if;
  select coalesce(sum(i.total), 0) into v_sum from public.quote_items i where i.quote_id = new.id;
  if v_quote.subtotal <> v_sum or v_quote.total <> v_quote.subtotal then
    raise exception 'A quote''s subtotal and total are computed from its line items' using errcode = '23514';
  end if;
  return null;
end;
$$;
create constraint trigger quotes_totals_match_items after insert on public.quotes
  deferrable initially deferred
  for each row execute function private.check_quote_totals();

-- An item's total is computed; a member changes items of drafts only.
create or replace function private.guard_quote_item() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote_id uuid := case when tg_op = 'DELETE' then old.quote_id else new.quote_id end;
begin
  if tg_op = 'UPDATE' and new.quote_id is distinct from old.quote_id then
    raise exception 'A line item stays on its quote' using errcode = '42501';
  end if;
  if private.is_end_user_request()
     and exists (select 1 from public.quotes q where q.id = v_quote_id and q.status <> 'draft') then
    raise exception 'Only a draft quote''s line items can change' using errcode = '42501';
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  new.total := new.qty::bigint * new.unit_price;
  return new;
end;
$$;
create trigger quote_items_guard before insert or update or delete on public.quote_items
  for each row execute function private.guard_quote_item();

-- After items change, the quote's subtotal and total follow (only when they
-- differ, so create_quote's single item adds no audit row).
create or replace function private.recompute_quote_totals() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote_id uuid := case when tg_op = 'DELETE' then old.quote_id else new.quote_id end;
  v_sum numeric;
begin
  select coalesce(sum(i.total), 0) into v_sum from public.quote_items i where i.quote_id = v_quote_id;
  if v_sum > 1000000000000000000 then
    raise exception 'The quote''s total is too large' using errcode = '22003';
  end if;
  update public.quotes q
     set subtotal = v_sum, total = v_sum
   where q.id = v_quote_id and (q.subtotal <> v_sum or q.total <> v_sum);
  return null;
end;
$$;
create trigger quote_items_recompute_totals after insert or update or delete on public.quote_items
  for each row execute function private.recompute_quote_totals();

-- Which status changes the product makes, and who makes them. Staff send a
-- draft; the quote's contact views, signs or declines it (through the public
-- quote page: server code, the service role); any open quote expires once its
-- expiry has passed.
create or replace function private.quote_status_change_allowed(
  p_from text, p_to text, p_by_server boolean, p_expires_at timestamptz) returns boolean
language sql stable
set search_path = ''
as $$
  select case
    when p_from = 'draft' and p_to = 'sent' then true
    when p_to = 'expired' then p_from in ('draft', 'sent', 'viewed') and p_expires_at <= now()
    when p_from = 'sent' and p_to = 'viewed' then p_by_server
    when p_from in ('sent', 'viewed') and p_to in ('signed', 'declined') then p_by_server
    else false
  end
$$;

create or replace function public.change_quote_status(p_quote_id uuid, p_status text) returns public.quotes
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_by_server boolean := coalesce(auth.role(), '') = 'service_role';
  v_quote public.quotes;
begin
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if not found or (not v_by_server and v_quote.account_id is distinct from public.current_account_id()) then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  -- The company's own staff; auditors read, clients and suppliers are outsiders.
  if not v_by_server and coalesce(public.current_user_role(), '') not in ('admin', 'member') then
    raise exception 'Only the account''s staff can change a quote''s status' using errcode = '42501';
  end if;
  if not coalesce(private.quote_status_change_allowed(v_quote.status, p_status, v_by_server, v_quote.expires_at), false) then
    raise exception 'A % quote cannot become %', v_quote.status, coalesce(p_status, 'null') using errcode = '22023';
  end if;
  update public.quotes q set status = p_status where q.id = p_quote_id returning * into v_quote;
  return v_quote;
end;
$$;

revoke all on function private.guard_new_quote() from public;
revoke all on function private.check_quote_totals() from public;
revoke all on function private.guard_quote_item() from public;
revoke all on function private.recompute_quote_totals() from public;
revoke all on function private.quote_status_change_allowed(text, text, boolean, timestamptz) from public;
revoke all on function public.change_quote_status(uuid, text) from public, anon;
grant execute on function public.change_quote_status(uuid, text) to authenticated, service_role;

-- Sums that cannot overflow: the rollup keeps numeric values, and the quote
-- list's cards read numeric (JSON numbers, as before).
alter table public.quote_stats alter column quote_value type numeric;

create or replace function private.quote_stats_after_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with changes as (
    select o.account_id, o.status, private.quote_month(o.created_at) as month, -1 as n, -o.total::numeric as v from removed o
    union all
    select n.account_id, n.status, private.quote_month(n.created_at), 1, n.total::numeric from inserted n
  ), summed as (
    select account_id, status, month, sum(n)::bigint as quote_count, sum(v) as quote_value
      from changes group by 1, 2, 3
     having sum(n) <> 0 or sum(v) <> 0
  )
  insert into public.quote_stats as s (account_id, status, month, quote_count, quote_value)
  select account_id, status, month, quote_count, quote_value from summed order by 1, 2, 3
  on conflict (account_id, status, month) do update
    set quote_count = s.quote_count + excluded.quote_count,
        quote_value = s.quote_value + excluded.quote_value;
  return null;
end;
$$;

drop function public.quote_summary();
create function public.quote_summary()
returns table (total_count bigint, total_value numeric, average_value numeric)
language sql stable
security invoker
set search_path = ''
as $$
  select coalesce(sum(s.quote_count), 0)::bigint,
         coalesce(sum(s.quote_value), 0),
         coalesce(round(sum(s.quote_value) / nullif(sum(s.quote_count), 0)), 0)
  from public.quote_stats s
  where s.account_id = public.current_account_id()
$$;
revoke all on function public.quote_summary() from public, anon;
grant execute on function public.quote_summary() to authenticated;
