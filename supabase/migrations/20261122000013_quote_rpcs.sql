-- Business writes that must succeed together, and the quote list's summary
-- figures. Both run as the caller (security invoker), so RLS applies.

-- Creates the contact, the draft quote and its one line item in the RPC's
-- single transaction; returns the new quote.
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
  if coalesce(p_currency, 'USD') not in ('USD', 'EUR', 'GBP') then
    raise exception 'Currency must be USD, EUR or GBP' using errcode = '22023';
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

-- Count, sum and rounded mean of the caller's account's quote totals (cents),
-- by SQL aggregates rather than by downloading every row.
create or replace function public.quote_summary()
returns table (total_count bigint, total_value bigint, average_value bigint)
language sql stable
security invoker
set search_path = ''
as $$
  select count(*)::bigint,
         coalesce(sum(q.total), 0)::bigint,
         coalesce(round(avg(q.total)), 0)::bigint
  from public.quotes q
  where q.account_id = public.current_account_id()
$$;

revoke all on function public.create_quote(text, text, text, text, integer, integer, text, integer, text) from public, anon;
revoke all on function public.quote_summary() from public, anon;
grant execute on function public.create_quote(text, text, text, text, integer, integer, text, integer, text) to authenticated;
grant execute on function public.quote_summary() to authenticated;
