-- Quotes: their lines, numbers, figures, lifecycle and the public signing link.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.quotes ──

-- A quote to a client (decision 025): a draft staff edit, then sent, viewed,
-- signed or declined through its public link (decision 030), never edited once sent.
-- Amounts are in cents, worked out by the database from the lines.
create table public.quotes (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  contact_id uuid,
  created_by uuid,
  currency text default 'USD'::text not null,
  subtotal bigint default 0 not null,
  total bigint default 0 not null,
  expires_at timestamp with time zone,
  notes text,
  status text default 'draft'::text not null,
  quote_number text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  sent_at timestamp with time zone,
  tax_rate numeric(5,2) default 0 not null,
  discount numeric(5,2) default 0 not null,
  discount_amount bigint default 0 not null,
  tax_amount bigint default 0 not null,
  revision_of uuid,
  revision integer default 0 not null,
  viewed_at timestamp with time zone,
  signed_at timestamp with time zone,
  declined_at timestamp with time zone,
  decline_reason text,
  signer_name text,
  signer_email text,
  signer_ip text,
  signer_user_agent text,
  content_hash text,
  signature_png bytea,
  link_token_hash bytea,
  delivery_error text,
  superseded_by uuid,
  signed_document jsonb,
  seller jsonb,
  constraint quotes_pkey primary key (id),
  constraint quotes_account_id_quote_number_key unique (account_id, quote_number),
  constraint quotes_id_account_id_key unique (id, account_id),
  constraint quotes_link_token_hash_key unique (link_token_hash),
  constraint quotes_content_hash_check check ((content_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint quotes_currency_check check (public.is_currency(currency)),
  constraint quotes_decline_reason_check check ((length(decline_reason) <= 2000)),
  constraint quotes_decline_reason_no_control_chars check ((decline_reason !~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]'::text)),
  constraint quotes_delivery_error_check check ((length(delivery_error) <= 1000)),
  constraint quotes_discount_amount_check check ((discount_amount >= 0)),
  constraint quotes_discount_check check (((discount >= (0)::numeric) and (discount <= (100)::numeric))),
  constraint quotes_revision_check check ((revision >= 0)),
  constraint quotes_signature_png_check check ((octet_length(signature_png) <= 200000)),
  constraint quotes_signer_email_check check ((length(signer_email) <= 320)),
  constraint quotes_signer_email_no_control_chars check ((signer_email !~ '[\x01-\x1f\x7f]'::text)),
  constraint quotes_signer_ip_check check ((length(signer_ip) <= 100)),
  constraint quotes_signer_name_check check ((length(signer_name) <= 200)),
  constraint quotes_signer_name_no_control_chars check ((signer_name !~ '[\x01-\x1f\x7f]'::text)),
  constraint quotes_signer_user_agent_check check ((length(signer_user_agent) <= 1000)),
  constraint quotes_status_check check ((status = any (array['draft'::text, 'sent'::text, 'viewed'::text, 'signed'::text, 'declined'::text, 'expired'::text, 'superseded'::text]))),
  constraint quotes_subtotal_check check ((subtotal >= 0)),
  constraint quotes_superseded_has_status check (((superseded_by is null) or (status = 'superseded'::text))),
  constraint quotes_tax_amount_check check ((tax_amount >= 0)),
  constraint quotes_tax_rate_check check (((tax_rate >= (0)::numeric) and (tax_rate <= (100)::numeric))),
  constraint quotes_total_check check ((total >= 0)),
  constraint quotes_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint quotes_contact_id_account_id_fkey foreign key (contact_id, account_id) references public.contacts(id, account_id),
  constraint quotes_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint quotes_revision_of_account_fkey foreign key (revision_of, account_id) references public.quotes(id, account_id) on delete set null (revision_of),
  constraint quotes_superseded_by_account_fkey foreign key (superseded_by, account_id) references public.quotes(id, account_id) on delete set null (superseded_by)
);
alter table public.quotes enable row level security;

alter table public.quotes add constraint quotes_amounts_bounded check (((subtotal <= '1000000000000000000'::bigint) and (total <= '1000000000000000000'::bigint))) not valid;

create index quotes_account_id_created_at_id_idx on public.quotes using btree (account_id, created_at, id);
create index quotes_account_id_created_at_idx on public.quotes using btree (account_id, created_at desc);
create index quotes_account_id_expires_at_id_idx on public.quotes using btree (account_id, expires_at, id);
create index quotes_account_id_quote_number_id_idx on public.quotes using btree (account_id, quote_number, id);
create index quotes_account_id_status_created_at_idx on public.quotes using btree (account_id, status, created_at desc, id desc);
create index quotes_account_id_total_id_idx on public.quotes using btree (account_id, total, id);
create index quotes_account_notes_trgm_idx on public.quotes using gin (account_id, notes extensions.gin_trgm_ops);
create index quotes_account_quote_number_trgm_idx on public.quotes using gin (account_id, quote_number extensions.gin_trgm_ops);
create index quotes_contact_id_idx on public.quotes using btree (contact_id);
create index quotes_created_by_idx on public.quotes using btree (created_by);
create index quotes_open_expiry_idx on public.quotes using btree (expires_at) where (status = any (array['draft'::text, 'sent'::text, 'viewed'::text]));
create index quotes_revision_of_idx on public.quotes using btree (revision_of) where (revision_of is not null);
create index quotes_superseded_by_idx on public.quotes using btree (superseded_by) where (superseded_by is not null);

revoke all on table public.quotes from public, anon, authenticated, service_role;
grant all on table public.quotes to authenticated;
revoke truncate, update on table public.quotes from authenticated;
grant all on table public.quotes to service_role;
grant update (contact_id, created_by, currency, expires_at, notes, updated_at, tax_rate, discount) on table public.quotes to authenticated;

create or replace function private.assign_quote_number()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_year integer := extract(year from coalesce(new.created_at, now()) at time zone 'UTC')::integer;
  v_next integer;
  v_root text;
begin
  if new.revision_of is not null and new.revision > 0 then
    select regexp_replace(q.quote_number, '-R[0-9]+$', '') into v_root
      from public.quotes q where q.id = new.revision_of;
    if v_root is not null then
      new.quote_number := v_root || '-R' || new.revision;
      return new;
    end if;
  end if;
  -- The upsert takes the counter row's lock: concurrent quotes of one
  -- account queue here, other accounts are unaffected.
  insert into private.quote_number_counters as c (account_id, year, last_value)
  values (new.account_id, v_year, 1)
  on conflict (account_id, year) do update set last_value = c.last_value + 1
  returning c.last_value into v_next;

  new.quote_number := 'Q-' || v_year || '-' || lpad(v_next::text, greatest(4, length(v_next::text)), '0');
  return new;
end;
$function$;
revoke all on function private.assign_quote_number() from public, anon, authenticated, service_role;
grant execute on function private.assign_quote_number() to public;

create or replace function private.audit_quote_deleted()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  -- A delete cascading from the account's own deletion has nowhere to log.
  if exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, 'quote_deleted', 'quote', old.id, private.quote_audit_snapshot(old), null);
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_quote_deleted() from public, anon, authenticated, service_role;

create or replace function private.audit_quote_updated()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_changes record;
begin
  -- The public link's functions (issuing a link, recording a delivery,
  -- viewed, signed, declined, expired) write their own named rows, or none,
  -- and say so with this transaction-local flag.
  if current_setting('opshub.quote_named_audit', true) = 'on' then
    return null;
  end if;
  select * into v_changes
    from private.changed_values(private.quote_audit_snapshot(old), private.quote_audit_snapshot(new));
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(
      new.account_id,
      case when new.status is distinct from old.status then 'quote_' || new.status else 'quote_updated' end,
      'quote', new.id, v_changes.old_values, v_changes.new_values);
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_quote_updated() from public, anon, authenticated, service_role;

create or replace function private.check_quote_totals()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_subtotal bigint;
  v_sum numeric;
begin
  if not private.is_end_user_request() then
    return null;
  end if;
  select q.subtotal into v_subtotal from public.quotes q where q.id = new.id;
  if not found then
    return null;
  end if;
  select coalesce(sum(i.total), 0) into v_sum from public.quote_items i where i.quote_id = new.id;
  if v_subtotal <> v_sum then
    raise exception 'A quote''s subtotal and total are computed from its line items' using errcode = '23514';
  end if;
  return null;
end;
$function$;
revoke all on function private.check_quote_totals() from public, anon, authenticated, service_role;

create or replace function private.guard_new_quote()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if private.is_end_user_request() and new.status <> 'draft' then
    raise exception 'A new quote is a draft; its status changes through change_quote_status' using errcode = '42501';
  end if;
  return new;
end;
$function$;
revoke all on function private.guard_new_quote() from public, anon, authenticated, service_role;

create or replace function private.guard_quote_delete()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if private.is_end_user_request() and old.status <> 'draft'
     and exists (select 1 from public.accounts a where a.id = old.account_id) then
    raise exception 'Only a draft quote can be deleted' using errcode = '42501';
  end if;
  return old;
end;
$function$;
revoke all on function private.guard_quote_delete() from public, anon, authenticated, service_role;

create or replace function private.guard_sent_quote()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if private.is_end_user_request() and old.status <> 'draft'
     and (new.contact_id is distinct from old.contact_id or new.currency is distinct from old.currency
          or new.expires_at is distinct from old.expires_at or new.notes is distinct from old.notes
          or new.tax_rate is distinct from old.tax_rate or new.discount is distinct from old.discount
          or new.subtotal is distinct from old.subtotal or new.total is distinct from old.total) then
    raise exception 'A sent quote cannot change; revise it instead' using errcode = '42501';
  end if;
  return new;
end;
$function$;
revoke all on function private.guard_sent_quote() from public, anon, authenticated, service_role;

create or replace function private.queue_quote_declined_mail()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.enqueue_job('quote_declined', new.account_id, jsonb_build_object('quote_id', new.id),
                              'quote_declined:' || new.id, new.id);
  return null;
end;
$function$;
revoke all on function private.queue_quote_declined_mail() from public, anon, authenticated, service_role;

create or replace function private.quote_amounts(p_subtotal numeric, p_discount numeric, p_tax_rate numeric, out discount_amount numeric, out tax_amount numeric, out total numeric)
 returns record
 language sql
 immutable
 set search_path to ''
as $function$
  select d, t, p_subtotal - d + t
    from (select round(p_subtotal * p_discount / 100) as d) dd,
         lateral (select round((p_subtotal - dd.d) * p_tax_rate / 100) as t) tt
$function$;
revoke all on function private.quote_amounts(p_subtotal numeric, p_discount numeric, p_tax_rate numeric, out discount_amount numeric, out tax_amount numeric, out total numeric) from public, anon, authenticated, service_role;

create or replace function private.quote_amounts_follow_rates()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_amounts record;
begin
  v_amounts := private.quote_amounts(new.subtotal, new.discount, new.tax_rate);
  if v_amounts.total > 1000000000000000000 then
    raise exception 'The quote''s total is too large' using errcode = '22003';
  end if;
  new.discount_amount := v_amounts.discount_amount;
  new.tax_amount := v_amounts.tax_amount;
  new.total := v_amounts.total;
  return new;
end;
$function$;
revoke all on function private.quote_amounts_follow_rates() from public, anon, authenticated, service_role;

create or replace function private.quote_audit_snapshot(p_row public.quotes)
 returns jsonb
 language sql
 immutable
 set search_path to ''
as $function$
  select to_jsonb(p_row) - 'link_token_hash' - 'signature_png' - 'signed_document' - 'seller'
$function$;
revoke all on function private.quote_audit_snapshot(p_row public.quotes) from public, anon, authenticated, service_role;

create or replace function private.quote_by_link(p_token text, out quote public.quotes, out limited boolean)
 returns record
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.quote_by_link(p_token text, out quote public.quotes, out limited boolean) from public, anon, authenticated, service_role;

create or replace function private.quote_for_staff_writer(p_quote_id uuid)
 returns public.quotes
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_quote public.quotes;
begin
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if not found or v_quote.account_id is distinct from public.current_account_id()
     or not coalesce(public.is_account_staff(), false) then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  if not coalesce(public.can_write_business(), false) then
    raise exception 'Your role can view quotes but not change them' using errcode = '42501';
  end if;
  return v_quote;
end;
$function$;
revoke all on function private.quote_for_staff_writer(p_quote_id uuid) from public, anon, authenticated, service_role;

create or replace function private.quote_link_lookup(p_token text, out quote public.quotes, out state text, out answer jsonb)
 returns record
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
    if state = 'superseded' then
      answer := jsonb_build_object('state', 'superseded',
        'account_name', (select a.name from public.accounts a where a.id = quote.account_id));
    end if;
  end if;
end;
$function$;
revoke all on function private.quote_link_lookup(p_token text, out quote public.quotes, out state text, out answer jsonb) from public, anon, authenticated, service_role;

create or replace function private.quote_link_state(p_quote public.quotes)
 returns text
 language sql
 stable
 set search_path to ''
as $function$
  select case
    when p_quote.status = 'signed' then 'signed'
    when p_quote.status = 'declined' then 'declined'
    when p_quote.status = 'expired' then 'expired'
    when p_quote.status = 'superseded' then 'superseded'
    when p_quote.status in ('sent', 'viewed') and p_quote.expires_at is not null and p_quote.expires_at <= now() then 'expired'
    when p_quote.status in ('sent', 'viewed') then 'open'
    else 'not_found'
  end
$function$;
revoke all on function private.quote_link_state(p_quote public.quotes) from public, anon, authenticated, service_role;

create or replace function private.quote_link_token_hash(p_token text)
 returns bytea
 language sql
 immutable
 set search_path to ''
as $function$
  select extensions.digest(p_token, 'sha256')
$function$;
revoke all on function private.quote_link_token_hash(p_token text) from public, anon, authenticated, service_role;

create or replace function private.quote_link_view(p_quote_id uuid, p_state text)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.quote_link_view_without_seller(p_quote_id, p_state)
         || coalesce((select jsonb_build_object('seller', coalesce(q.signed_document -> 'seller',
                                                                   private.document_seller(q.seller, q.account_id)))
                        from public.quotes q where q.id = p_quote_id), '{}'::jsonb)
$function$;
revoke all on function private.quote_link_view(p_quote_id uuid, p_state text) from public, anon, authenticated, service_role;

create or replace function private.quote_link_view_without_seller(p_quote_id uuid, p_state text)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.quote_link_view_without_seller(p_quote_id uuid, p_state text) from public, anon, authenticated, service_role;

create or replace function private.quote_month(p_created_at timestamp with time zone)
 returns date
 language sql
 immutable
 set search_path to ''
as $function$
  select date_trunc('month', p_created_at at time zone 'UTC')::date
$function$;
revoke all on function private.quote_month(p_created_at timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function private.quote_month(p_created_at timestamp with time zone) to public;

create or replace function private.quote_signed_snapshot(p_quote_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select (private.quote_signed_snapshot_without_seller(q.id) - 'v')
         || jsonb_build_object('v', 3, 'seller', private.document_seller(q.seller, q.account_id))
    from public.quotes q
   where q.id = p_quote_id
$function$;
revoke all on function private.quote_signed_snapshot(p_quote_id uuid) from public, anon, authenticated, service_role;

create or replace function private.quote_signed_snapshot_without_seller(p_quote_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object(
    'v', 2,
    'account', jsonb_build_object('name', a.name, 'contactEmail', a.billing_email),
    'quoteNumber', coalesce(q.quote_number, ''),
    'issuedAt', private.utc_iso(coalesce(q.sent_at, q.created_at)),
    'expiresAt', private.utc_iso(q.expires_at),
    'currency', q.currency,
    'contact', case when c.id is null then null
                    else jsonb_build_object('name', c.name, 'email', c.email, 'company', c.company) end,
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', i.description, 'quantity', i.qty,
                                          'unitPrice', i.unit_price::text, 'lineTotal', i.total::text)
                       order by i.position, i.created_at, i.id)
        from public.quote_items i where i.quote_id = q.id), '[]'::jsonb),
    'subtotal', q.subtotal::text,
    'discountPercent', q.discount::text,
    'discount', q.discount_amount::text,
    'taxRate', q.tax_rate::text,
    'tax', q.tax_amount::text,
    'total', q.total::text,
    'notes', q.notes)
  from public.quotes q
  join public.accounts a on a.id = q.account_id
  left join public.contacts c on c.id = q.contact_id
  where q.id = p_quote_id
$function$;
revoke all on function private.quote_signed_snapshot_without_seller(p_quote_id uuid) from public, anon, authenticated, service_role;

create or replace function private.quote_stats_after_delete()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  update public.quote_stats s
     set quote_count = s.quote_count - d.quote_count,
         quote_value = s.quote_value - d.quote_value
    from (select o.account_id, o.status, private.quote_month(o.created_at) as month, o.currency,
                 o.sent_at is not null as sent, count(*) as quote_count, sum(o.total::numeric) as quote_value
            from removed o
           group by 1, 2, 3, 4, 5) d
   where s.account_id = d.account_id and s.status = d.status and s.month = d.month
     and s.currency = d.currency and s.sent = d.sent;
  return null;
end;
$function$;
revoke all on function private.quote_stats_after_delete() from public, anon, authenticated, service_role;
grant execute on function private.quote_stats_after_delete() to public;

create or replace function private.quote_stats_after_insert()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into public.quote_stats as s (account_id, status, month, currency, sent, quote_count, quote_value)
  select n.account_id, n.status, private.quote_month(n.created_at), n.currency, n.sent_at is not null,
         count(*), sum(n.total::numeric)
    from inserted n
   group by 1, 2, 3, 4, 5
   order by 1, 2, 3, 4, 5
  on conflict (account_id, status, month, currency, sent) do update
    set quote_count = s.quote_count + excluded.quote_count,
        quote_value = s.quote_value + excluded.quote_value;
  return null;
end;
$function$;
revoke all on function private.quote_stats_after_insert() from public, anon, authenticated, service_role;
grant execute on function private.quote_stats_after_insert() to public;

create or replace function private.quote_stats_after_update()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  with changes as (
    select o.account_id, o.status, private.quote_month(o.created_at) as month, o.currency,
           o.sent_at is not null as sent, -1 as n, -o.total::numeric as v
      from removed o
    union all
    select n.account_id, n.status, private.quote_month(n.created_at), n.currency,
           n.sent_at is not null, 1, n.total::numeric
      from inserted n
  ), summed as (
    select account_id, status, month, currency, sent, sum(n)::bigint as quote_count, sum(v) as quote_value
      from changes group by 1, 2, 3, 4, 5
     having sum(n) <> 0 or sum(v) <> 0
  )
  insert into public.quote_stats as s (account_id, status, month, currency, sent, quote_count, quote_value)
  select account_id, status, month, currency, sent, quote_count, quote_value from summed order by 1, 2, 3, 4, 5
  on conflict (account_id, status, month, currency, sent) do update
    set quote_count = s.quote_count + excluded.quote_count,
        quote_value = s.quote_value + excluded.quote_value;
  return null;
end;
$function$;
revoke all on function private.quote_stats_after_update() from public, anon, authenticated, service_role;
grant execute on function private.quote_stats_after_update() to public;

create or replace function private.quote_to_change(p_token text, out quote public.quotes, out answer jsonb)
 returns record
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record;
begin
  select * into v_found from private.quote_link_lookup(p_token);
  quote := v_found.quote;
  answer := coalesce(v_found.answer,
                     case when v_found.state <> 'open' then private.quote_link_view(quote.id, v_found.state) end);
end;
$function$;
revoke all on function private.quote_to_change(p_token text, out quote public.quotes, out answer jsonb) from public, anon, authenticated, service_role;

create or replace function private.reads_quote(p_quote public.quotes)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.reads_business_row(p_quote.account_id, p_quote.contact_id)
     and (p_quote.sent_at is not null or coalesce(auth.role(), '') = 'service_role'
          or coalesce(public.is_account_staff(), false))
$function$;
revoke all on function private.reads_quote(p_quote public.quotes) from public, anon, authenticated, service_role;

create or replace function private.roll_quote_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.currency, old.status, old.total, old.created_at, old.sent_at is null)
         is not distinct from (new.account_id, new.currency, new.status, new.total, new.created_at, new.sent_at is null) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update private.quote_day_stats s
       set quote_count = s.quote_count - 1, total_sum = s.total_sum - coalesce(old.total, 0)
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date
       and s.currency = old.currency and s.status = old.status and s.sent = (old.sent_at is not null);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.quote_day_stats as s (account_id, day, currency, status, sent, quote_count, total_sum)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, new.currency, new.status, new.sent_at is not null,
            1, coalesce(new.total, 0))
    on conflict (account_id, day, currency, status, sent) do update
      set quote_count = s.quote_count + 1, total_sum = s.total_sum + excluded.total_sum;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_quote_day_stats() from public, anon, authenticated, service_role;

create or replace function private.stamp_quote_sent()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.status = 'draft' then
    new.sent_at := null;
  elsif new.sent_at is null and new.status <> 'expired' then
    -- A row written already past draft (the seed, server code) was sent when it was made.
    new.sent_at := case when tg_op = 'INSERT' then new.created_at else now() end;
  end if;
  return new;
end;
$function$;
revoke all on function private.stamp_quote_sent() from public, anon, authenticated, service_role;

create or replace function private.take_seller_at_send()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE' then
    if old.seller is not null then
      new.seller := old.seller;
      return new;
    end if;
    if old.status is distinct from 'draft' then
      new.seller := null;
      return new;
    end if;
  end if;
  if new.status <> 'draft' then
    new.seller := private.account_seller(new.account_id);
  else
    new.seller := null;
  end if;
  return new;
end;
$function$;
revoke all on function private.take_seller_at_send() from public, anon, authenticated, service_role;

create or replace function public.accept_quote(p_token text, p_name text, p_email text default null::text, p_signature_png text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record;
  v_quote public.quotes;
  v_old_status text;
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_png bytea;
  v_client record;
  v_document jsonb;
  v_hash text;
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
  v_png := private.signature_png_bytes(p_signature_png);
  select * into v_client from private.request_client();
  v_document := private.quote_signed_snapshot(v_quote.id);
  v_hash := encode(extensions.digest(convert_to(private.canonical_json(v_document), 'UTF8'), 'sha256'), 'hex');

  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q
     set status = 'signed', signed_at = now(), viewed_at = coalesce(q.viewed_at, now()),
         signer_name = v_name, signer_email = v_email,
         signer_ip = left(v_client.ip_address, 100), signer_user_agent = left(v_client.user_agent, 1000),
         content_hash = v_hash, signed_document = v_document, signature_png = v_png
   where q.id = v_quote.id
  returning * into v_quote;
  perform set_config('opshub.quote_named_audit', '', true);

  perform private.write_audit(v_quote.account_id, 'quote_signed', 'quote', v_quote.id,
    jsonb_build_object('status', v_old_status, 'signed_at', null),
    jsonb_build_object('status', 'signed', 'signed_at', v_quote.signed_at, 'signer_name', v_name,
                       'signer_email', v_email, 'signer_ip', v_quote.signer_ip,
                       'content_hash', v_hash, 'drawn_signature', v_png is not null));
  perform private.emit_event(v_quote.account_id, 'quote_accepted', 'quotes', v_quote.id,
    jsonb_build_object('quote_number', v_quote.quote_number, 'signer_name', v_name));
  -- The account's admins hear of it by mail (the quote_accepted job).
  perform private.enqueue_job('quote_accepted', v_quote.account_id, jsonb_build_object('quote_id', v_quote.id),
                              'quote_accepted:' || v_quote.id, v_quote.id);
  return private.quote_link_view(v_quote.id, 'signed') || jsonb_build_object('signed_now', true);
end;
$function$;
revoke all on function public.accept_quote(p_token text, p_name text, p_email text, p_signature_png text) from public, anon, authenticated, service_role;
grant execute on function public.accept_quote(p_token text, p_name text, p_email text, p_signature_png text) to anon, authenticated, service_role;

create or replace function public.create_client_quote(p_contact_id uuid, p_description text, p_unit_price integer, p_quantity integer, p_currency text default 'USD'::text, p_expires_in_days integer default 30, p_notes text default null::text)
 returns public.quotes
 language plpgsql
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_total bigint;
  v_quote public.quotes;
begin
  if v_account_id is null then
    raise exception 'User account not found' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.contacts c where c.id = p_contact_id and c.account_id = v_account_id) then
    raise exception 'Client not found' using errcode = 'P0002';
  end if;
  if nullif(btrim(p_description), '') is null then
    raise exception 'Description is required' using errcode = '22023';
  end if;
  if p_unit_price is null or p_unit_price < 0 then
    raise exception 'Unit price must be zero or more' using errcode = '22023';
  end if;
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Quantity must be at least 1' using errcode = '22023';
  end if;
  if not public.is_currency(coalesce(p_currency, 'USD')) then
    raise exception 'Currency must be one of the listed currencies' using errcode = '22023';
  end if;
  if not public.fits_currency(p_unit_price, coalesce(p_currency, 'USD')) then
    raise exception 'Unit price must be a whole amount in %', coalesce(p_currency, 'USD') using errcode = '22023';
  end if;
  if p_expires_in_days is null or p_expires_in_days < 1 or p_expires_in_days > 365 then
    raise exception 'Expiry must be between 1 and 365 days' using errcode = '22023';
  end if;
  v_total := p_unit_price::bigint * p_quantity;
  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes, status)
  values (v_account_id, p_contact_id, public.current_user_id(), coalesce(p_currency, 'USD'), v_total, v_total,
          now() + make_interval(days => p_expires_in_days), nullif(btrim(p_notes), ''), 'draft')
  returning * into v_quote;
  insert into public.quote_items (quote_id, description, qty, unit_price, total)
  values (v_quote.id, btrim(p_description), p_quantity, p_unit_price, v_total);
  return v_quote;
end;
$function$;
revoke all on function public.create_client_quote(p_contact_id uuid, p_description text, p_unit_price integer, p_quantity integer, p_currency text, p_expires_in_days integer, p_notes text) from public, anon, authenticated, service_role;
grant execute on function public.create_client_quote(p_contact_id uuid, p_description text, p_unit_price integer, p_quantity integer, p_currency text, p_expires_in_days integer, p_notes text) to authenticated, service_role;

create or replace function public.create_quote(p_contact_name text, p_contact_email text, p_company text, p_description text, p_unit_price integer, p_quantity integer, p_currency text default 'USD'::text, p_expires_in_days integer default 30, p_notes text default null::text)
 returns public.quotes
 language plpgsql
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_user_id uuid := public.current_user_id();
  v_total bigint;
  v_contact_id uuid;
  v_quote public.quotes;
begin
  if v_account_id is null then
    raise exception 'User account not found' using errcode = 'P0001';
  end if;
  if nullif(btrim(p_contact_name), '') is null or nullif(btrim(p_contact_email), '') is null
     or nullif(btrim(p_company), '') is null or nullif(btrim(p_description), '') is null then
    raise exception 'Contact name, contact email, company and description are required' using errcode = '22023';
  end if;
  if p_unit_price is null or p_unit_price < 0 then
    raise exception 'Unit price must be zero or more' using errcode = '22023';
  end if;
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Quantity must be at least 1' using errcode = '22023';
  end if;
  if not public.is_currency(coalesce(p_currency, 'USD')) then
    raise exception 'Currency must be one of the listed currencies' using errcode = '22023';
  end if;
  if not public.fits_currency(p_unit_price, coalesce(p_currency, 'USD')) then
    raise exception 'Unit price must be a whole amount in %', coalesce(p_currency, 'USD') using errcode = '22023';
  end if;
  if p_expires_in_days is null or p_expires_in_days < 1 or p_expires_in_days > 365 then
    raise exception 'Expiry must be between 1 and 365 days' using errcode = '22023';
  end if;

  v_total := p_unit_price::bigint * p_quantity;

  insert into public.contacts (account_id, name, email, company, is_primary)
  values (v_account_id, btrim(p_contact_name), btrim(p_contact_email), btrim(p_company), true)
  returning id into v_contact_id;

  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes, status)
  values (v_account_id, v_contact_id, v_user_id, coalesce(p_currency, 'USD'), v_total, v_total,
          now() + make_interval(days => p_expires_in_days), nullif(btrim(p_notes), ''), 'draft')
  returning * into v_quote;

  insert into public.quote_items (quote_id, description, qty, unit_price, total)
  values (v_quote.id, btrim(p_description), p_quantity, p_unit_price, v_total);

  return v_quote;
end;
$function$;
revoke all on function public.create_quote(p_contact_name text, p_contact_email text, p_company text, p_description text, p_unit_price integer, p_quantity integer, p_currency text, p_expires_in_days integer, p_notes text) from public, anon, authenticated, service_role;
grant execute on function public.create_quote(p_contact_name text, p_contact_email text, p_company text, p_description text, p_unit_price integer, p_quantity integer, p_currency text, p_expires_in_days integer, p_notes text) to authenticated, service_role;

create or replace function public.decline_quote(p_token text, p_reason text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.decline_quote(p_token text, p_reason text) from public, anon, authenticated, service_role;
grant execute on function public.decline_quote(p_token text, p_reason text) to anon, authenticated, service_role;

create or replace function public.expire_quotes()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.expire_quotes() from public, anon, authenticated, service_role;
grant execute on function public.expire_quotes() to service_role;

create or replace function public.issue_quote_link(p_quote_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.issue_quote_link(p_quote_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.issue_quote_link(p_quote_id uuid) to service_role;

create or replace function public.open_quote_link(p_token text, p_with_document boolean default false)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.open_quote_link(p_token text, p_with_document boolean) from public, anon, authenticated, service_role;
grant execute on function public.open_quote_link(p_token text, p_with_document boolean) to anon, authenticated, service_role;

create or replace function public.portal_quote_link(p_quote_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.portal_quote_link(p_quote_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.portal_quote_link(p_quote_id uuid) to authenticated, service_role;

create or replace function public.quote_link_logo(p_token text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record;
  v_path text;
begin
  select * into v_found from private.quote_by_link(p_token);
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  if (v_found.quote).id is null or private.quote_link_state(v_found.quote) in ('not_found', 'superseded') then
    return null;
  end if;
  -- The seller the page shows (private.quote_link_view): the signed one once signed.
  v_path := coalesce((v_found.quote).signed_document -> 'seller',
                     private.document_seller((v_found.quote).seller, (v_found.quote).account_id)) ->> 'logo_path';
  if v_path is not null and v_path not in ((v_found.quote).account_id || '/logo.png', (v_found.quote).account_id || '/logo.jpg') then
    v_path := null;
  end if;
  return jsonb_build_object('logo_path', v_path);
end;
$function$;
revoke all on function public.quote_link_logo(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.quote_link_logo(p_token text) to anon, authenticated, service_role;

create or replace function public.quote_summary()
 returns table(total_count bigint, sent_count bigint, signed_count bigint, by_currency jsonb)
 language sql
 stable
 set search_path to ''
as $function$
  with mine as (
    select s.* from public.quote_stats s where s.account_id = public.current_account_id()
  )
  select coalesce((select sum(m.quote_count) from mine m), 0)::bigint,
         coalesce((select sum(m.quote_count) from mine m where m.sent), 0)::bigint,
         coalesce((select sum(m.quote_count) from mine m where m.status = 'signed'), 0)::bigint,
         coalesce((
           select jsonb_agg(jsonb_build_object('currency', g.currency, 'count', g.n, 'value', g.v, 'average', round(g.v / g.n))
                            order by g.n desc, g.currency)
             from (select s.currency, sum(s.quote_count) as n, sum(s.quote_value) as v
                     from mine s group by s.currency having sum(s.quote_count) > 0) g), '[]'::jsonb)
$function$;
revoke all on function public.quote_summary() from public, anon, authenticated, service_role;
grant execute on function public.quote_summary() to authenticated, service_role;

create or replace function public.record_quote_delivery(p_quote_id uuid, p_error text default null::text)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q set delivery_error = left(nullif(btrim(p_error), ''), 1000)
   where q.id = p_quote_id and q.delivery_error is distinct from left(nullif(btrim(p_error), ''), 1000);
  perform set_config('opshub.quote_named_audit', '', true);
end;
$function$;
revoke all on function public.record_quote_delivery(p_quote_id uuid, p_error text) from public, anon, authenticated, service_role;
grant execute on function public.record_quote_delivery(p_quote_id uuid, p_error text) to service_role;

create or replace function public.renew_quote_link(p_quote_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.renew_quote_link(p_quote_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.renew_quote_link(p_quote_id uuid) to authenticated, service_role;

create or replace function public.resend_quote(p_quote_id uuid, p_request_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.resend_quote(p_quote_id uuid, p_request_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.resend_quote(p_quote_id uuid, p_request_id uuid) to authenticated, service_role;

create or replace function public.revise_quote(p_quote_id uuid)
 returns public.quotes
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_original public.quotes := private.quote_for_staff_writer(p_quote_id);
  v_root text := regexp_replace(coalesce(v_original.quote_number, ''), '-R[0-9]+$', '');
  v_revision integer;
  v_expires_at timestamptz;
  v_draft public.quotes;
begin
  if v_original.status = 'superseded' and v_original.superseded_by is not null then
    raise exception 'This quote was replaced by a newer version; revise that one' using errcode = '22023';
  end if;
  if v_original.status not in ('sent', 'viewed', 'declined', 'expired', 'superseded') then
    raise exception '%', case v_original.status
      when 'signed' then 'A signed quote cannot be revised'
      else 'A draft quote is edited, not revised' end using errcode = '22023';
  end if;
  select coalesce(max(q.revision), 0) + 1 into v_revision
    from public.quotes q
   where q.account_id = v_original.account_id
     and (q.id = v_original.id
          or (v_root <> '' and regexp_replace(q.quote_number, '-R[0-9]+$', '') = v_root));
  -- The new draft runs as long as the original was given, counted from now.
  v_expires_at := now() + greatest(coalesce(v_original.expires_at - v_original.created_at, interval '30 days'), interval '1 day');
  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes,
                             status, tax_rate, discount, revision_of, revision)
  values (v_original.account_id, v_original.contact_id, public.current_user_id(), v_original.currency,
          v_original.subtotal, v_original.subtotal, v_expires_at, v_original.notes,
          'draft', v_original.tax_rate, v_original.discount, v_original.id, v_revision)
  returning * into v_draft;
  insert into public.quote_items (quote_id, description, qty, unit_price, total, position)
  select v_draft.id, i.description, i.qty, i.unit_price, i.total,
         (row_number() over (order by i.position, i.created_at, i.id) - 1)::integer
    from public.quote_items i
   where i.quote_id = v_original.id;

  -- The original is superseded: its one audit row is quote_revised (below).
  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q set status = 'superseded', superseded_by = v_draft.id where q.id = v_original.id;
  perform set_config('opshub.quote_named_audit', '', true);
  perform private.write_audit(v_original.account_id, 'quote_revised', 'quote', v_original.id,
                              jsonb_build_object('status', v_original.status),
                              jsonb_build_object('status', 'superseded', 'superseded_by', v_draft.id,
                                                 'revision_id', v_draft.id, 'revision', v_draft.quote_number));
  select * into v_draft from public.quotes q where q.id = v_draft.id;
  return v_draft;
end;
$function$;
revoke all on function public.revise_quote(p_quote_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.revise_quote(p_quote_id uuid) to authenticated, service_role;

create or replace function public.save_quote_draft(p_quote_id uuid, p_contact_id uuid, p_currency text, p_expires_at timestamp with time zone, p_notes text, p_tax_rate numeric, p_discount numeric, p_items jsonb)
 returns public.quotes
 language plpgsql
 set search_path to ''
as $function$
declare
  v_quote public.quotes;
  v_notes text := nullif(btrim(p_notes), '');
  v_item jsonb;
  v_ord integer := 0;
  v_description text;
  v_qty numeric;
  v_price numeric;
  v_descriptions text[] := '{}';
  v_qtys integer[] := '{}';
  v_prices integer[] := '{}';
begin
  if not coalesce(public.can_write_business(), false) then
    raise exception 'Your role can view quotes but not change them' using errcode = '42501';
  end if;
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if not found then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  if v_quote.status <> 'draft' then
    raise exception 'Only a draft quote can be edited; revise it instead' using errcode = '42501';
  end if;
  if p_contact_id is null or not exists (
       select 1 from public.contacts c where c.id = p_contact_id and c.account_id = v_quote.account_id) then
    raise exception 'Client not found' using errcode = 'P0002';
  end if;
  if not coalesce(public.is_currency(p_currency), false) then
    raise exception 'Currency must be one of the listed currencies' using errcode = '22023';
  end if;
  if p_expires_at is null or p_expires_at <= now() then
    raise exception 'The expiry must be in the future' using errcode = '22023';
  end if;
  if length(v_notes) > 2000 then
    raise exception 'Notes must be at most 2000 characters' using errcode = '22023';
  end if;
  if p_tax_rate is null or p_tax_rate < 0 or p_tax_rate > 100 or p_tax_rate <> round(p_tax_rate, 2) then
    raise exception 'Tax rate must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  if p_discount is null or p_discount < 0 or p_discount > 100 or p_discount <> round(p_discount, 2) then
    raise exception 'Discount must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  -- The items as the edit form sends them: 1 to 100 objects with a
  -- description (1-2000 characters), a whole quantity (1 to 1,000,000) and a
  -- unit price in whole cents (0 to 2^31-1), checked before anything is
  -- written. Anything else an object carries (a total) is ignored: totals
  -- are computed.
  if p_items is null or jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) < 1 then
    raise exception 'A quote needs at least one line item' using errcode = '22023';
  end if;
  if jsonb_array_length(p_items) > 100 then
    raise exception 'A quote has at most 100 line items' using errcode = '22023';
  end if;
  for v_item in select e.value from jsonb_array_elements(p_items) with ordinality e(value, n) order by e.n loop
    v_ord := v_ord + 1;
    if jsonb_typeof(v_item) <> 'object' then
      raise exception 'Line item % is not an item', v_ord using errcode = '22023';
    end if;
    v_description := btrim(case when jsonb_typeof(v_item -> 'description') = 'string' then v_item ->> 'description' end);
    if v_description is null or v_description = '' then
      raise exception 'Line item %: description is required', v_ord using errcode = '22023';
    end if;
    if length(v_description) > 2000 then
      raise exception 'Line item %: description must be at most 2000 characters', v_ord using errcode = '22023';
    end if;
    v_qty := case when jsonb_typeof(v_item -> 'qty') = 'number' then (v_item ->> 'qty')::numeric end;
    if v_qty is null or v_qty <> trunc(v_qty) or v_qty < 1 or v_qty > 1000000 then
      raise exception 'Line item %: quantity must be a whole number from 1 to 1,000,000', v_ord using errcode = '22023';
    end if;
    v_price := case when jsonb_typeof(v_item -> 'unit_price') = 'number' then (v_item ->> 'unit_price')::numeric end;
    if v_price is null or v_price <> trunc(v_price) or v_price < 0 or v_price > 2147483647 then
      raise exception 'Line item %: unit price must be whole cents of at least 0', v_ord using errcode = '22023';
    end if;
    if not public.fits_currency(v_price::bigint, p_currency) then
      raise exception 'Line item %: unit price must be a whole amount in %', v_ord, p_currency using errcode = '22023';
    end if;
    v_descriptions := v_descriptions || v_description;
    v_qtys := v_qtys || v_qty::integer;
    v_prices := v_prices || v_price::integer;
  end loop;

  -- The form gives a day: the same day as before (still ahead) keeps its
  -- moment, so a save that did not touch the expiry does not change it.
  update public.quotes q
     set contact_id = p_contact_id, currency = p_currency, notes = v_notes,
         tax_rate = p_tax_rate, discount = p_discount,
         expires_at = case
           when q.expires_at > now()
                and (q.expires_at at time zone 'UTC')::date = (p_expires_at at time zone 'UTC')::date then q.expires_at
           else p_expires_at end
   where q.id = p_quote_id;

  -- One statement: the row triggers that recompute the amounts run once it
  -- has finished, so the quote's amounts change (and are audited) once.
  with removed as (
    delete from public.quote_items i where i.quote_id = p_quote_id
  )
  insert into public.quote_items (quote_id, description, qty, unit_price, total, position)
  select p_quote_id, c.description, c.qty, c.unit_price, c.qty::bigint * c.unit_price, (c.n - 1)::integer
    from unnest(v_descriptions, v_qtys, v_prices) with ordinality c(description, qty, unit_price, n)
   order by c.n;

  select * into v_quote from public.quotes q where q.id = p_quote_id;
  return v_quote;
end;
$function$;
revoke all on function public.save_quote_draft(p_quote_id uuid, p_contact_id uuid, p_currency text, p_expires_at timestamp with time zone, p_notes text, p_tax_rate numeric, p_discount numeric, p_items jsonb) from public, anon, authenticated, service_role;
grant execute on function public.save_quote_draft(p_quote_id uuid, p_contact_id uuid, p_currency text, p_expires_at timestamp with time zone, p_notes text, p_tax_rate numeric, p_discount numeric, p_items jsonb) to authenticated, service_role;

create or replace function public.send_quote(p_quote_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_quote public.quotes := private.quote_for_staff_writer(p_quote_id);
  v_email text;
begin
  if v_quote.status <> 'draft' then
    raise exception 'Only a draft quote can be sent' using errcode = '22023';
  end if;
  if v_quote.expires_at is not null and v_quote.expires_at <= now() then
    raise exception 'This quote''s expiry has passed; set a new expiry before sending it' using errcode = '22023';
  end if;
  select nullif(btrim(c.email), '') into v_email from public.contacts c where c.id = v_quote.contact_id;
  if v_email is null then
    raise exception 'The quote''s client has no email address' using errcode = '22023';
  end if;
  if not exists (select 1 from public.quote_items i where i.quote_id = v_quote.id) then
    raise exception 'A quote needs at least one line item' using errcode = '22023';
  end if;
  perform public.change_quote_status(v_quote.id, 'sent');
  update public.quotes q set delivery_error = null where q.id = v_quote.id and q.delivery_error is not null;
  perform private.emit_event(v_quote.account_id, 'quote_sent', 'quotes', v_quote.id,
                             jsonb_build_object('quote_number', v_quote.quote_number, 'email', v_email));
  perform private.enqueue_job('quote_send', v_quote.account_id, jsonb_build_object('quote_id', v_quote.id),
                              'quote_send:' || v_quote.id, v_quote.id);
  return v_email;
end;
$function$;
revoke all on function public.send_quote(p_quote_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.send_quote(p_quote_id uuid) to authenticated, service_role;

create trigger quotes_amounts_follow_rates before insert or update of subtotal, total, discount, tax_rate, discount_amount, tax_amount on public.quotes for each row execute function private.quote_amounts_follow_rates();
create trigger quotes_assign_number before insert on public.quotes for each row execute function private.assign_quote_number();
create trigger quotes_audit_created after insert on public.quotes for each row execute function private.audit_record_created('quote');
create trigger quotes_audit_deleted after delete on public.quotes for each row execute function private.audit_quote_deleted();
create trigger quotes_audit_updated after update on public.quotes for each row execute function private.audit_quote_updated();
create trigger quotes_declined_mail after update of status on public.quotes for each row when (new.status = 'declined'::text and old.status is distinct from 'declined'::text) execute function private.queue_quote_declined_mail();
create trigger quotes_default_created_by before insert on public.quotes for each row execute function private.default_created_by();
create trigger quotes_guard_delete before delete on public.quotes for each row execute function private.guard_quote_delete();
create trigger quotes_guard_new before insert on public.quotes for each row execute function private.guard_new_quote();
create trigger quotes_guard_sent before update on public.quotes for each row execute function private.guard_sent_quote();
create trigger quotes_roll_day_stats after insert or delete or update of account_id, currency, status, total, created_at, sent_at on public.quotes for each row execute function private.roll_quote_day_stats();
create trigger quotes_seller_at_send before insert or update on public.quotes for each row execute function private.take_seller_at_send();
create trigger quotes_set_updated_at before update on public.quotes for each row execute function private.set_updated_at();
create trigger quotes_stamp_sent before insert or update of status, sent_at on public.quotes for each row execute function private.stamp_quote_sent();
create trigger quotes_stats_after_delete after delete on public.quotes referencing old table as removed for each statement execute function private.quote_stats_after_delete();
create trigger quotes_stats_after_insert after insert on public.quotes referencing new table as inserted for each statement execute function private.quote_stats_after_insert();
create trigger quotes_stats_after_update after update on public.quotes referencing old table as removed new table as inserted for each statement execute function private.quote_stats_after_update();
create constraint trigger quotes_totals_match_items after insert on public.quotes deferrable initially deferred for each row execute function private.check_quote_totals();

create policy "business writers add quotes" on public.quotes
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete quotes" on public.quotes
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update quotes" on public.quotes
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's quotes, a client those sent to it" on public.quotes
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (( select public.is_account_staff() as is_account_staff) or ((sent_at is not null) and (contact_id in ( select public.client_contact_ids() as client_contact_ids))))));

-- ── public.quote_items ──

-- The lines of a quote; their totals roll up into the quote's (private.recompute_quote_totals).
create table public.quote_items (
  id uuid default gen_random_uuid() not null,
  quote_id uuid not null,
  description text not null,
  qty integer default 1 not null,
  unit_price integer not null,
  total bigint not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  "position" integer default 0 not null,
  constraint quote_items_pkey primary key (id),
  constraint quote_items_description_length check ((length(description) <= 2000)),
  constraint quote_items_position_check check ((("position" >= 0) and ("position" < 100))),
  constraint quote_items_qty_check check ((qty >= 1)),
  constraint quote_items_total_check check ((total >= 0)),
  constraint quote_items_unit_price_check check ((unit_price >= 0)),
  constraint quote_items_quote_id_fkey foreign key (quote_id) references public.quotes(id) on delete cascade
);
alter table public.quote_items enable row level security;

alter table public.quote_items add constraint quote_items_qty_bounded check ((qty <= 1000000)) not valid;

create index quote_items_quote_id_position_idx on public.quote_items using btree (quote_id, "position", created_at);

revoke all on table public.quote_items from public, anon, authenticated, service_role;
grant all on table public.quote_items to authenticated;
revoke truncate, update on table public.quote_items from authenticated;
grant all on table public.quote_items to service_role;
grant update (description, qty, unit_price, updated_at) on table public.quote_items to authenticated;

create or replace function private.guard_quote_item()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_quote_id uuid := case when tg_op = 'DELETE' then old.quote_id else new.quote_id end;
begin
  if tg_op = 'UPDATE' and new.quote_id is distinct from old.quote_id then
    raise exception 'A line item stays on its quote' using errcode = '42501';
  end if;
  if private.is_end_user_request()
     and exists (select 1 from public.quotes q where q.id = v_quote_id and q.status <> 'draft') then
    raise exception 'Only a draft quote''s line items can change' using errcode = '42501';
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  new.total := new.qty::bigint * new.unit_price;
  return new;
end;
$function$;
revoke all on function private.guard_quote_item() from public, anon, authenticated, service_role;

create or replace function private.recompute_quote_totals()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_quote_id uuid := case when tg_op = 'DELETE' then old.quote_id else new.quote_id end;
  v_sum numeric;
  v_quote record;
  v_amounts record;
begin
  select coalesce(sum(i.total), 0) into v_sum from public.quote_items i where i.quote_id = v_quote_id;
  select q.discount, q.tax_rate into v_quote from public.quotes q where q.id = v_quote_id;
  if not found then
    return null;
  end if;
  v_amounts := private.quote_amounts(v_sum, v_quote.discount, v_quote.tax_rate);
  if v_sum > 1000000000000000000 or v_amounts.total > 1000000000000000000 then
    raise exception 'The quote''s total is too large' using errcode = '22003';
  end if;
  update public.quotes q
     set subtotal = v_sum, discount_amount = v_amounts.discount_amount,
         tax_amount = v_amounts.tax_amount, total = v_amounts.total
   where q.id = v_quote_id
     and (q.subtotal <> v_sum or q.total <> v_amounts.total
          or q.discount_amount <> v_amounts.discount_amount or q.tax_amount <> v_amounts.tax_amount);
  return null;
end;
$function$;
revoke all on function private.recompute_quote_totals() from public, anon, authenticated, service_role;

create trigger quote_items_guard before insert or delete or update on public.quote_items for each row execute function private.guard_quote_item();
create trigger quote_items_recompute_totals after insert or delete or update on public.quote_items for each row execute function private.recompute_quote_totals();
create trigger quote_items_set_updated_at before update on public.quote_items for each row execute function private.set_updated_at();

create policy "business writers add quote items" on public.quote_items
  for insert
  to authenticated
  with check ((( select public.can_write_business() as can_write_business) and (exists ( select 1
   from public.quotes q
  where ((q.id = quote_items.quote_id) and (q.account_id = ( select public.current_account_id() as current_account_id)))))));

create policy "business writers delete quote items" on public.quote_items
  for delete
  to authenticated
  using ((( select public.can_write_business() as can_write_business) and (exists ( select 1
   from public.quotes q
  where ((q.id = quote_items.quote_id) and (q.account_id = ( select public.current_account_id() as current_account_id)))))));

create policy "business writers update quote items" on public.quote_items
  for update
  to authenticated
  using ((( select public.can_write_business() as can_write_business) and (exists ( select 1
   from public.quotes q
  where ((q.id = quote_items.quote_id) and (q.account_id = ( select public.current_account_id() as current_account_id)))))))
  with check ((exists ( select 1
   from public.quotes q
  where ((q.id = quote_items.quote_id) and (q.account_id = ( select public.current_account_id() as current_account_id))))));

create policy "readers of a quote read its items" on public.quote_items
  for select
  to authenticated
  using ((exists ( select 1
   from public.quotes q
  where ((q.id = quote_items.quote_id) and (q.account_id = ( select public.current_account_id() as current_account_id))))));

-- ── public.quote_stats ──

-- Quotes per account, status, month and currency, kept by triggers for the figures (decision 018).
create table public.quote_stats (
  account_id uuid not null,
  status text not null,
  month date not null,
  quote_count bigint default 0 not null,
  quote_value numeric default 0 not null,
  currency text not null,
  sent boolean not null,
  constraint quote_stats_pkey primary key (account_id, status, month, currency, sent),
  constraint quote_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.quote_stats enable row level security;

revoke all on table public.quote_stats from public, anon, authenticated, service_role;
grant select on table public.quote_stats to authenticated;
grant all on table public.quote_stats to service_role;

create or replace function private.quote_status_change_allowed(p_from text, p_to text, p_by_server boolean, p_expires_at timestamp with time zone)
 returns boolean
 language sql
 stable
 set search_path to ''
as $function$
  select case
    when p_from = 'draft' and p_to = 'sent' then true
    when p_to = 'expired' then p_from in ('draft', 'sent', 'viewed') and p_expires_at <= now()
    when p_from = 'sent' and p_to = 'viewed' then p_by_server
    when p_from in ('sent', 'viewed') and p_to in ('signed', 'declined') then p_by_server
    else false
  end
$function$;
revoke all on function private.quote_status_change_allowed(p_from text, p_to text, p_by_server boolean, p_expires_at timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function public.change_quote_status(p_quote_id uuid, p_status text)
 returns public.quotes
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_by_server boolean := coalesce(auth.role(), '') = 'service_role';
  v_quote public.quotes;
begin
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if not found or (not v_by_server and v_quote.account_id is distinct from public.current_account_id()) then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  -- The company's own staff; auditors read, clients and suppliers are outsiders.
  if not v_by_server and coalesce(public.current_user_role(), '') not in ('admin', 'member') then
    raise exception 'Only the account''s staff can change a quote''s status' using errcode = '42501';
  end if;
  if not coalesce(private.quote_status_change_allowed(v_quote.status, p_status, v_by_server, v_quote.expires_at), false) then
    raise exception 'A % quote cannot become %', v_quote.status, coalesce(p_status, 'null') using errcode = '22023';
  end if;
  update public.quotes q set status = p_status where q.id = p_quote_id returning * into v_quote;
  return v_quote;
end;
$function$;
revoke all on function public.change_quote_status(p_quote_id uuid, p_status text) from public, anon, authenticated, service_role;
grant execute on function public.change_quote_status(p_quote_id uuid, p_status text) to authenticated, service_role;

create policy "staff read their account's quote figures" on public.quote_stats
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.quote_list ──

-- The quotes list's rows, read with the caller's rights (security_invoker), so the
-- quotes' policies decide which.
create view public.quote_list with (security_invoker=true) as
 select q.id,
    q.account_id,
    q.quote_number,
    q.status,
    q.currency,
    q.total,
    q.notes,
    q.created_at,
    q.expires_at,
    c.name as contact_name,
    c.company as contact_company
   from public.quotes q
     left join public.contacts c on c.id = q.contact_id;

revoke all on table public.quote_list from public, anon, authenticated, service_role;
grant select on table public.quote_list to authenticated;
grant all on table public.quote_list to service_role;

create or replace function public.search_quotes(p_query text)
 returns setof public.quote_list
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_pattern text := '%' || replace(replace(replace(p_query, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  -- null: every quote of the account; otherwise only quotes sent to these contacts.
  v_contacts uuid[] := case when public.is_account_staff() then null
                            else coalesce(array(select public.client_contact_ids()), '{}') end;
begin
  if v_account is null or p_query is null then
    return;
  end if;
  return query execute $sql$
    select l.*
      from (
        select q.id from public.quotes q where q.account_id = $1 and q.quote_number ilike $2
        union
        select q.id from public.quotes q where q.account_id = $1 and q.notes ilike $2
        union
        select q.id from public.contacts c join public.quotes q on q.contact_id = c.id and q.account_id = c.account_id
         where c.account_id = $1 and c.name ilike $2
        union
        select q.id from public.contacts c join public.quotes q on q.contact_id = c.id and q.account_id = c.account_id
         where c.account_id = $1 and c.company ilike $2
      ) matched
      join public.quote_list l on l.id = matched.id
     where l.account_id = $1
       and ($3::uuid[] is null
            or exists (select 1 from public.quotes q
                        where q.id = l.id and q.contact_id = any ($3::uuid[]) and q.sent_at is not null))
  $sql$ using v_account, v_pattern, v_contacts;
end;
$function$;
revoke all on function public.search_quotes(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_quotes(p_query text) to authenticated, service_role;

-- ── private.quote_number_counters ──

-- The last quote number per account and year, so numbers have no gaps or doubles.
create table private.quote_number_counters (
  account_id uuid not null,
  year integer not null,
  last_value integer not null,
  constraint quote_number_counters_pkey primary key (account_id, year),
  constraint quote_number_counters_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.quote_number_counters enable row level security;

revoke all on table private.quote_number_counters from public, anon, authenticated, service_role;

-- ── private.quote_portal_links ──

create table private.quote_portal_links (
  token_hash bytea not null,
  quote_id uuid not null,
  auth_user_id uuid not null,
  expires_at timestamp with time zone not null,
  constraint quote_portal_links_pkey primary key (token_hash),
  constraint quote_portal_links_quote_id_fkey foreign key (quote_id) references public.quotes(id) on delete cascade
);
alter table private.quote_portal_links enable row level security;

create index quote_portal_links_quote_idx on private.quote_portal_links using btree (quote_id);
create index quote_portal_links_user_idx on private.quote_portal_links using btree (auth_user_id, quote_id);

revoke all on table private.quote_portal_links from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function private.signature_png_bytes(p_base64 text)
 returns bytea
 language plpgsql
 immutable
 set search_path to ''
as $function$
declare
  v_png bytea;
  v_width bigint;
  v_height bigint;
begin
  if nullif(p_base64, '') is null then
    return null;
  end if;
  if length(p_base64) > 136000 or p_base64 !~ '^[A-Za-z0-9+/]+={0,2}$' or length(p_base64) % 4 <> 0 then
    raise exception 'The drawn signature is not a PNG or is too large (at most 100 KB)' using errcode = '22023';
  end if;
  v_png := decode(p_base64, 'base64');
  if octet_length(v_png) > 100000 then
    raise exception 'The drawn signature is too large (at most 100 KB)' using errcode = '22023';
  end if;
  -- Signature, then the IHDR chunk first: length 13, type, width, height,
  -- bit depth, colour type, compression, filter, interlace.
  if octet_length(v_png) < 33
     or substring(v_png from 1 for 16) <> '\x89504e470d0a1a0a0000000d49484452'::bytea then
    raise exception 'The drawn signature is not a PNG' using errcode = '22023';
  end if;
  v_width := (get_byte(v_png, 16)::bigint << 24) | (get_byte(v_png, 17) << 16) | (get_byte(v_png, 18) << 8) | get_byte(v_png, 19);
  v_height := (get_byte(v_png, 20)::bigint << 24) | (get_byte(v_png, 21) << 16) | (get_byte(v_png, 22) << 8) | get_byte(v_png, 23);
  if v_width < 1 or v_width > 1200 or v_height < 1 or v_height > 400 then
    raise exception 'The drawn signature is too large (at most 1200 x 400 pixels)' using errcode = '22023';
  end if;
  if get_byte(v_png, 24) <> 8 or get_byte(v_png, 25) not in (0, 2, 4, 6)
     or get_byte(v_png, 26) <> 0 or get_byte(v_png, 27) <> 0 or get_byte(v_png, 28) <> 0 then
    raise exception 'The drawn signature is not a PNG this page draws (8-bit, not interlaced)' using errcode = '22023';
  end if;
  return v_png;
end;
$function$;
revoke all on function private.signature_png_bytes(p_base64 text) from public, anon, authenticated, service_role;

create or replace function public.portal_brand()
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object('name', a.name, 'logo_path', a.logo_path)
    from public.users u
    join public.accounts a on a.id = u.account_id
   where u.auth_user_id = auth.uid() and u.is_active
$function$;
revoke all on function public.portal_brand() from public, anon, authenticated, service_role;
grant execute on function public.portal_brand() to authenticated, service_role;
