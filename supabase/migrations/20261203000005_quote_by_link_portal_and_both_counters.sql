-- Two branches redefined private.quote_by_link at once: the client portal's
-- (decision 050: a signed-in client's own short-lived portal link is found
-- too) and the counters' fix (decision 051: each per-link counter is its own
-- statement, so both count every call). The later file won and dropped the
-- portal lookup; this is both.
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
  -- The portal's link: only for the signed-in client it was issued to, while
  -- it lasts, and while the quote is still addressed to them.
  if not found and auth.uid() is not null then
    select q.* into quote
      from private.quote_portal_links p
      join public.quotes q on q.id = p.quote_id
     where p.token_hash = v_hash
       and p.auth_user_id = auth.uid()
       and p.expires_at > now()
       and q.sent_at is not null
       and q.contact_id in (select public.client_contact_ids())
       for update of q;
  end if;
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
revoke all on function private.quote_by_link(text) from public, anon, authenticated, service_role;
