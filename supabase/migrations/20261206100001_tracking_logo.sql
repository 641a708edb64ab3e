-- The seller's logo on the public tracking page /track/:tracking_number
-- (issue 36, decision 051's pattern for the quote and invoice links).
--
-- The page allows images from its own origin only, so the Worker serves the
-- logo at /track/:tracking_number/logo. The tracking number is the link's
-- token here: track_shipment_logo says which logo that one shipment's page
-- may show (its account's, and only a path in that account's own folder);
-- no account id is given out, and a number opens one account's logo and no
-- other. Answer: null when the number names no shipment; else
-- {"logo_path": <path or null>}. The per-IP limit of the page is the
-- Worker's (the route shares the page's limiter).
create function private.tracking_logo_path(p_account_id uuid) returns text
language sql stable
security definer
set search_path = ''
as $$
  select a.logo_path
    from public.accounts a
   where a.id = p_account_id
     and a.logo_path in (a.id || '/logo.png', a.id || '/logo.jpg')
$$;
revoke all on function private.tracking_logo_path(uuid) from public;

create function public.track_shipment_logo(p_tracking_number text) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('logo_path', private.tracking_logo_path(s.account_id))
    from public.shipments s
   where p_tracking_number ~ '^[A-Za-z0-9-]{4,40}$' and upper(s.tracking_number) = upper(p_tracking_number)
$$;
revoke all on function public.track_shipment_logo(text) from public;
grant execute on function public.track_shipment_logo(text) to anon, authenticated;

-- The page is told whether there is a logo (has_logo), never where it is stored.
create or replace function public.track_shipment(p_tracking_number text)
returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'tracking_number', s.tracking_number,
    'status', s.status,
    'carrier', s.carrier,
    'estimated_delivery', s.estimated_delivery,
    'delivered_at', s.delivered_at,
    'seller_name', a.name,
    'has_logo', private.tracking_logo_path(a.id) is not null,
    'events', coalesce((
      select jsonb_agg(jsonb_build_object('occurred_at', e.occurred_at, 'status', e.status, 'location', e.location,
                                          'description', e.description) order by e.occurred_at desc)
        from (select * from public.tracking_events t where t.shipment_id = s.id order by t.occurred_at desc limit 200) e), '[]'::jsonb))
  from public.shipments s
  join public.accounts a on a.id = s.account_id
  where p_tracking_number ~ '^[A-Za-z0-9-]{4,40}$' and upper(s.tracking_number) = upper(p_tracking_number)
$$;
