-- The "N an hour" limits count through the one limiter (review of issue 31).
--
-- paste_document_text / rerun_document_extraction counted rows of their own
-- table (private.document_extraction_requests) under an advisory lock;
-- request_test_mail, resend_quote and resend_invoice counted audit rows (an
-- audit log read as a limiter: a slow query on a growing table, and a limit
-- that moved whenever the audit rows did). All now count with
-- private.hit_rate_limit (20261201300001), in one-hour windows of the clock,
-- with the same budgets and the same messages and SQLSTATEs:
--   - a document's extraction: 5 an hour per document, 60 per account (PT429,
--     "try again in N minutes": N is what is left of the window);
--   - a test mail: 5 an hour per account (54000);
--   - a resend: 5 an hour per quote or invoice (54000).
-- renew_quote_link / renew_invoice_link have no limit and get none here.
-- The counter's row lock (its insert ... on conflict) makes two calls at once
-- queue, so two cannot both take the last one. A refusal raises, so its own
-- hit is rolled back with the call; the count stays at the limit until the
-- window ends (fixed windows: at most twice the budget across one boundary).

-- The whole minutes left of the current window of p_window (at least 1), for
-- a refusal's "try again in N minutes".
create function private.rate_limit_minutes_left(p_window interval) returns integer
language sql stable
set search_path = ''
as $$
  select greatest(1, ceil((extract(epoch from p_window)
    - (extract(epoch from now())::numeric % extract(epoch from p_window)::numeric)) / 60)::integer)
$$;
revoke all on function private.rate_limit_minutes_left(interval) from public, anon, authenticated;

create or replace function private.document_extraction_request(p_document_id uuid, p_kind text) returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_document public.documents;
begin
  if v_account_id is null or not coalesce(public.can_write_business(), false) then
    raise exception 'Only the account''s admins and members can extract a document''s fields' using errcode = '42501';
  end if;
  select * into v_document from public.documents d
   where d.id = p_document_id and d.account_id = v_account_id for update;
  if not found then
    raise exception 'Document not found' using errcode = 'P0002';
  end if;
  if v_document.status = 'Final' then
    raise exception 'This document is final: its fields can no longer change.' using errcode = '22023';
  end if;
  if not private.hit_rate_limit('document_extraction:document:' || p_document_id, 5, interval '1 hour') then
    raise exception 'This document''s fields were extracted too often: try again in % minutes.',
      private.rate_limit_minutes_left(interval '1 hour') using errcode = 'PT429';
  end if;
  if not private.hit_rate_limit('document_extraction:account:' || v_account_id, 60, interval '1 hour') then
    raise exception 'Too many extractions in this account: try again in % minutes.',
      private.rate_limit_minutes_left(interval '1 hour') using errcode = 'PT429';
  end if;
  return v_document;
end;
$$;
revoke all on function private.document_extraction_request(uuid, text) from public;

drop table private.document_extraction_requests;

create or replace function public.request_test_mail(p_integration_id uuid) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_email text;
begin
  if not coalesce(public.is_account_admin(), false) then
    raise exception 'Only an admin can send a test mail' using errcode = '42501';
  end if;
  if not exists (select 1 from public.integrations i
                  where i.id = p_integration_id and i.account_id = v_account_id and i.type = 'email' and i.is_active) then
    raise exception 'Not an active email integration of this account' using errcode = 'P0002';
  end if;
  if not private.hit_rate_limit('test_mail:account:' || v_account_id, 5, interval '1 hour') then
    raise exception 'At most 5 test mails an hour: try again later' using errcode = '54000';
  end if;
  select u.email into v_email from public.users u where u.auth_user_id = auth.uid();
  perform private.write_audit(v_account_id, 'test_mail_requested', 'integration', p_integration_id,
    null, jsonb_build_object('to', v_email));
  return private.enqueue_job('mail.test', v_account_id,
    jsonb_build_object('integration_id', p_integration_id, 'to', v_email),
    'mail.test:' || gen_random_uuid(), p_integration_id, now(), 1);
end;
$$;
revoke all on function public.request_test_mail(uuid) from public, anon;
grant execute on function public.request_test_mail(uuid) to authenticated;

create or replace function public.resend_quote(p_quote_id uuid, p_request_id uuid) returns text
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
  -- The same press posted twice: its mail is queued already (and not counted again).
  if exists (select 1 from public.jobs j where j.idempotency_key = v_key) then
    return v_email;
  end if;
  if not private.hit_rate_limit('quote_resend:' || v_quote.id, 5, interval '1 hour') then
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

create or replace function public.resend_invoice(p_invoice_id uuid, p_request_id uuid) returns text
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
  if not private.hit_rate_limit('invoice_resend:' || v_invoice.id, 5, interval '1 hour') then
    raise exception 'This invoice was sent again 5 times in the last hour; try again later' using errcode = '54000';
  end if;
  perform private.enqueue_job('invoice_send', v_invoice.account_id, jsonb_build_object('invoice_id', v_invoice.id),
                              v_key, v_invoice.id);
  perform private.write_audit(v_invoice.account_id, 'invoice_resent', 'invoice', v_invoice.id, null,
                              jsonb_build_object('email', v_invoice.client_email, 'invoice_number', v_invoice.invoice_number));
  return v_invoice.client_email;
end;
$$;

revoke all on function public.resend_quote(uuid, uuid) from public, anon;
revoke all on function public.resend_invoice(uuid, uuid) from public, anon;
grant execute on function public.resend_quote(uuid, uuid) to authenticated;
grant execute on function public.resend_invoice(uuid, uuid) to authenticated;

drop function private.resends_in_last_hour(uuid, text, uuid);
