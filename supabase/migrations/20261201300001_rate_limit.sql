-- A rate limiter in the database, for the functions a caller reaches without
-- signing in (a quote's public link; any other public function may use it).
--
-- The Worker limits per address before it calls the database, but the REST API
-- is public: a direct call reaches these functions with no limit but the
-- database's own. private.hit_rate_limit(key, limit, window) counts one hit of
-- `key` in the current fixed window (windows start at multiples of the window
-- since the epoch) and says whether it is within the limit. A key over its
-- limit is refused only until its window ends: there is no lock-out longer
-- than one window, so whoever is refused can always come back.
--
-- Counters live in a private table nobody but these functions touches; rows
-- of windows that have ended are dropped as new hits come in (a few per call,
-- so the table stays small without a sweep).

create table private.rate_limit_counters (
  key text not null,
  window_start timestamptz not null,
  window_end timestamptz not null,
  hits integer not null default 1,
  primary key (key, window_start)
);
create index rate_limit_counters_window_end_idx on private.rate_limit_counters (window_end);
alter table private.rate_limit_counters enable row level security;
revoke all on private.rate_limit_counters from public, anon, authenticated;

-- True when this hit is within p_limit hits of p_key in the current window of
-- p_window; false when the key is over its limit (until the window ends).
-- Every call counts, refused ones too.
create function private.hit_rate_limit(p_key text, p_limit integer, p_window interval) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_seconds double precision := extract(epoch from p_window);
  v_start timestamptz;
  v_hits integer;
begin
  if p_key is null or v_seconds is null or v_seconds <= 0 or p_limit is null then
    raise exception 'hit_rate_limit needs a key, a limit and a positive window' using errcode = '22023';
  end if;
  v_start := to_timestamp(floor(extract(epoch from now()) / v_seconds) * v_seconds);
  -- Ended windows go as new hits come (at most 100 rows a call: bounded work).
  delete from private.rate_limit_counters c
   where c.ctid in (select o.ctid from private.rate_limit_counters o where o.window_end < now() limit 100);
  insert into private.rate_limit_counters as c (key, window_start, window_end)
  values (left(p_key, 300), v_start, v_start + p_window)
  on conflict (key, window_start) do update set hits = c.hits + 1
  returning c.hits into v_hits;
  return v_hits <= p_limit;
end;
$$;
revoke all on function private.hit_rate_limit(text, integer, interval) from public, anon, authenticated;

-- The address of the caller, as the database can trust it: the Worker's
-- signed client header (private.request_client, decision 014) when the
-- request came through the Worker; otherwise the address the API gateway saw,
-- the last entry of X-Forwarded-For (the gateway appends the address it was
-- called from; anything before it is the caller's own word). Null for a
-- connection that did not come through the API (no request headers).
create function private.request_ip() returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_client record;
  v_forwarded text;
begin
  select * into v_client from private.request_client();
  if v_client.ip_address is not null then
    return v_client.ip_address;
  end if;
  v_forwarded := private.request_header('x-forwarded-for');
  if v_forwarded is null then
    return null;
  end if;
  return nullif(btrim(regexp_replace(v_forwarded, '^.*,', '')), '');
end;
$$;
revoke all on function private.request_ip() from public, anon, authenticated;
