-- The public tracking page /track/:tracking_number (issue 36): anyone with the
-- number reads the shipment's status, ETA, carrier and timeline and the
-- seller's name, nothing else of the account. Tracking numbers are unique
-- across accounts (shipments_tracking_number_key), so a number names one
-- shipment; an unknown one answers null, the same for every account.
create function public.track_shipment(p_tracking_number text)
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
    'events', coalesce((
      select jsonb_agg(jsonb_build_object('occurred_at', e.occurred_at, 'status', e.status, 'location', e.location,
                                          'description', e.description) order by e.occurred_at desc)
        from (select * from public.tracking_events t where t.shipment_id = s.id order by t.occurred_at desc limit 200) e), '[]'::jsonb))
  from public.shipments s
  join public.accounts a on a.id = s.account_id
  where p_tracking_number ~ '^[A-Za-z0-9-]{4,40}$' and upper(s.tracking_number) = upper(p_tracking_number)
$$;
revoke all on function public.track_shipment(text) from public;
grant execute on function public.track_shipment(text) to anon, authenticated;
