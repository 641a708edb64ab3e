-- The public half of a quote (decision 030): the link mailed to the client,
-- and what its holder may do with it (view, accept and sign, decline).
--
-- The token is the credential. 32 random bytes, base64url, handed out once by
-- issue_quote_link (the jobs runner, service role) and never stored: the quote
-- keeps its sha256 (link_token_hash). A new link replaces the old one.
--
-- The page calls open_quote_link / accept_quote / decline_quote as `anon`
-- through the Worker's ordinary request client: each hashes the token it is
-- given and acts on the one quote whose hash matches, so holding the token is
-- the only way in and a page request never needs the service role. The
-- signer's IP and user agent are not parameters: they come from the Worker's
-- signed client header (private.request_client), which a direct caller of the
-- API cannot forge. Each function answers a jsonb whose `state` says what the
-- page shows: not_found, rate_limited, open, signed, declined, expired.
--
-- Every use of a token that matches counts towards its limit (30 in 10
-- minutes; the per-IP window is the Worker's rate limiting binding), kept in
-- private.quote_link_hits like private.failed_sign_ins. A limited call
-- changes nothing.

create table private.quote_link_hits (
  id bigint generated always as identity primary key,
  token_hash bytea not null,
  hit_at timestamptz not null default now()
);
create index quote_link_hits_token_hash_hit_at_idx on private.quote_link_hits (token_hash, hit_at desc);
create index quote_link_hits_hit_at_idx on private.quote_link_hits (hit_at);
alter table private.quote_link_hits enable row level security;
revoke all on private.quote_link_hits from public, anon, authenticated;

create or replace function private.quote_link_token_hash(p_token text) returns bytea
language sql immutable
set search_path = ''
as $$
  select extensions.digest(p_token, 'sha256')
$$;

-- The lifecycle functions below write their own named audit rows
-- (quote_viewed, quote_signed, quote_declined, quote_expired); the generic
-- quote_updated row would repeat them, so it is skipped while this
-- transaction-local flag is on.
create or replace function private.audit_record_updated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_resource text := tg_argv[0];
  v_changes record;
begin
  if v_resource = 'quote' and current_setting('opshub.quote_named_audit', true) = 'on' then
    return null;
  end if;
  select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(new.account_id, v_resource || '_updated', v_resource, new.id,
                                v_changes.old_values, v_changes.new_values);
  end if;
  return null;
end;
$$;

-- Issuing ---------------------------------------------------------------------

-- A fresh link for a sent (or viewed) quote; the previous one stops working.
-- Only the jobs runner calls it (the quote_send job), with the service role.
create or replace function public.issue_quote_link(p_quote_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_token text := rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=');
begin
  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q
     set link_token_hash = private.quote_link_token_hash(v_token)
   where q.id = p_quote_id and q.status in ('sent', 'viewed');
  if not found then
    raise exception 'Quote % is not sent: it has no link', p_quote_id using errcode = 'P0002';
  end if;
  perform set_config('opshub.quote_named_audit', '', true);
  return v_token;
end;
$$;

-- How the quote_send job's mail went: null when delivered, else the error
-- (the quote's page shows 'Delivery failed: <error>'). Bookkeeping of the
-- runner, not a change to the quote: no audit row.
create or replace function public.record_quote_delivery(p_quote_id uuid, p_error text default null) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q set delivery_error = left(nullif(btrim(p_error), ''), 1000)
   where q.id = p_quote_id and q.delivery_error is distinct from left(nullif(btrim(p_error), ''), 1000);
  perform set_config('opshub.quote_named_audit', '', true);
end;
$$;

-- Reading -------------------------------------------------------------------

-- The state a quote's link shows: its status, with an open quote past its
-- expiry already expired (the sweep may not have run yet).
create or replace function private.quote_link_state(p_quote public.quotes) returns text
language sql stable
set search_path = ''
as $$
  select case
    when p_quote.status = 'signed' then 'signed'
    when p_quote.status = 'declined' then 'declined'
    when p_quote.status = 'expired' then 'expired'
    when p_quote.status in ('sent', 'viewed') and p_quote.expires_at is not null and p_quote.expires_at <= now() then 'expired'
    when p_quote.status in ('sent', 'viewed') then 'open'
    else 'not_found'
  end
$$;

-- What the public page shows of one quote: the quote itself, its items, the
-- account's name. Nothing else of the account (no ids of other rows, no contact).
create or replace function private.quote_link_view(p_quote_id uuid, p_state text) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'state', p_state,
    'account_name', a.name,
    'quote', jsonb_build_object(
      'quote_number', q.quote_number, 'status', q.status, 'currency', q.currency,
      'subtotal', q.subtotal, 'discount', q.discount, 'discount_amount', q.discount_amount,
      'tax_rate', q.tax_rate, 'tax_amount', q.tax_amount, 'total', q.total,
      'expires_at', q.expires_at, 'notes', q.notes, 'sent_at', q.sent_at,
      'signed_at', q.signed_at, 'signer_name', q.signer_name,
      'declined_at', q.declined_at, 'content_hash', q.content_hash),
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', i.description, 'qty', i.qty,
                                          'unit_price', i.unit_price, 'total', i.total)
                       order by i.position, i.created_at, i.id)
        from public.quote_items i where i.quote_id = q.id), '[]'::jsonb))
  from public.quotes q
  join public.accounts a on a.id = q.account_id
  where q.id = p_quote_id
$$;

-- The quote a token opens, locked for the caller's change, and whether the
-- token may be used now. Null: no quote has this token (or it is a draft again).
create or replace function private.quote_by_link(p_token text, out quote public.quotes, out limited boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hash bytea;
begin
  limited := false;
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    quote := null;
    return;
  end if;
  v_hash := private.quote_link_token_hash(p_token);
  select * into quote from public.quotes q where q.link_token_hash = v_hash for update;
  if not found then
    quote := null;
    return;
  end if;
  if (select count(*) from private.quote_link_hits h
       where h.token_hash = v_hash and h.hit_at > now() - interval '10 minutes') >= 30 then
    limited := true;
    return;
  end if;
  -- What no longer counts is dropped as new uses come in, so the table stays small.
  delete from private.quote_link_hits h where h.hit_at < now() - interval '10 minutes';
  insert into private.quote_link_hits (token_hash) values (v_hash);
end;
$$;

-- Opening the link: the quote's page. The first open of a sent quote marks it
-- viewed (once: a concurrent first open finds it viewed already).
create or replace function public.open_quote_link(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_quote public.quotes;
  v_state text;
begin
  select * into v_found from private.quote_by_link(p_token);
  v_quote := v_found.quote;
  if v_quote.id is null then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_found.limited then
    return jsonb_build_object('state', 'rate_limited');
  end if;
  v_state := private.quote_link_state(v_quote);
  if v_state = 'not_found' then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_state = 'open' and v_quote.status = 'sent' then
    perform set_config('opshub.quote_named_audit', 'on', true);
    update public.quotes q set status = 'viewed', viewed_at = now() where q.id = v_quote.id;
    perform set_config('opshub.quote_named_audit', '', true);
    perform private.write_audit(v_quote.account_id, 'quote_viewed', 'quote', v_quote.id,
                                jsonb_build_object('status', v_quote.status, 'viewed_at', v_quote.viewed_at),
                                jsonb_build_object('status', 'viewed', 'viewed_at', now()));
    perform private.emit_event(v_quote.account_id, 'quote_viewed', 'quotes', v_quote.id,
                               jsonb_build_object('quote_number', v_quote.quote_number));
  end if;
  return private.quote_link_view(v_quote.id, v_state);
end;
$$;

-- Accepting -----------------------------------------------------------------

-- Accept and sign. The row lock of quote_by_link makes two accepts queue: the
-- first signs, the second finds it signed and changes nothing.
-- p_signature_png: a drawn signature, base64 of a PNG (optional).
create or replace function public.accept_quote(
  p_token text, p_name text, p_email text default null, p_content_hash text default null,
  p_signature_png text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_quote public.quotes;
  v_old_status text;
  v_state text;
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_png bytea;
  v_client record;
begin
  select * into v_found from private.quote_by_link(p_token);
  v_quote := v_found.quote;
  if v_quote.id is null then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_found.limited then
    return jsonb_build_object('state', 'rate_limited');
  end if;
  v_old_status := v_quote.status;
  v_state := private.quote_link_state(v_quote);
  if v_state <> 'open' then
    -- Signed, declined or expired already: the page says so, nothing changes.
    return private.quote_link_view(v_quote.id, v_state);
  end if;
  if length(v_name) < 1 or length(v_name) > 200 then
    raise exception 'Type your full name to sign' using errcode = '22023';
  end if;
  if v_email is not null and (length(v_email) > 320 or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$') then
    raise exception 'The email address is not valid' using errcode = '22023';
  end if;
  if p_content_hash is null or p_content_hash !~ '^[0-9a-f]{64}$' then
    raise exception 'The content hash is a SHA-256 in hex' using errcode = '22023';
  end if;
  if nullif(p_signature_png, '') is not null then
    if length(p_signature_png) > 270000 or p_signature_png !~ '^[A-Za-z0-9+/]+={0,2}$' then
      raise exception 'The drawn signature is not a PNG' using errcode = '22023';
    end if;
    v_png := decode(p_signature_png, 'base64');
    if octet_length(v_png) > 200000 or substring(v_png from 1 for 8) <> '\x89504e470d0a1a0a'::bytea then
      raise exception 'The drawn signature is not a PNG' using errcode = '22023';
    end if;
  end if;
  select * into v_client from private.request_client();

  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q
     set status = 'signed', signed_at = now(), viewed_at = coalesce(q.viewed_at, now()),
         signer_name = v_name, signer_email = v_email,
         signer_ip = left(v_client.ip_address, 100), signer_user_agent = left(v_client.user_agent, 1000),
         content_hash = p_content_hash, signature_png = v_png
   where q.id = v_quote.id
  returning * into v_quote;
  perform set_config('opshub.quote_named_audit', '', true);

  perform private.write_audit(v_quote.account_id, 'quote_signed', 'quote', v_quote.id,
    jsonb_build_object('status', v_old_status, 'signed_at', null),
    jsonb_build_object('status', 'signed', 'signed_at', v_quote.signed_at, 'signer_name', v_name,
                       'signer_email', v_email, 'signer_ip', v_quote.signer_ip,
                       'content_hash', p_content_hash, 'drawn_signature', v_png is not null));
  perform private.emit_event(v_quote.account_id, 'quote_accepted', 'quotes', v_quote.id,
    jsonb_build_object('quote_number', v_quote.quote_number, 'signer_name', v_name));
  -- The account's admins hear of it by mail (the quote_accepted job).
  perform private.enqueue_job('quote_accepted', v_quote.account_id, jsonb_build_object('quote_id', v_quote.id),
                              'quote_accepted:' || v_quote.id, v_quote.id);
  return private.quote_link_view(v_quote.id, 'signed') || jsonb_build_object('signed_now', true);
end;
$$;

-- Declining -----------------------------------------------------------------

create or replace function public.decline_quote(p_token text, p_reason text default null) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_quote public.quotes;
  v_old_status text;
  v_state text;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
begin
  select * into v_found from private.quote_by_link(p_token);
  v_quote := v_found.quote;
  if v_quote.id is null then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_found.limited then
    return jsonb_build_object('state', 'rate_limited');
  end if;
  v_old_status := v_quote.status;
  v_state := private.quote_link_state(v_quote);
  if v_state <> 'open' then
    return private.quote_link_view(v_quote.id, v_state);
  end if;
  if length(v_reason) > 2000 then
    raise exception 'The reason is at most 2000 characters' using errcode = '22023';
  end if;

  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q
     set status = 'declined', declined_at = now(), decline_reason = v_reason,
         viewed_at = coalesce(q.viewed_at, now())
   where q.id = v_quote.id
  returning * into v_quote;
  perform set_config('opshub.quote_named_audit', '', true);

  perform private.write_audit(v_quote.account_id, 'quote_declined', 'quote', v_quote.id,
    jsonb_build_object('status', v_old_status, 'declined_at', null),
    jsonb_build_object('status', 'declined', 'declined_at', v_quote.declined_at, 'decline_reason', v_reason));
  perform private.emit_event(v_quote.account_id, 'quote_declined', 'quotes', v_quote.id,
    jsonb_build_object('quote_number', v_quote.quote_number, 'reason', v_reason));
  return private.quote_link_view(v_quote.id, 'declined') || jsonb_build_object('declined_now', true);
end;
$$;

-- Expiry --------------------------------------------------------------------

-- The periodic sweep (the quotes.expire job): every open quote past its
-- expiry becomes expired, each with its event and audit row, in one statement.
create or replace function public.expire_quotes() returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform set_config('opshub.quote_named_audit', 'on', true);
  with due as (
    select q.id, q.status from public.quotes q
     where q.status in ('draft', 'sent', 'viewed') and q.expires_at <= now()
     for update skip locked
  ), expired as (
    update public.quotes q set status = 'expired'
      from due where q.id = due.id
    returning q.id, q.account_id, q.quote_number, q.expires_at, due.status as old_status
  ), expired_events as (
    insert into public.events (account_id, kind, resource_type, resource_id, payload)
    select e.account_id, 'quote_expired', 'quotes', e.id,
           jsonb_build_object('quote_number', e.quote_number, 'expires_at', e.expires_at)
      from expired e
  ), audit as (
    insert into public.audit_logs (account_id, action, resource_type, resource_id, old_values, new_values)
    select e.account_id, 'quote_expired', 'quote', e.id,
           jsonb_build_object('status', e.old_status), jsonb_build_object('status', 'expired')
      from expired e
  )
  select count(*) into v_count from expired;
  perform set_config('opshub.quote_named_audit', '', true);
  return v_count;
end;
$$;

revoke all on function private.quote_link_token_hash(text) from public;
revoke all on function private.quote_link_state(public.quotes) from public;
revoke all on function private.quote_link_view(uuid, text) from public;
revoke all on function private.quote_by_link(text) from public;
-- Supabase's default privileges grant new functions to anon and authenticated
-- by name: revoke from them too, then grant exactly what each is for.
revoke all on function public.issue_quote_link(uuid) from public, anon, authenticated;
revoke all on function public.expire_quotes() from public, anon, authenticated;
revoke all on function public.record_quote_delivery(uuid, text) from public, anon, authenticated;
revoke all on function public.open_quote_link(text) from public, anon, authenticated;
revoke all on function public.accept_quote(text, text, text, text, text) from public, anon, authenticated;
revoke all on function public.decline_quote(text, text) from public, anon, authenticated;
grant execute on function public.issue_quote_link(uuid) to service_role;
grant execute on function public.expire_quotes() to service_role;
grant execute on function public.record_quote_delivery(uuid, text) to service_role;
grant execute on function public.open_quote_link(text) to anon, authenticated, service_role;
grant execute on function public.accept_quote(text, text, text, text, text) to anon, authenticated, service_role;
grant execute on function public.decline_quote(text, text) to anon, authenticated, service_role;
