-- A quote link's two per-link counters are each counted on every call
-- (review of issue 31). private.quote_by_link (20261201300002) asked them as
-- `a and b`: once a link was over its per-address budget the per-link counter
-- was no longer counted (the expression stopped at the first false), so the
-- per-link total under-counted what the link really served. Each counter is
-- now asked on its own, as private.invoice_by_link does (20261201600001).
create or replace function private.quote_by_link(p_token text, out quote public.quotes, out limited boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hash bytea;
  v_ip text := private.request_ip();
  v_link text;
  v_within_caller boolean;
  v_within_link boolean;
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
  -- Two statements, not one expression: both counters count every call.
  v_within_caller := private.hit_rate_limit(v_link || ':ip:' || coalesce(v_ip, ''), 30, interval '1 minute');
  v_within_link := private.hit_rate_limit(v_link, 300, interval '1 minute');
  if not (v_within_caller and v_within_link) then
    limited := true;
  end if;
end;
$$;
revoke all on function private.quote_by_link(text) from public;
