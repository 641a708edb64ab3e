-- Invoices, issue 30 (decision 043):
--
-- 1. The mail's link is built by the jobs runner from its own SITE_URL only.
--    send_invoice took the link's origin from its caller (p_link_base): a
--    member could mail a client a live token at any host. The parameter is
--    gone (the old signature dropped, so a call naming it fails) and the job's
--    payload carries the invoice alone.
-- 2. A client reads an invoice only once it was sent to them (sent_at set):
--    the invoices policy (and so its items' and payments'), invoice_document
--    and search_invoices, which state the policy's rule themselves. A draft,
--    or a draft voided before it was ever sent, stays the account's own.
-- 3. Payments: none on a draft (or void) invoice; paid_on from the day the
--    invoice was sent to today, both in the account's time zone. Voiding a
--    partly paid invoice writes a credit entry (kind 'credit', minus what was
--    paid), so what the invoice received nets to zero and the books balance.
-- 4. The public link (/i/<token>: public_invoice, invoice_link_document) is
--    limited at the database, per client IP and per token, in one-minute
--    windows (nothing is locked for longer). The IP is the one the Worker
--    signs (private.request_client); a direct API caller has no signed IP and
--    all of them share one budget, which the Worker's clients never draw on.

-- 1. Send -----------------------------------------------------------------------

drop function public.send_invoice(uuid, text);

-- Send: the invoice is marked sent (a draft) and the mail queued for the jobs
-- runner (invoice_send: a fresh public link on SITE_URL, the mail to the client).
-- Sending again re-mails it without changing its status.
create function public.send_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'void', 'A void invoice cannot be sent',
    'paid', 'A paid invoice cannot be sent'));
begin
  update public.invoices i
     set status = case when i.status = 'draft' then 'sent' else i.status end, sent_at = now()
   where i.id = v_invoice.id
  returning * into v_invoice;
  perform private.enqueue_job('invoice_send', v_invoice.account_id, jsonb_build_object('invoice_id', v_invoice.id),
                              'invoice_send:' || v_invoice.id || ':' || extract(epoch from clock_timestamp())::text,
                              v_invoice.id);
  return v_invoice;
end;
$$;
revoke all on function public.send_invoice(uuid) from public, anon;
grant execute on function public.send_invoice(uuid) to authenticated;

-- 2. A client reads what was sent to them -----------------------------------------

drop policy "staff read their account's invoices, a client those addressed to it" on public.invoices;
-- Items and payments follow: their policies read the invoice through this one.
create policy "staff read their account's invoices, a client those sent to it" on public.invoices
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff())
              or (sent_at is not null and contact_id in (select public.client_contact_ids()))));

-- An invoice never sent is addressed to nobody yet: only staff and the runner read it.
create or replace function public.invoice_document(p_invoice_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.invoice_document_json(i.id)
    from public.invoices i
   where i.id = p_invoice_id
     and private.reads_business_row(i.account_id, case when i.sent_at is not null then i.contact_id end)
$$;

create or replace function public.search_invoices(p_query text)
returns setof public.invoices
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null then
    return;
  end if;
  -- As the invoices policy: staff every invoice of the account, a client those sent to it.
  return query execute $sql$
    select i.* from public.invoices i
     where i.account_id = $1
       and (i.invoice_number ilike $2 or i.client_name ilike $2 or i.client_email ilike $2)
       and ($3::uuid[] is null or (i.contact_id = any ($3::uuid[]) and i.sent_at is not null))
  $sql$ using v_account, private.contains_pattern(p_query), private.readable_contacts();
end;
$$;

-- 3. Payments and credits ------------------------------------------------------------

-- A credit entry gives back what a voided invoice had received: its amount is
-- negative; a payment's positive. Dates before 2000 are typing mistakes.
alter table public.payments add column kind text not null default 'payment' check (kind in ('payment', 'credit'));
alter table public.payments drop constraint payments_amount_check;
alter table public.payments add constraint payments_amount_check
  check ((kind = 'payment' and amount > 0) or (kind = 'credit' and amount < 0));
alter table public.payments add constraint payments_paid_on_check check (paid_on >= date '2000-01-01');

-- The day an instant falls on in the account's time zone (UTC when it has none).
create function private.account_day(p_account_id uuid, p_at timestamptz) returns date
language sql stable
security definer
set search_path = ''
as $$
  select (p_at at time zone coalesce((select a.timezone from public.accounts a where a.id = p_account_id), 'UTC'))::date
$$;
revoke all on function private.account_day(uuid, timestamptz) from public;

-- A payment fits its invoice: the invoice is locked first (concurrent
-- payments of one invoice queue here), so two payments never overpay it.
-- Whoever writes the row (the product's functions, the runner) meets these rules.
create or replace function private.check_payment() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices;
  v_today date;
  v_issued date;
begin
  if tg_op = 'UPDATE' then
    raise exception 'A recorded payment cannot change' using errcode = '42501';
  end if;
  select * into v_invoice from public.invoices i where i.id = new.invoice_id for update;
  if not found then
    raise exception 'Invoice not found' using errcode = 'P0002';
  end if;
  new.account_id := v_invoice.account_id;
  if new.kind = 'credit' then
    -- Only void_invoice's: what a void invoice received, given back whole.
    if v_invoice.status <> 'void' or new.amount <> -v_invoice.amount_paid then
      raise exception 'A credit gives back what a voided invoice received' using errcode = '22023';
    end if;
    return new;
  end if;
  if v_invoice.status = 'void' then
    raise exception 'This invoice is void: no payment can be recorded' using errcode = '22023';
  end if;
  if v_invoice.status = 'draft' then
    raise exception 'This invoice is a draft: send it before recording a payment' using errcode = '22023';
  end if;
  if v_invoice.status = 'paid' then
    raise exception 'This invoice is paid in full' using errcode = '22023';
  end if;
  v_today := private.account_day(v_invoice.account_id, now());
  v_issued := private.account_day(v_invoice.account_id, coalesce(v_invoice.sent_at, v_invoice.created_at));
  if new.paid_on > v_today then
    raise exception 'The payment date cannot be in the future' using errcode = '22023';
  end if;
  if new.paid_on < v_issued then
    raise exception 'The payment date cannot be before the invoice was sent (%)', v_issued using errcode = '22023';
  end if;
  if new.amount > v_invoice.total - v_invoice.amount_paid then
    raise exception 'The payment is more than the balance due' using errcode = '22023';
  end if;
  return new;
end;
$$;

create or replace function private.audit_payment() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.write_audit(new.account_id, 'payment_recorded', 'invoice', new.invoice_id, null,
                              jsonb_build_object('payment_id', new.id, 'amount', new.amount, 'paid_on', new.paid_on,
                                                 'method', new.method, 'reference', new.reference, 'kind', new.kind));
  return null;
end;
$$;

-- Void: an unpaid invoice simply becomes void; a partly paid one too, and
-- what it received is credited back in the same transaction (one credit entry
-- dated today, minus the amount paid), so its payments net to zero. A paid
-- invoice is not voided (as before).
create or replace function public.void_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'void', 'This invoice is already void',
    'paid', 'A paid invoice cannot be voided'));
begin
  update public.invoices i set status = 'void', voided_at = now() where i.id = v_invoice.id returning * into v_invoice;
  if v_invoice.amount_paid > 0 then
    insert into public.payments (account_id, invoice_id, amount, paid_on, method, reference, created_by, kind)
    values (v_invoice.account_id, v_invoice.id, -v_invoice.amount_paid, private.account_day(v_invoice.account_id, now()),
            'other', 'Credit: ' || v_invoice.invoice_number || ' voided', public.current_user_id(), 'credit');
    select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  end if;
  return v_invoice;
end;
$$;

-- 4. The public link's limits ----------------------------------------------------

-- Calls per key in fixed windows: a key over its limit is refused until its
-- window ends, never longer. Touched only by the security definer code below.
create table private.throttle_hits (
  key text not null,
  window_start timestamptz not null,
  hits integer not null,
  primary key (key, window_start)
);
create index throttle_hits_window_start_idx on private.throttle_hits (window_start);
alter table private.throttle_hits enable row level security;
revoke all on private.throttle_hits from public, anon, authenticated;

-- Counts one call of p_key; true while the window's calls are within p_limit.
create function private.throttle(p_key text, p_limit integer, p_window_seconds integer) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_start timestamptz := to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
  v_hits integer;
begin
  insert into private.throttle_hits as t (key, window_start, hits) values (p_key, v_start, 1)
  on conflict (key, window_start) do update set hits = t.hits + 1
  returning t.hits into v_hits;
  -- Past windows count for nothing: now and then they are dropped.
  if random() < 0.02 then
    delete from private.throttle_hits t where t.window_start < now() - interval '1 hour';
  end if;
  return v_hits <= p_limit;
end;
$$;
revoke all on function private.throttle(text, integer, integer) from public;

-- Whom a public call is counted against: the client IP the Worker signed, else
-- the Worker without one, else every unsigned (direct API) caller together:
-- nothing a caller sends unsigned (X-Forwarded-For...) names a budget.
create function private.public_caller_key() returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_header text := private.request_header('x-opshub-client');
  v_ip text := (select c.ip_address from private.request_client() c);
begin
  if v_ip is not null then
    return 'ip:' || v_ip;
  end if;
  return case when v_header is not null and exists (select 1 from private.signed_request_client())
              then 'worker' else 'unsigned' end;
end;
$$;
revoke all on function private.public_caller_key() from public;

-- The invoice a public link opens, counted: per caller 120 calls a minute
-- over every link, per caller and token 60, per token 600 (a forwarded link
-- shared widely); refused calls change nothing but the counts. `limited`:
-- refused now (the page says to wait a minute); a null invoice: no such link
-- (or a draft or void invoice).
create function private.invoice_by_link(p_token text, out invoice public.invoices, out limited boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_caller text := private.public_caller_key();
  v_hash bytea;
begin
  limited := false;
  invoice := null;
  if p_token is null or length(p_token) < 20 or length(p_token) > 200 then
    return;
  end if;
  if not private.throttle('invoice-link:' || v_caller, 120, 60) then
    limited := true;
    return;
  end if;
  v_hash := sha256(convert_to(p_token, 'UTF8'));
  select * into invoice from public.invoices i where i.link_token_hash = v_hash and i.status not in ('draft', 'void');
  if invoice.id is null then
    invoice := null;
    return;
  end if;
  if not private.throttle('invoice-token:' || encode(v_hash, 'hex') || ':' || v_caller, 60, 60)
     or not private.throttle('invoice-token:' || encode(v_hash, 'hex'), 600, 60) then
    limited := true;
    invoice := null;
  end if;
end;
$$;
revoke all on function private.invoice_by_link(text) from public;

-- The public page /i/<token> (no sign-in): as before, or {"rate_limited": true}.
create or replace function public.public_invoice(p_token text) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_found record := private.invoice_by_link(p_token);
  v_invoice public.invoices := v_found.invoice;
begin
  if v_found.limited then
    return jsonb_build_object('rate_limited', true);
  end if;
  if v_invoice.id is null then
    return null;
  end if;
  return jsonb_build_object(
    'account_name', (select a.name from public.accounts a where a.id = v_invoice.account_id),
    'invoice_number', v_invoice.invoice_number,
    'status', v_invoice.status,
    'client_name', v_invoice.client_name,
    'currency', v_invoice.currency,
    'subtotal', v_invoice.subtotal,
    'discount_amount', v_invoice.discount_amount,
    'tax', v_invoice.tax,
    'total', v_invoice.total,
    'amount_paid', v_invoice.amount_paid,
    'due_date', v_invoice.due_date,
    'created_at', v_invoice.created_at,
    'notes', v_invoice.notes,
    'items', (select coalesce(jsonb_agg(jsonb_build_object('description', it.description, 'qty', it.qty,
                                                           'unit_price', it.unit_price, 'total', it.total)
                                        order by it.position, it.created_at), '[]'::jsonb)
                from public.invoice_items it where it.invoice_id = v_invoice.id));
end;
$$;

-- The link's PDF: counted as the page is; {"rate_limited": true} when refused.
create or replace function public.invoice_link_document(p_token text) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_found record := private.invoice_by_link(p_token);
begin
  if v_found.limited then
    return jsonb_build_object('rate_limited', true);
  end if;
  if (v_found.invoice).id is null then
    return null;
  end if;
  return private.invoice_document_json((v_found.invoice).id);
end;
$$;
