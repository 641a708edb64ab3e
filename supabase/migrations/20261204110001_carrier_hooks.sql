-- Carrier tracking webhooks (issue 36, decision 061): each account has a hook
-- token (in the URL POST /hooks/carriers/<provider>/<token>) and a secret
-- that signs the posts (EasyPost's X-Hmac-Signature, AfterShip's
-- aftership-hmac-sha256). Admins create or rotate them; the secret is shown on
-- rotation only (carrier_hook() gives the token and when it was made, never the
-- secret). The Worker, with the service role, reads the secret by token and
-- records an event through record_carrier_event: a tracking number the
-- account does not have is P0002 (404), nothing stored; the same provider
-- event twice is stored once (record_tracking_event's unique key).

create table private.carrier_hooks (
  account_id uuid primary key references public.accounts (id) on delete cascade,
  token text not null unique check (token ~ '^[a-z0-9]{32}$'),
  secret text not null check (length(secret) >= 32),
  rotated_at timestamptz not null default now()
);
alter table private.carrier_hooks enable row level security;
revoke all on private.carrier_hooks from public, anon, authenticated, service_role;

-- The hook's token and when it was last rotated (null when none yet). Admins only.
create function public.carrier_hook()
returns table (token text, rotated_at timestamptz)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if public.current_account_id() is null or not public.is_account_admin() then
    raise exception 'Only the account''s admins can read its carrier hook' using errcode = '42501';
  end if;
  return query select h.token, h.rotated_at from private.carrier_hooks h where h.account_id = public.current_account_id();
end;
$$;

-- A new token and secret (the old ones stop working at once), returned once. Admins only.
create function public.rotate_carrier_hook()
returns table (token text, secret text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_token text := replace(gen_random_uuid()::text, '-', '');
  v_secret text := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
begin
  if v_account is null or not public.is_account_admin() then
    raise exception 'Only the account''s admins can rotate its carrier hook' using errcode = '42501';
  end if;
  insert into private.carrier_hooks (account_id, token, secret) values (v_account, v_token, v_secret)
  on conflict (account_id) do update set token = excluded.token, secret = excluded.secret, rotated_at = now();
  return query select v_token, v_secret;
end;
$$;

-- The Worker's look-up for a signed post: the secret of the hook a token names (service role only).
create function public.carrier_hook_secret(p_token text)
returns text
language sql stable
security definer
set search_path = ''
as $$
  select h.secret from private.carrier_hooks h where h.token = p_token
$$;

-- One carrier event for the shipment with this tracking number in the hook's
-- account (service role only). Returns the stored event's id, or null when it
-- was stored before (a replay). Unknown token or tracking number: P0002.
create function public.record_carrier_event(
  p_token text, p_provider text, p_tracking_number text, p_event_id text, p_occurred_at timestamptz,
  p_status text, p_location text, p_description text, p_estimated_delivery date)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid;
  v_shipment public.shipments;
  v_event public.tracking_events;
begin
  select h.account_id into v_account from private.carrier_hooks h where h.token = p_token;
  if v_account is null then
    raise exception 'Unknown hook' using errcode = 'P0002';
  end if;
  select * into v_shipment from public.shipments s
   where s.account_id = v_account and upper(s.tracking_number) = upper(btrim(p_tracking_number));
  if not found then
    raise exception 'No shipment with this tracking number' using errcode = 'P0002';
  end if;
  if p_status not in ('Processing', 'In Transit', 'Delivered', 'Exception') then
    raise exception 'Unknown status' using errcode = '22023';
  end if;
  v_event := private.record_tracking_event(v_shipment, p_occurred_at, p_status, coalesce(p_location, ''),
                                            coalesce(p_description, p_status), 'carrier', p_provider,
                                            left(p_event_id, 200), p_estimated_delivery);
  return v_event.id;
end;
$$;

revoke all on function public.carrier_hook() from public, anon;
revoke all on function public.rotate_carrier_hook() from public, anon;
revoke all on function public.carrier_hook_secret(text) from public, anon, authenticated;
revoke all on function public.record_carrier_event(text, text, text, text, timestamptz, text, text, text, date) from public, anon, authenticated;
grant execute on function public.carrier_hook() to authenticated;
grant execute on function public.rotate_carrier_hook() to authenticated;
grant execute on function public.carrier_hook_secret(text) to service_role;
grant execute on function public.record_carrier_event(text, text, text, text, timestamptz, text, text, text, date) to service_role;
