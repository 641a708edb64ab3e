-- A quote link's limits, in the database, without a lock-out (issue 30).
--
-- Until now the database counted only uses of a matching token: 30 in 10
-- minutes. A direct REST call to open_quote_link / accept_quote /
-- decline_quote / quote_link_document had no other limit (the Worker's per-IP
-- binding is not in that path), wrong tokens were not counted at all, and
-- whoever held a forwarded link could use it 30 times and lock the rightful
-- client out for 10 minutes.
--
-- Now every call is counted with private.hit_rate_limit (20261201300001), in
-- one-minute windows, so a refusal lasts until the minute ends and never
-- longer:
--   - per caller address (private.request_ip: the Worker's signed client
--     address, else the gateway's): 120 calls a minute over all links, wrong
--     tokens included (guessing is counted);
--   - per link and address: 30 a minute (a link's holder elsewhere cannot
--     use up the rightful client's share);
--   - per link over all addresses: 300 a minute (a link hammered from many
--     addresses).
-- A call with no address (a direct database connection, not the API) has
-- only the per-link limits. A limited call changes nothing and answers
-- `rate_limited` (the page: 'Too many requests', try again in a minute).

-- The quote a token opens, locked, and whether this call is within the
-- limits. `limited` is checked first by the callers: a limited call learns
-- nothing about the token (not even whether it matches).
create or replace function private.quote_by_link(p_token text, out quote public.quotes, out limited boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hash bytea;
  v_ip text := private.request_ip();
  v_link text;
begin
  limited := false;
  quote := null;
  if v_ip is not null and not private.hit_rate_limit('quote_link:ip:' || v_ip, 120, interval '1 minute') then
    limited := true;
    return;
  end if;
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    return;
  end if;
  v_hash := private.quote_link_token_hash(p_token);
  select * into quote from public.quotes q where q.link_token_hash = v_hash for update;
  if not found then
    quote := null;
    return;
  end if;
  v_link := 'quote_link:token:' || encode(v_hash, 'hex');
  -- Both counters count every call (no short-circuit), so the totals are true.
  if not (private.hit_rate_limit(v_link || ':ip:' || coalesce(v_ip, ''), 30, interval '1 minute')
          and private.hit_rate_limit(v_link, 300, interval '1 minute')) then
    limited := true;
  end if;
end;
$$;
revoke all on function private.quote_by_link(text) from public;

create or replace function private.quote_link_lookup(p_token text, out quote public.quotes, out state text, out answer jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.quote_by_link(p_token);
  quote := v_found.quote;
  if v_found.limited then
    answer := jsonb_build_object('state', 'rate_limited');
  elsif quote.id is null then
    answer := jsonb_build_object('state', 'not_found');
  else
    state := private.quote_link_state(quote);
  end if;
end;
$$;
revoke all on function private.quote_link_lookup(text) from public;

create or replace function public.quote_link_document(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.quote_by_link(p_token);
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  if (v_found.quote).id is null or private.quote_link_state(v_found.quote) = 'not_found' then
    return null;
  end if;
  return private.quote_document_json((v_found.quote).id);
end;
$$;

-- The old per-token log is no longer read.
drop table private.quote_link_hits;
