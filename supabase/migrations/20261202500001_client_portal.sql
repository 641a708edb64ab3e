-- The client portal (issue 31, decision 050).
--
-- A signed-in client reads its sent quotes, invoices and payments through the
-- policies that already hold ("clients see only what was sent to them":
-- 20261201300004, 20261201500001). Two things were missing:
--
-- 1. Signing from the portal without the mailed token. The token is never
--    stored (only its hash), and issuing a new one into quotes.link_token_hash
--    would kill the link in the client's mail. So the portal issues its own
--    short link: portal_quote_link(quote) answers a fresh token for a quote
--    that is open and was sent to the caller's own client record, kept hashed
--    in private.quote_portal_links, bound to the caller (auth.uid()) and good
--    for one hour. private.quote_by_link, the one lookup behind
--    open_quote_link, accept_quote, decline_quote and quote_link_document,
--    also finds a quote by such a token, for that caller only and while the
--    caller is still the quote's client. Signing and declining stay those
--    same functions: the same evidence, snapshot, hash, audit rows, jobs and
--    mails. Each issue is audited (quote_opened_in_portal, the actor the
--    client) and limited to 20 a minute per user.
-- 2. The seller's name for the portal's header: portal_brand() answers the
--    caller's account name and logo path (outsiders cannot read accounts).

-- 1. Portal links ------------------------------------------------------------

create table private.quote_portal_links (
  token_hash bytea primary key,
  quote_id uuid not null references public.quotes (id) on delete cascade,
  auth_user_id uuid not null,
  expires_at timestamptz not null
);
create index quote_portal_links_user_idx on private.quote_portal_links (auth_user_id, quote_id);
create index quote_portal_links_quote_idx on private.quote_portal_links (quote_id);
alter table private.quote_portal_links enable row level security;
revoke all on private.quote_portal_links from public, anon, authenticated;

create function public.portal_quote_link(p_quote_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_quote public.quotes;
  v_token text := private.new_link_token();
  v_expires timestamptz := now() + interval '1 hour';
begin
  if v_uid is null then
    raise exception 'Sign in first' using errcode = '42501';
  end if;
  if not private.hit_rate_limit('portal_quote_link:user:' || v_uid, 20, interval '1 minute') then
    raise exception 'Too many requests, try again in a minute.' using errcode = '54000';
  end if;
  -- The caller's own quote, as the quotes policy gives it to a client: sent to one of its contacts.
  select q.* into v_quote from public.quotes q
   where q.id = p_quote_id
     and q.account_id = public.current_account_id()
     and q.sent_at is not null
     and q.contact_id in (select public.client_contact_ids());
  if not found then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  if private.quote_link_state(v_quote) <> 'open' then
    raise exception 'This quote can no longer be signed' using errcode = '22023';
  end if;
  -- One live portal link per user and quote; ended ones of this user go too.
  delete from private.quote_portal_links p
   where p.auth_user_id = v_uid and (p.quote_id = v_quote.id or p.expires_at <= now());
  insert into private.quote_portal_links (token_hash, quote_id, auth_user_id, expires_at)
  values (private.quote_link_token_hash(v_token), v_quote.id, v_uid, v_expires);
  perform private.write_audit(v_quote.account_id, 'quote_opened_in_portal', 'quote', v_quote.id, null,
                              jsonb_build_object('link_expires_at', v_expires));
  return v_token;
end;
$$;
revoke all on function public.portal_quote_link(uuid) from public, anon;
grant execute on function public.portal_quote_link(uuid) to authenticated;

-- As 20261201300002 left it, plus the portal's links: a token that is no
-- quote's mailed link may be a portal link of this caller, still in its hour,
-- for a quote still sent to this caller's client record.
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
  -- Both counters count every call (no short-circuit), so the totals are true.
  if not (private.hit_rate_limit(v_link || ':ip:' || coalesce(v_ip, ''), 30, interval '1 minute')
          and private.hit_rate_limit(v_link, 300, interval '1 minute')) then
    limited := true;
  end if;
end;
$$;
revoke all on function private.quote_by_link(text) from public;

-- 2. The seller's name for the portal ---------------------------------------

-- The caller's account as a client may see it: its name and logo, nothing else.
create function public.portal_brand() returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('name', a.name, 'logo_path', a.logo_path)
    from public.users u
    join public.accounts a on a.id = u.account_id
   where u.auth_user_id = auth.uid() and u.is_active
$$;
revoke all on function public.portal_brand() from public, anon;
grant execute on function public.portal_brand() to authenticated;
