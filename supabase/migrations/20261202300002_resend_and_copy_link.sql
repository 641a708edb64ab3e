-- Resend and Copy client link on a sent quote or invoice (issue 31, decision 047).
--
-- Resend queues the same mail again through the jobs runner (quote_send /
-- invoice_send: each mails a fresh link, so the last one stops working). The
-- page names each press with a request id, the job's idempotency key, so a
-- double post queues one mail. At most 5 resends an hour per record: counted
-- from the record's own resend audit rows, under the record's row lock, so two
-- at once cannot both pass the fifth.
--
-- Copy client link issues a new token and answers it to the staff member's
-- page (which shows it on SITE_URL); the old token stops working at once. The
-- audit row says who and when, never the token.
--
-- Admins and members only: quote_for_staff_writer / writable_invoice refuse
-- auditors (42501) and outsiders and other accounts ('not found', P0002).

create or replace function private.resends_in_last_hour(p_account_id uuid, p_action text, p_resource_id uuid)
returns integer
language sql stable
security definer
set search_path = ''
as $$
  -- (account_id, action, created_at) is indexed: the hour's rows of this action, then the record's.
  select count(*)::integer from public.audit_logs a
   where a.account_id = p_account_id and a.action = p_action
     and a.created_at > now() - interval '1 hour' and a.resource_id = p_resource_id
$$;
revoke all on function private.resends_in_last_hour(uuid, text, uuid) from public;

create or replace function private.new_link_token() returns text
language sql volatile
set search_path = ''
as $$
  select rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=')
$$;
revoke all on function private.new_link_token() from public;

-- Quotes ----------------------------------------------------------------------

create function public.resend_quote(p_quote_id uuid, p_request_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote public.quotes := private.quote_for_staff_writer(p_quote_id);
  v_key text := 'quote_resend:' || p_quote_id || ':' || p_request_id;
  v_email text;
begin
  if p_request_id is null then
    raise exception 'A resend needs its request id' using errcode = '22023';
  end if;
  if v_quote.status not in ('sent', 'viewed') then
    raise exception 'Only a sent quote can be sent again' using errcode = '22023';
  end if;
  if v_quote.expires_at is not null and v_quote.expires_at <= now() then
    raise exception 'This quote has expired; revise it to send a new version' using errcode = '22023';
  end if;
  select nullif(btrim(c.email), '') into v_email from public.contacts c where c.id = v_quote.contact_id;
  if v_email is null then
    raise exception 'The quote''s client has no email address' using errcode = '22023';
  end if;
  -- The same press posted twice: its mail is queued already.
  if exists (select 1 from public.jobs j where j.idempotency_key = v_key) then
    return v_email;
  end if;
  if private.resends_in_last_hour(v_quote.account_id, 'quote_resent', v_quote.id) >= 5 then
    raise exception 'This quote was sent again 5 times in the last hour; try again later' using errcode = '54000';
  end if;
  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q set delivery_error = null where q.id = v_quote.id and q.delivery_error is not null;
  perform set_config('opshub.quote_named_audit', '', true);
  perform private.enqueue_job('quote_send', v_quote.account_id, jsonb_build_object('quote_id', v_quote.id), v_key, v_quote.id);
  perform private.write_audit(v_quote.account_id, 'quote_resent', 'quote', v_quote.id, null,
                              jsonb_build_object('email', v_email));
  return v_email;
end;
$$;

create function public.renew_quote_link(p_quote_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote public.quotes := private.quote_for_staff_writer(p_quote_id);
  v_token text := private.new_link_token();
begin
  if v_quote.status not in ('sent', 'viewed') then
    raise exception 'Only a sent quote has a client link' using errcode = '22023';
  end if;
  if v_quote.expires_at is not null and v_quote.expires_at <= now() then
    raise exception 'This quote has expired; revise it to send a new version' using errcode = '22023';
  end if;
  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q set link_token_hash = private.quote_link_token_hash(v_token) where q.id = v_quote.id;
  perform set_config('opshub.quote_named_audit', '', true);
  perform private.write_audit(v_quote.account_id, 'quote_link_renewed', 'quote', v_quote.id,
                              jsonb_build_object('had_link', v_quote.link_token_hash is not null),
                              jsonb_build_object('previous_link', 'void'));
  return v_token;
end;
$$;

-- Invoices --------------------------------------------------------------------

create function public.resend_invoice(p_invoice_id uuid, p_request_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'draft', 'A draft invoice is sent, not sent again',
    'void', 'A void invoice cannot be sent',
    'paid', 'A paid invoice cannot be sent'));
  v_key text := 'invoice_resend:' || p_invoice_id || ':' || p_request_id;
begin
  if p_request_id is null then
    raise exception 'A resend needs its request id' using errcode = '22023';
  end if;
  if exists (select 1 from public.jobs j where j.idempotency_key = v_key) then
    return v_invoice.client_email;
  end if;
  if private.resends_in_last_hour(v_invoice.account_id, 'invoice_resent', v_invoice.id) >= 5 then
    raise exception 'This invoice was sent again 5 times in the last hour; try again later' using errcode = '54000';
  end if;
  perform private.enqueue_job('invoice_send', v_invoice.account_id, jsonb_build_object('invoice_id', v_invoice.id),
                              v_key, v_invoice.id);
  perform private.write_audit(v_invoice.account_id, 'invoice_resent', 'invoice', v_invoice.id, null,
                              jsonb_build_object('email', v_invoice.client_email, 'invoice_number', v_invoice.invoice_number));
  return v_invoice.client_email;
end;
$$;

create function public.renew_invoice_link(p_invoice_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'draft', 'A draft invoice has no client link yet: send it first',
    'void', 'A void invoice has no client link'));
  v_token text := private.new_link_token();
begin
  -- The invoices audit trigger watches the status only: this update writes no row of its own.
  update public.invoices i set link_token_hash = sha256(convert_to(v_token, 'UTF8')) where i.id = v_invoice.id;
  perform private.write_audit(v_invoice.account_id, 'invoice_link_renewed', 'invoice', v_invoice.id,
                              jsonb_build_object('had_link', v_invoice.link_token_hash is not null),
                              jsonb_build_object('previous_link', 'void', 'invoice_number', v_invoice.invoice_number));
  return v_token;
end;
$$;

revoke all on function public.resend_quote(uuid, uuid) from public, anon;
revoke all on function public.renew_quote_link(uuid) from public, anon;
revoke all on function public.resend_invoice(uuid, uuid) from public, anon;
revoke all on function public.renew_invoice_link(uuid) from public, anon;
grant execute on function public.resend_quote(uuid, uuid) to authenticated;
grant execute on function public.renew_quote_link(uuid) to authenticated;
grant execute on function public.resend_invoice(uuid, uuid) to authenticated;
grant execute on function public.renew_invoice_link(uuid) to authenticated;

-- send_invoice (as 20261201500001 left it) on an invoice already sent was a
-- resend with no limit: it is now Resend's, counted and audited the same way.
create or replace function public.send_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'void', 'A void invoice cannot be sent',
    'paid', 'A paid invoice cannot be sent'));
begin
  if v_invoice.status <> 'draft' then
    perform public.resend_invoice(v_invoice.id, gen_random_uuid());
    return v_invoice;
  end if;
  update public.invoices i
     set status = 'sent', sent_at = now()
   where i.id = v_invoice.id
  returning * into v_invoice;
  perform private.enqueue_job('invoice_send', v_invoice.account_id, jsonb_build_object('invoice_id', v_invoice.id),
                              'invoice_send:' || v_invoice.id || ':' || extract(epoch from clock_timestamp())::text,
                              v_invoice.id);
  return v_invoice;
end;
$$;
