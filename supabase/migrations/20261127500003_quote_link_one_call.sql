-- The public link's functions share their first steps, and accepting reads the
-- quote and its document in one call.
--
-- open_quote_link, accept_quote and decline_quote each found the quote by its
-- token, counted the use and worked out its state; accept and decline then both
-- answered a quote that was no longer open. Those steps are two private
-- functions now. open_quote_link(token, true) adds the quote's document (as
-- quote_link_document gives it, the input its PDF and the signature's content
-- hash are made from) when the quote is open: the page's accept reads state and
-- document with one use of the link's limit instead of two calls and two uses.
-- Answers are otherwise as 20261126600001 left them.

-- The quote a token opens, locked, with its state. `answer` is set when there
-- is nothing more to do: no such quote, or the link is used up.
create function private.quote_link_lookup(p_token text, out quote public.quotes, out state text, out answer jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.quote_by_link(p_token);
  quote := v_found.quote;
  if quote.id is null then
    answer := jsonb_build_object('state', 'not_found');
  elsif v_found.limited then
    answer := jsonb_build_object('state', 'rate_limited');
  else
    state := private.quote_link_state(quote);
  end if;
end;
$$;
revoke all on function private.quote_link_lookup(text) from public;

-- For accepting or declining: the quote when it is open, else the answer
-- (a quote signed, declined or expired already is shown as it is, unchanged).
create function private.quote_to_change(p_token text, out quote public.quotes, out answer jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.quote_link_lookup(p_token);
  quote := v_found.quote;
  answer := coalesce(v_found.answer,
                     case when v_found.state <> 'open' then private.quote_link_view(quote.id, v_found.state) end);
end;
$$;
revoke all on function private.quote_to_change(text) from public;

drop function public.open_quote_link(text);
create function public.open_quote_link(p_token text, p_with_document boolean default false) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_quote public.quotes;
begin
  select * into v_found from private.quote_link_lookup(p_token);
  if v_found.answer is not null then
    return v_found.answer;
  end if;
  if v_found.state = 'not_found' then
    return jsonb_build_object('state', 'not_found');
  end if;
  v_quote := v_found.quote;
  if v_found.state = 'open' and v_quote.status = 'sent' then
    perform set_config('opshub.quote_named_audit', 'on', true);
    update public.quotes q set status = 'viewed', viewed_at = now() where q.id = v_quote.id;
    perform set_config('opshub.quote_named_audit', '', true);
    perform private.write_audit(v_quote.account_id, 'quote_viewed', 'quote', v_quote.id,
                                jsonb_build_object('status', v_quote.status, 'viewed_at', v_quote.viewed_at),
                                jsonb_build_object('status', 'viewed', 'viewed_at', now()));
    perform private.emit_event(v_quote.account_id, 'quote_viewed', 'quotes', v_quote.id,
                               jsonb_build_object('quote_number', v_quote.quote_number));
  end if;
  if p_with_document and v_found.state = 'open' then
    return private.quote_link_view(v_quote.id, v_found.state)
           || jsonb_build_object('document', private.quote_document_json(v_quote.id));
  end if;
  return private.quote_link_view(v_quote.id, v_found.state);
end;
$$;
revoke all on function public.open_quote_link(text, boolean) from public, anon, authenticated;
grant execute on function public.open_quote_link(text, boolean) to anon, authenticated, service_role;

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
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_png bytea;
  v_client record;
begin
  select * into v_found from private.quote_to_change(p_token);
  if v_found.answer is not null then
    return v_found.answer;
  end if;
  v_quote := v_found.quote;
  v_old_status := v_quote.status;
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

create or replace function public.decline_quote(p_token text, p_reason text default null) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_quote public.quotes;
  v_old_status text;
  v_reason text := nullif(btrim(coalesce(p_reason, '')), '');
begin
  select * into v_found from private.quote_to_change(p_token);
  if v_found.answer is not null then
    return v_found.answer;
  end if;
  v_quote := v_found.quote;
  v_old_status := v_quote.status;
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
