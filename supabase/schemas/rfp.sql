-- RFP: the bids (responses to tenders), their go/no-go decision, search and cards.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.rfps ──

create table public.rfps (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  title text not null,
  company text not null,
  contact_email text not null,
  value bigint not null,
  currency text default 'USD'::text not null,
  deadline date not null,
  proposal text not null,
  additional_notes text,
  status text default 'Active'::text not null,
  decision text,
  decision_reasons text,
  owner_id uuid,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint rfps_pkey primary key (id),
  constraint rfps_id_account_id_key unique (id, account_id),
  constraint rfps_additional_notes_check check ((length(additional_notes) <= 5000)),
  constraint rfps_company_check check (((length(btrim(company)) >= 1) and (length(btrim(company)) <= 200))),
  constraint rfps_contact_email_check check ((((length(contact_email) >= 3) and (length(contact_email) <= 254)) and (contact_email ~~ '%_@_%'::text))),
  constraint rfps_currency_check check (public.is_currency(currency)),
  constraint rfps_decision_check check ((decision = any (array['go'::text, 'no_go'::text]))),
  constraint rfps_decision_reasons_check check ((length(decision_reasons) <= 2000)),
  constraint rfps_proposal_check check (((length(btrim(proposal)) >= 1) and (length(btrim(proposal)) <= 10000))),
  constraint rfps_status_check check ((status = any (array['Active'::text, 'Submitted'::text, 'Under Review'::text, 'Won'::text, 'Lost'::text, 'Closed'::text]))),
  constraint rfps_title_check check (((length(btrim(title)) >= 1) and (length(btrim(title)) <= 200))),
  constraint rfps_title_no_control_chars check ((title !~ '[\x01-\x1f\x7f]'::text)),
  constraint rfps_value_check check (((value >= 0) and (value <= '100000000000000'::bigint))),
  constraint rfps_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint rfps_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint rfps_owner_id_account_id_fkey foreign key (owner_id, account_id) references public.users(id, account_id) on delete set null (owner_id)
);
alter table public.rfps enable row level security;

create index rfps_account_company_trgm_idx on public.rfps using gin (account_id, company extensions.gin_trgm_ops);
create index rfps_account_id_created_at_idx on public.rfps using btree (account_id, created_at desc, id desc);
create index rfps_account_id_deadline_idx on public.rfps using btree (account_id, deadline);
create index rfps_account_id_status_created_at_idx on public.rfps using btree (account_id, status, created_at desc, id desc);
create index rfps_account_title_trgm_idx on public.rfps using gin (account_id, title extensions.gin_trgm_ops);
create index rfps_created_by_idx on public.rfps using btree (created_by);
create index rfps_owner_id_idx on public.rfps using btree (owner_id);

revoke all on table public.rfps from public, anon, authenticated, service_role;
grant all on table public.rfps to authenticated;
revoke insert, truncate, update on table public.rfps from authenticated;
grant all on table public.rfps to service_role;
grant insert (account_id, title, company, contact_email, value, currency, deadline, proposal, additional_notes, status, decision, decision_reasons, owner_id) on table public.rfps to authenticated;
grant update (title, company, contact_email, value, currency, deadline, proposal, additional_notes, status, decision, decision_reasons, owner_id) on table public.rfps to authenticated;

create or replace function private.audit_rfp()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'rfp_created', 'rfp', new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    -- A delete cascading from the account's own deletion has nowhere to log (audit_logs' foreign key).
    if exists (select 1 from public.accounts a where a.id = old.account_id) then
      perform private.write_audit(old.account_id, 'rfp_deleted', 'rfp', old.id, to_jsonb(old), null);
    end if;
  else
    if new.status is distinct from old.status then
      perform private.write_audit(new.account_id, 'rfp_' || replace(lower(new.status), ' ', '_'), 'rfp', new.id,
                                  jsonb_build_object('status', old.status),
                                  jsonb_build_object('status', new.status, 'title', new.title));
    end if;
    if new.decision is distinct from old.decision or new.decision_reasons is distinct from old.decision_reasons then
      perform private.write_audit(new.account_id, 'rfp_decided', 'rfp', new.id,
                                  jsonb_build_object('decision', old.decision, 'decision_reasons', old.decision_reasons),
                                  jsonb_build_object('decision', new.decision, 'decision_reasons', new.decision_reasons, 'title', new.title));
    end if;
    select * into v_changes
      from private.changed_values(to_jsonb(old) - 'status' - 'decision' - 'decision_reasons',
                                  to_jsonb(new) - 'status' - 'decision' - 'decision_reasons');
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, 'rfp_updated', 'rfp', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_rfp() from public, anon, authenticated, service_role;

create or replace function private.rfp_tags_ok(p_tags text[])
 returns boolean
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select coalesce(bool_and(length(t) between 1 and 40 and t = lower(t) and t !~ '[[:cntrl:],]'), true)
    from unnest(p_tags) t
$function$;
revoke all on function private.rfp_tags_ok(p_tags text[]) from public, anon, authenticated, service_role;
grant execute on function private.rfp_tags_ok(p_tags text[]) to public;

create or replace function public.rfp_deadline_reminders(p_today date)
 returns table(rfp_id uuid, days integer, recipient text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_row record;
begin
  for v_row in
    select r.id, r.account_id, r.title, r.company, r.deadline, (r.deadline - p_today) as days_left, u.email
      from public.rfps r
      join public.users u on u.id = coalesce(r.owner_id, r.created_by) and u.account_id = r.account_id and u.is_active
     where r.status = 'Active' and r.deadline in (p_today + 7, p_today + 3, p_today + 1)
  loop
    if private.enqueue_job('mail.send', v_row.account_id,
         jsonb_build_object(
           'to', v_row.email,
           'subject', 'RFP deadline in ' || v_row.days_left || case when v_row.days_left = 1 then ' day: ' else ' days: ' end || v_row.title,
           'text', 'Hello,' || chr(10) || chr(10) || 'The response "' || v_row.title || '" for ' || v_row.company || ' is due on '
                   || to_char(v_row.deadline, 'YYYY-MM-DD') || ', in ' || v_row.days_left
                   || case when v_row.days_left = 1 then ' day.' else ' days.' end || chr(10) || chr(10)
                   || 'Open it in OpsHub under RFP Radar to finish and submit it.'),
         'rfp_reminder:' || v_row.id || ':' || v_row.days_left || ':' || v_row.deadline, v_row.id) is not null then
      rfp_id := v_row.id;
      days := v_row.days_left;
      recipient := v_row.email;
      return next;
    end if;
  end loop;
end;
$function$;
revoke all on function public.rfp_deadline_reminders(p_today date) from public, anon, authenticated, service_role;
grant execute on function public.rfp_deadline_reminders(p_today date) to service_role;

create or replace function public.rfp_totals(p_today date)
 returns table(currency text, open_count integer, open_value bigint, due_this_week integer, won_count integer, lost_count integer)
 language sql
 stable
 set search_path to ''
as $function$
  select r.currency,
         (count(*) filter (where r.status in ('Active', 'Submitted', 'Under Review')))::integer,
         coalesce(sum(r.value) filter (where r.status in ('Active', 'Submitted', 'Under Review')), 0)::bigint,
         (count(*) filter (where r.status in ('Active', 'Submitted', 'Under Review')
                             and r.deadline between p_today and p_today + 7))::integer,
         (count(*) filter (where r.status = 'Won' and r.updated_at >= p_today - interval '12 months'))::integer,
         (count(*) filter (where r.status = 'Lost' and r.updated_at >= p_today - interval '12 months'))::integer
    from public.rfps r
   where r.account_id = public.current_account_id()
   group by r.currency
   order by r.currency
$function$;
revoke all on function public.rfp_totals(p_today date) from public, anon, authenticated, service_role;
grant execute on function public.rfp_totals(p_today date) to authenticated, service_role;

create or replace function public.search_rfps(p_query text)
 returns setof public.rfps
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_account uuid := public.current_account_id();
  v_pattern text := private.contains_pattern(p_query);
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select x.* from public.rfps x where x.account_id = $1 and x.title ilike $2
    union
    select x.* from public.rfps x where x.account_id = $1 and x.company ilike $2
  $sql$ using v_account, v_pattern;
end;
$function$;
revoke all on function public.search_rfps(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_rfps(p_query text) to authenticated, service_role;

create trigger rfps_audit after insert or delete or update on public.rfps for each row execute function private.audit_rfp();
create trigger rfps_set_updated_at before update on public.rfps for each row execute function private.set_updated_at();

create policy "business writers add rfps" on public.rfps
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete rfps" on public.rfps
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update rfps" on public.rfps
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's rfps" on public.rfps
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.tender_sources ──

create table public.tender_sources (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  name text not null,
  url text not null,
  format text not null,
  etag text,
  last_modified text,
  last_error text,
  failures integer default 0 not null,
  last_fetched_at timestamp with time zone,
  next_fetch_at timestamp with time zone default now() not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  query text,
  ted_resume_page integer,
  constraint tender_sources_pkey primary key (id),
  constraint tender_sources_account_id_url_key unique (account_id, url),
  constraint tender_sources_id_account_id_key unique (id, account_id),
  constraint tender_sources_etag_check check ((length(etag) <= 500)),
  constraint tender_sources_failures_check check ((failures >= 0)),
  constraint tender_sources_format_check check ((format = any (array['ocds'::text, 'ted'::text, 'rss'::text]))),
  constraint tender_sources_last_error_check check ((length(last_error) <= 1000)),
  constraint tender_sources_last_modified_check check ((length(last_modified) <= 100)),
  constraint tender_sources_name_check check (((length(btrim(name)) >= 1) and (length(btrim(name)) <= 200))),
  constraint tender_sources_query_check check ((((length(btrim(query)) >= 1) and (length(btrim(query)) <= 2000)) and (query !~ '[\x01-\x1f\x7f]'::text))),
  constraint tender_sources_query_is_ted check (((query is null) or (format = 'ted'::text))),
  constraint tender_sources_ted_resume_page_check check (((ted_resume_page >= 2) and (ted_resume_page <= 150))),
  constraint tender_sources_url_check check ((((length(url) >= 10) and (length(url) <= 2000)) and (url ~ '^https?://[^\s]+$'::text))),
  constraint tender_sources_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint tender_sources_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.tender_sources enable row level security;

create index tender_sources_account_id_name_idx on public.tender_sources using btree (account_id, name);
create index tender_sources_created_by_idx on public.tender_sources using btree (created_by);
create index tender_sources_next_fetch_at_idx on public.tender_sources using btree (next_fetch_at);

revoke all on table public.tender_sources from public, anon, authenticated, service_role;
grant all on table public.tender_sources to authenticated;
revoke insert, truncate, update on table public.tender_sources from authenticated;
grant all on table public.tender_sources to service_role;
grant insert (account_id, name, url, format, query) on table public.tender_sources to authenticated;
grant update (name, url, format, query) on table public.tender_sources to authenticated;

create or replace function private.audit_tender_setting()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_type text := case tg_table_name when 'tender_sources' then 'tender_source' else 'tender_search' end;
  v_changes record;
  v_ignored text[] := array['etag', 'last_modified', 'last_error', 'failures', 'last_fetched_at', 'next_fetch_at', 'updated_at', 'ted_resume_page'];
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_type || '_created', v_type, new.id, null, to_jsonb(new) - v_ignored);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.accounts a where a.id = old.account_id) then
      perform private.write_audit(old.account_id, v_type || '_deleted', v_type, old.id, to_jsonb(old) - v_ignored, null);
    end if;
  else
    select * into v_changes from private.changed_values(to_jsonb(old) - v_ignored, to_jsonb(new) - v_ignored);
    if v_changes.new_values <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_type || '_updated', v_type, new.id, v_changes.old_values,
                                  v_changes.new_values || jsonb_build_object('name', new.name));
    end if;
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_tender_setting() from public, anon, authenticated, service_role;

create or replace function private.tender_source_reset()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.url is distinct from old.url or new.format is distinct from old.format or new.query is distinct from old.query then
    new.etag := null;
    new.last_modified := null;
    new.last_error := null;
    new.failures := 0;
    new.next_fetch_at := now();
    new.ted_resume_page := null;
  end if;
  return new;
end;
$function$;
revoke all on function private.tender_source_reset() from public, anon, authenticated, service_role;
grant execute on function private.tender_source_reset() to public;

create or replace function public.claim_tender_sources(p_now timestamp with time zone, p_limit integer)
 returns setof public.tender_sources
 language sql
 security definer
 set search_path to ''
as $function$
  update public.tender_sources s
     set next_fetch_at = p_now + interval '1 hour'
   where s.id in (select d.id from public.tender_sources d
                   where d.next_fetch_at <= p_now
                   order by d.next_fetch_at
                   limit least(greatest(p_limit, 1), 100)
                   for update skip locked)
  returning s.*
$function$;
revoke all on function public.claim_tender_sources(p_now timestamp with time zone, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_tender_sources(p_now timestamp with time zone, p_limit integer) to service_role;

create trigger tender_sources_audit after insert or delete or update on public.tender_sources for each row execute function private.audit_tender_setting();
create trigger tender_sources_reset before update on public.tender_sources for each row execute function private.tender_source_reset();
create trigger tender_sources_set_updated_at before update on public.tender_sources for each row execute function private.set_updated_at();

create policy "business writers add tender sources" on public.tender_sources
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete tender sources" on public.tender_sources
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update tender sources" on public.tender_sources
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's tender sources" on public.tender_sources
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.tender_searches ──

create table public.tender_searches (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  name text not null,
  keywords text[] default '{}'::text[] not null,
  cpv_codes text[] default '{}'::text[] not null,
  countries text[] default '{}'::text[] not null,
  min_value bigint,
  min_currency text,
  horizon_days integer default 90 not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  alert_score integer default 80,
  constraint tender_searches_pkey primary key (id),
  constraint tender_searches_id_account_id_key unique (id, account_id),
  constraint tender_searches_alert_score_check check (((alert_score >= 1) and (alert_score <= 100))),
  constraint tender_searches_check check (((min_value is null) = (min_currency is null))),
  constraint tender_searches_countries_check check (((cardinality(countries) <= 50) and (array_to_string(countries, ','::text) ~ '^([A-Z]{2}(,[A-Z]{2})*)?$'::text))),
  constraint tender_searches_cpv_codes_check check (((cardinality(cpv_codes) <= 50) and (array_to_string(cpv_codes, ','::text) ~ '^([0-9]{8}(,[0-9]{8})*)?$'::text))),
  constraint tender_searches_horizon_days_check check (((horizon_days >= 1) and (horizon_days <= 730))),
  constraint tender_searches_keywords_check check (((cardinality(keywords) <= 20) and (length(array_to_string(keywords, ','::text)) <= 1000))),
  constraint tender_searches_min_currency_check check ((min_currency ~ '^[A-Z]{3}$'::text)),
  constraint tender_searches_min_value_check check (((min_value >= 0) and (min_value <= '100000000000000'::bigint))),
  constraint tender_searches_name_check check (((length(btrim(name)) >= 1) and (length(btrim(name)) <= 200))),
  constraint tender_searches_name_no_control_chars check ((name !~ '[\x01-\x1f\x7f]'::text)),
  constraint tender_searches_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint tender_searches_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.tender_searches enable row level security;

create index tender_searches_account_id_name_idx on public.tender_searches using btree (account_id, name);
create index tender_searches_created_by_idx on public.tender_searches using btree (created_by);

revoke all on table public.tender_searches from public, anon, authenticated, service_role;
grant all on table public.tender_searches to authenticated;
revoke insert, truncate, update on table public.tender_searches from authenticated;
grant all on table public.tender_searches to service_role;
grant insert (account_id, name, keywords, cpv_codes, countries, min_value, min_currency, horizon_days, alert_score) on table public.tender_searches to authenticated;
grant update (name, keywords, cpv_codes, countries, min_value, min_currency, horizon_days, alert_score) on table public.tender_searches to authenticated;

create trigger tender_searches_audit after insert or delete or update on public.tender_searches for each row execute function private.audit_tender_setting();
create trigger tender_searches_set_updated_at before update on public.tender_searches for each row execute function private.set_updated_at();

create policy "business writers add tender searches" on public.tender_searches
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete tender searches" on public.tender_searches
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update tender searches" on public.tender_searches
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's tender searches" on public.tender_searches
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.opportunities ──

create table public.opportunities (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  source_id uuid not null,
  notice_id text not null,
  title text not null,
  buyer text,
  country text,
  cpv_codes text[] default '{}'::text[] not null,
  value bigint,
  currency text,
  deadline timestamp with time zone,
  published_at timestamp with time zone,
  documents text[] default '{}'::text[] not null,
  url text,
  raw jsonb default '{}'::jsonb not null,
  change_note text,
  amended_at timestamp with time zone,
  dismissed boolean default false not null,
  dismiss_reason text,
  pursued_rfp_id uuid,
  search tsvector generated always as (to_tsvector('simple'::regconfig, ((title || ' '::text) || coalesce(buyer, ''::text)))) stored,
  first_seen_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  cpv_groups text[] default '{}'::text[] not null,
  constraint opportunities_pkey primary key (id),
  constraint opportunities_id_account_id_key unique (id, account_id),
  constraint opportunities_source_id_notice_id_key unique (source_id, notice_id),
  constraint opportunities_buyer_check check ((length(buyer) <= 300)),
  constraint opportunities_change_note_check check ((length(change_note) <= 1000)),
  constraint opportunities_country_check check ((length(country) <= 100)),
  constraint opportunities_cpv_codes_check check ((cardinality(cpv_codes) <= 50)),
  constraint opportunities_currency_check check ((currency ~ '^[A-Z]{3}$'::text)),
  constraint opportunities_dismiss_reason_check check ((length(dismiss_reason) <= 500)),
  constraint opportunities_documents_check check ((cardinality(documents) <= 20)),
  constraint opportunities_notice_id_check check (((length(notice_id) >= 1) and (length(notice_id) <= 300))),
  constraint opportunities_title_check check (((length(title) >= 1) and (length(title) <= 500))),
  constraint opportunities_url_check check ((length(url) <= 2000)),
  constraint opportunities_value_check check (((value >= 0) and (value <= '100000000000000'::bigint))),
  constraint opportunities_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint opportunities_pursued_rfp_id_account_id_fkey foreign key (pursued_rfp_id, account_id) references public.rfps(id, account_id) on delete set null (pursued_rfp_id),
  constraint opportunities_source_id_account_id_fkey foreign key (source_id, account_id) references public.tender_sources(id, account_id) on delete cascade
);
alter table public.opportunities enable row level security;

create index opportunities_account_id_deadline_idx on public.opportunities using btree (account_id, deadline);
create index opportunities_cpv_codes_idx on public.opportunities using gin (cpv_codes) with (fastupdate=off);
create index opportunities_cpv_groups_idx on public.opportunities using gin (cpv_groups) with (fastupdate=off);
create index opportunities_pursued_rfp_id_idx on public.opportunities using btree (pursued_rfp_id);
create index opportunities_search_idx on public.opportunities using gin (search) with (fastupdate=off);
create index opportunities_source_id_account_id_idx on public.opportunities using btree (source_id, account_id);

revoke all on table public.opportunities from public, anon, authenticated, service_role;
grant all on table public.opportunities to authenticated;
revoke delete, insert, truncate, update on table public.opportunities from authenticated;
grant all on table public.opportunities to service_role;
grant update (dismissed, dismiss_reason, pursued_rfp_id) on table public.opportunities to authenticated;

create or replace function private.audit_opportunity()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.amended_at is distinct from old.amended_at then
    perform private.write_audit(new.account_id, 'opportunity_amended', 'opportunity', new.id,
                                null, jsonb_build_object('title', new.title, 'change_note', new.change_note));
  end if;
  if new.dismissed is distinct from old.dismissed then
    perform private.write_audit(new.account_id, case when new.dismissed then 'opportunity_dismissed' else 'opportunity_restored' end,
                                'opportunity', new.id, jsonb_build_object('dismissed', old.dismissed),
                                jsonb_build_object('title', new.title, 'dismissed', new.dismissed, 'dismiss_reason', new.dismiss_reason));
  end if;
  if new.pursued_rfp_id is distinct from old.pursued_rfp_id and new.pursued_rfp_id is not null then
    perform private.write_audit(new.account_id, 'opportunity_pursued', 'opportunity', new.id, null,
                                jsonb_build_object('title', new.title, 'rfp_id', new.pursued_rfp_id));
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_opportunity() from public, anon, authenticated, service_role;

create or replace function private.opportunity_cpv_groups()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  new.cpv_groups := coalesce((select array_agg(distinct pg_catalog.rpad(pg_catalog.left(c, n), 8, '0'))
                                from pg_catalog.unnest(new.cpv_codes) c, pg_catalog.generate_series(2, 8) n
                               where c ~ '^[0-9]{8}$'), '{}');
  return new;
end;
$function$;
revoke all on function private.opportunity_cpv_groups() from public, anon, authenticated, service_role;
grant execute on function private.opportunity_cpv_groups() to public;

create trigger opportunities_audit after update on public.opportunities for each row execute function private.audit_opportunity();
create trigger opportunities_cpv_groups before insert or update of cpv_codes on public.opportunities for each row execute function private.opportunity_cpv_groups();
create trigger opportunities_set_updated_at before update on public.opportunities for each row execute function private.set_updated_at();

create policy "business writers dismiss or pursue opportunities" on public.opportunities
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's opportunities" on public.opportunities
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── private.radar_mailed ──

create table private.radar_mailed (
  search_id uuid not null,
  opportunity_id uuid not null,
  kind text not null,
  mailed_at timestamp with time zone default now() not null,
  constraint radar_mailed_pkey primary key (search_id, opportunity_id),
  constraint radar_mailed_kind_check check ((kind = any (array['immediate'::text, 'digest'::text]))),
  constraint radar_mailed_opportunity_id_fkey foreign key (opportunity_id) references public.opportunities(id) on delete cascade,
  constraint radar_mailed_search_id_fkey foreign key (search_id) references public.tender_searches(id) on delete cascade
);
alter table private.radar_mailed enable row level security;

create index radar_mailed_opportunity_id_idx on private.radar_mailed using btree (opportunity_id);

revoke all on table private.radar_mailed from public, anon, authenticated, service_role;

-- ── private.radar_digests ──

create table private.radar_digests (
  search_id uuid not null,
  day date not null,
  constraint radar_digests_pkey primary key (search_id, day),
  constraint radar_digests_search_id_fkey foreign key (search_id) references public.tender_searches(id) on delete cascade
);
alter table private.radar_digests enable row level security;

revoke all on table private.radar_digests from public, anon, authenticated, service_role;

create or replace function public.queue_radar_digests(p_now timestamp with time zone)
 returns table(search_id uuid, notices integer)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_day date := (p_now at time zone 'UTC')::date;
  v_due uuid[];
  v_search public.tender_searches;
  v_ids uuid[];
  v_lines text;
  v_to text;
begin
  if extract(hour from p_now at time zone 'UTC') < 7 then
    return;
  end if;
  with due as (
    insert into private.radar_digests (search_id, day)
    select t.id, v_day from public.tender_searches t
     where not exists (select 1 from private.radar_digests d where d.search_id = t.id and d.day = v_day)
    on conflict do nothing
    returning radar_digests.search_id
  )
  select array_agg(due.search_id) into v_due from due;
  for v_search in select t.* from public.tender_searches t where t.id = any (coalesce(v_due, '{}')) order by t.id loop
    with hits as (
      select m.* from private.radar_scored(v_search, v_day, 500) m
        join public.opportunities o on o.id = m.id
       where o.first_seen_at >= p_now - interval '2 days'
    ),
    taken as (
      insert into private.radar_mailed (search_id, opportunity_id, kind)
      select v_search.id, h.id, 'digest' from hits h
      on conflict do nothing
      returning opportunity_id
    )
    select array_agg(h.id order by h.score desc, h.deadline nulls last, h.id),
           string_agg(private.radar_mail_lines(h.title, h.buyer, h.deadline, h.score, h.reasons, h.url), chr(10) || chr(10)
                      order by h.score desc, h.deadline nulls last, h.id)
      into v_ids, v_lines
      from hits h join taken t on t.opportunity_id = h.id;
    if v_ids is null then
      continue;
    end if;
    foreach v_to in array private.radar_recipients(v_search) loop
      perform private.enqueue_job('mail.send', v_search.account_id,
        jsonb_build_object(
          'to', v_to,
          'subject', 'Tender radar digest for "' || v_search.name || '": ' || cardinality(v_ids)
                     || case when cardinality(v_ids) = 1 then ' new match' else ' new matches' end,
          'text', 'Hello,' || chr(10) || chr(10) || 'New notices on the radar for your saved search "' || v_search.name || '":'
                  || chr(10) || chr(10) || v_lines || chr(10) || chr(10) || 'Open RFP Radar in OpsHub to pursue or dismiss them.'),
        'rfp_digest:' || v_search.id || ':' || v_day || ':' || md5(v_to), v_search.id);
    end loop;
    search_id := v_search.id;
    notices := cardinality(v_ids);
    return next;
  end loop;
end;
$function$;
revoke all on function public.queue_radar_digests(p_now timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.queue_radar_digests(p_now timestamp with time zone) to service_role;

-- ── public.rfp_attachments ──

create table public.rfp_attachments (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  rfp_id uuid not null,
  file_name text not null,
  file_path text not null,
  file_size integer not null,
  mime_type text not null,
  sha256 text not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  constraint rfp_attachments_pkey primary key (id),
  constraint rfp_attachments_file_path_key unique (file_path),
  constraint rfp_attachments_check check (((split_part(file_path, '/'::text, 1) = (account_id)::text) and (split_part(file_path, '/'::text, 2) = 'rfp'::text) and (split_part(file_path, '/'::text, 3) = (rfp_id)::text))),
  constraint rfp_attachments_file_name_check check ((((length(btrim(file_name)) >= 1) and (length(btrim(file_name)) <= 255)) and (file_name !~ '[[:cntrl:]/\\]'::text))),
  constraint rfp_attachments_file_path_check check ((length(file_path) <= 600)),
  constraint rfp_attachments_file_size_check check (((file_size >= 1) and (file_size <= 10485760))),
  constraint rfp_attachments_mime_type_check check ((mime_type = any (array['application/pdf'::text, 'application/msword'::text, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'::text, 'application/vnd.ms-excel'::text, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'::text, 'text/plain'::text, 'text/csv'::text, 'image/jpeg'::text, 'image/png'::text]))),
  constraint rfp_attachments_sha256_check check ((sha256 ~ '^[0-9a-f]{64}$'::text)),
  constraint rfp_attachments_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint rfp_attachments_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint rfp_attachments_rfp_id_account_id_fkey foreign key (rfp_id, account_id) references public.rfps(id, account_id) on delete cascade
);
alter table public.rfp_attachments enable row level security;

create index rfp_attachments_account_idx on public.rfp_attachments using btree (account_id);
create index rfp_attachments_created_by_idx on public.rfp_attachments using btree (created_by);
create index rfp_attachments_rfp_idx on public.rfp_attachments using btree (rfp_id, created_at);

revoke all on table public.rfp_attachments from public, anon, authenticated, service_role;
grant delete, select on table public.rfp_attachments to authenticated;
grant all on table public.rfp_attachments to service_role;
grant insert (account_id, rfp_id, file_name, file_path, file_size, mime_type, sha256) on table public.rfp_attachments to authenticated;

create or replace function private.audit_rfp_attachment()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'rfp_attachment_added', 'rfp', new.rfp_id, null,
      jsonb_build_object('attachment_id', new.id, 'file_name', new.file_name, 'file_size', new.file_size));
  elsif not exists (select 1 from public.accounts a where a.id = old.account_id) then
    -- The account's own deletion: nowhere to log, and its files go with it.
    null;
  elsif exists (select 1 from public.rfps r where r.id = old.rfp_id) then
    perform private.write_audit(old.account_id, 'rfp_attachment_removed', 'rfp', old.rfp_id,
      jsonb_build_object('attachment_id', old.id, 'file_name', old.file_name), null);
  else
    perform private.enqueue_job('rfp.remove_attachment_file', old.account_id,
      jsonb_build_object('path', old.file_path), 'rfp_attachment_file_removed:' || old.id, old.rfp_id);
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_rfp_attachment() from public, anon, authenticated, service_role;

create or replace function private.rfp_attachment_cap()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform 1 from public.rfps r where r.id = new.rfp_id for update;
  if (select count(*) from public.rfp_attachments a where a.rfp_id = new.rfp_id) >= 50 then
    raise exception 'A bid holds at most 50 files: remove one first' using errcode = '23514';
  end if;
  return new;
end;
$function$;
revoke all on function private.rfp_attachment_cap() from public, anon, authenticated, service_role;

create trigger rfp_attachments_audit after insert or delete on public.rfp_attachments for each row execute function private.audit_rfp_attachment();
create trigger rfp_attachments_cap before insert on public.rfp_attachments for each row execute function private.rfp_attachment_cap();

create policy "business writers add bid files" on public.rfp_attachments
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers remove bid files" on public.rfp_attachments
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "staff read their account's bid files" on public.rfp_attachments
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.rfp_answers ──

create table public.rfp_answers (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  title text not null,
  body text not null,
  tags text[] default '{}'::text[] not null,
  search tsvector default ''::tsvector not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint rfp_answers_pkey primary key (id),
  constraint rfp_answers_account_id_title_key unique (account_id, title),
  constraint rfp_answers_body_check check (((length(btrim(body)) >= 1) and (length(btrim(body)) <= 10000))),
  constraint rfp_answers_tags_check check (((cardinality(tags) <= 20) and private.rfp_tags_ok(tags))),
  constraint rfp_answers_title_check check ((((length(btrim(title)) >= 1) and (length(btrim(title)) <= 200)) and (title !~ '[[:cntrl:]]'::text))),
  constraint rfp_answers_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint rfp_answers_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.rfp_answers enable row level security;

create index rfp_answers_account_search_idx on public.rfp_answers using gin (account_id, search);
create index rfp_answers_account_title_idx on public.rfp_answers using btree (account_id, title, id);
create index rfp_answers_account_title_trgm_idx on public.rfp_answers using gin (account_id, title extensions.gin_trgm_ops);
create index rfp_answers_created_by_idx on public.rfp_answers using btree (created_by);

revoke all on table public.rfp_answers from public, anon, authenticated, service_role;
grant delete, select on table public.rfp_answers to authenticated;
grant all on table public.rfp_answers to service_role;
grant insert (account_id, title, body, tags) on table public.rfp_answers to authenticated;
grant update (title, body, tags) on table public.rfp_answers to authenticated;

create or replace function private.rfp_answer_search()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  new.search := setweight(to_tsvector('simple'::regconfig, new.title), 'A')
             || setweight(to_tsvector('simple'::regconfig, array_to_string(new.tags, ' ')), 'A')
             || setweight(to_tsvector('simple'::regconfig, new.body), 'B');
  return new;
end;
$function$;
revoke all on function private.rfp_answer_search() from public, anon, authenticated, service_role;

create or replace function public.search_rfp_answers(p_query text)
 returns setof public.rfp_answers
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select a.* from public.rfp_answers a
     where a.account_id = $1
       and (a.search @@ $2 or a.title ilike $3)
  $sql$ using v_account, private.prefix_tsquery(p_query), private.contains_pattern(p_query);
end;
$function$;
revoke all on function public.search_rfp_answers(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_rfp_answers(p_query text) to authenticated, service_role;

create or replace function public.use_rfp_answer(p_rfp_id uuid, p_answer_id uuid)
 returns uuid
 language sql
 set search_path to ''
as $function$
  update public.rfps r
     set proposal = r.proposal || E'\n\n' || a.body
    from public.rfp_answers a
   where r.id = p_rfp_id and a.id = p_answer_id and a.account_id = r.account_id
  returning r.id
$function$;
revoke all on function public.use_rfp_answer(p_rfp_id uuid, p_answer_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.use_rfp_answer(p_rfp_id uuid, p_answer_id uuid) to authenticated, service_role;

create trigger rfp_answers_audit after insert or delete or update on public.rfp_answers for each row execute function private.audit_settings_record('rfp_answer');
create trigger rfp_answers_search before insert or update on public.rfp_answers for each row execute function private.rfp_answer_search();
create trigger rfp_answers_set_updated_at before update on public.rfp_answers for each row execute function private.set_updated_at();

create policy "business writers add answers" on public.rfp_answers
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete answers" on public.rfp_answers
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers edit answers" on public.rfp_answers
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's answers" on public.rfp_answers
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── functions ──

create or replace function private.cpv_covers(p_searched text, p_notice text)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select p_notice like rpad(rtrim(p_searched, '0'), 2, '0') || '%'
$function$;
revoke all on function private.cpv_covers(p_searched text, p_notice text) from public, anon, authenticated, service_role;
grant execute on function private.cpv_covers(p_searched text, p_notice text) to public;

create or replace function private.keyword_query(p_keyword text)
 returns tsquery
 language sql
 immutable
 set search_path to ''
as $function$
  select case when count(*) = 0 then null
              else to_tsquery('simple', string_agg(w || ':*', ' & ')) end
    from (select w from regexp_split_to_table(lower(coalesce(p_keyword, '')), '[^[:alnum:]]+') w where w <> '' limit 10) words
$function$;
revoke all on function private.keyword_query(p_keyword text) from public, anon, authenticated, service_role;
grant execute on function private.keyword_query(p_keyword text) to public;

create or replace function private.radar_mail_lines(p_title text, p_buyer text, p_deadline timestamp with time zone, p_score integer, p_reasons text[], p_url text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select '- ' || p_title || coalesce(' (' || p_buyer || ')', '') || chr(10)
         || '  Fit ' || p_score || '/100: ' || array_to_string(p_reasons, '; ') || chr(10)
         || '  Deadline: ' || coalesce(to_char(p_deadline at time zone 'UTC', 'YYYY-MM-DD'), 'not given')
         || coalesce(chr(10) || '  ' || p_url, '')
$function$;
revoke all on function private.radar_mail_lines(p_title text, p_buyer text, p_deadline timestamp with time zone, p_score integer, p_reasons text[], p_url text) from public, anon, authenticated, service_role;
grant execute on function private.radar_mail_lines(p_title text, p_buyer text, p_deadline timestamp with time zone, p_score integer, p_reasons text[], p_url text) to public;

create or replace function private.radar_recipients(p_search public.tender_searches)
 returns text[]
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(
    (select array[u.email] from public.users u
      where u.id = p_search.created_by and u.account_id = p_search.account_id and u.is_active and u.email is not null),
    (select array_agg(u.email order by u.email) from public.users u
      where u.account_id = p_search.account_id and u.role = 'admin' and u.is_active and u.email is not null),
    '{}')
$function$;
revoke all on function private.radar_recipients(p_search public.tender_searches) from public, anon, authenticated, service_role;

create or replace function private.radar_scored(p_search public.tender_searches, p_today date, p_limit integer default 100)
 returns table(id uuid, search_id uuid, title text, buyer text, country text, cpv_codes text[], value bigint, currency text, deadline timestamp with time zone, url text, change_note text, pursued_rfp_id uuid, source_name text, score integer, reasons text[])
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_search public.tender_searches := p_search;
  v_any tsquery;
  v_candidates uuid[];
begin
  v_any := private.any_keyword_query(v_search.keywords);
  -- Planned with the values (execute): the keyword and CPV lookups use their GIN indexes.
  if v_any is null and cardinality(v_search.cpv_codes) = 0 then
    execute $sql$
      select coalesce(array_agg(o.id), '{}') from public.opportunities o
       where o.account_id = $1 and (o.deadline is null or (o.deadline >= $2 and o.deadline < $2 + $3 + 1))
    $sql$ into v_candidates using v_search.account_id, p_today, v_search.horizon_days;
  else
    execute $sql$
      select coalesce(array_agg(x.id), '{}') from (
        select o.id from public.opportunities o where $2::tsquery is not null and o.search @@ $2 and o.account_id = $1
        union
        select o.id from public.opportunities o where o.cpv_groups && $3 and o.account_id = $1
      ) x
    $sql$ into v_candidates using v_search.account_id, v_any, v_search.cpv_codes;
  end if;
  return query
  with k as (
    select coalesce(array_agg(q) filter (where q is not null), '{}') as queries
      from unnest(v_search.keywords) kw, lateral (select private.keyword_query(kw) q) x
  ),
  scored as (
    select o.*, src.name as src_name,
           cardinality(k.queries) as kw_total,
           (select count(*)::integer from unnest(k.queries) q where o.search @@ q) as kw_hits,
           (select min(sc) from unnest(v_search.cpv_codes) sc where sc = any (o.cpv_groups)) as cpv_hit,
           (v_search.min_value is not null and o.value is not null and o.currency = v_search.min_currency
            and o.value >= v_search.min_value) as min_met,
           (o.deadline is not null and o.deadline >= p_today + 7) as time_enough
      from k, public.opportunities o
      join public.tender_sources src on src.id = o.source_id
     where o.id = any (v_candidates)
       and not o.dismissed
       and (o.deadline is null or (o.deadline >= p_today and o.deadline < p_today + v_search.horizon_days + 1))
       and (cardinality(v_search.countries) = 0 or o.country = any (v_search.countries))
       and (v_search.min_value is null or o.value is null or o.currency is distinct from v_search.min_currency
            or o.value >= v_search.min_value)
  )
  select x.id, v_search.id, x.title, x.buyer, x.country, x.cpv_codes, x.value, x.currency, x.deadline, x.url, x.change_note,
         x.pursued_rfp_id, x.src_name,
         round(100.0 * (
             case when x.kw_total > 0 then 50.0 * x.kw_hits / x.kw_total else 0 end
           + case when x.cpv_hit is not null then 30 else 0 end
           + case when x.min_met then 10 else 0 end
           + case when x.time_enough then 10 else 0 end
         ) / (case when x.kw_total > 0 then 50 else 0 end + case when cardinality(v_search.cpv_codes) > 0 then 30 else 0 end
              + case when v_search.min_value is not null then 10 else 0 end + 10))::integer as fit,
         array_remove(array[
           case when x.kw_total > 0 then 'keywords: ' || x.kw_hits || ' of ' || x.kw_total end,
           case when x.cpv_hit is not null then 'CPV ' || x.cpv_hit || ' matches'
                when cardinality(v_search.cpv_codes) > 0 then 'no CPV match' end,
           case when v_search.min_value is null then null
                when x.min_met then 'value above minimum'
                when x.value is null then 'value not given'
                else 'value in ' || coalesce(x.currency, 'no currency') || ', minimum in ' || v_search.min_currency end,
           case when x.deadline is null then 'deadline not given'
                when x.time_enough then 'deadline in ' || (x.deadline::date - p_today) || ' days'
                else 'deadline in under 7 days' end
         ], null)
    from scored x
   order by fit desc, x.deadline nulls last, x.id
   limit least(greatest(coalesce(p_limit, 100), 1), 500);
end;
$function$;
revoke all on function private.radar_scored(p_search public.tender_searches, p_today date, p_limit integer) from public, anon, authenticated, service_role;

create or replace function private.tender_money(p_value bigint, p_currency text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select case when p_value is null then 'none' else coalesce(p_currency, '') || ' ' || to_char(p_value / 100.0, 'FM999,999,999,999,990.00') end
$function$;
revoke all on function private.tender_money(p_value bigint, p_currency text) from public, anon, authenticated, service_role;
grant execute on function private.tender_money(p_value bigint, p_currency text) to public;

create or replace function public.ingest_tender_notices(p_source uuid, p_notices jsonb)
 returns table(inserted integer, amended integer, unchanged integer)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid;
  v_notice jsonb;
  v_old public.opportunities;
  v_new record;
  v_notes text[];
  v_inserted integer := 0;
  v_amended integer := 0;
  v_unchanged integer := 0;
begin
  select s.account_id into v_account from public.tender_sources s where s.id = p_source;
  if v_account is null or jsonb_typeof(p_notices) is distinct from 'array' then
    return query select 0, 0, 0;
    return;
  end if;
  for v_notice in select value from jsonb_array_elements(p_notices) limit 1000 loop
    select left(v_notice ->> 'sourceId', 300) as notice_id,
           left(v_notice ->> 'title', 500) as title,
           left(v_notice ->> 'buyer', 300) as buyer,
           left(v_notice ->> 'country', 100) as country,
           coalesce((select array_agg(c) from (select jsonb_array_elements_text(v_notice -> 'cpv') c limit 50) x
                      where c ~ '^[0-9]{8}$'), '{}') as cpv_codes,
           case when v_notice ->> 'value' ~ '^[0-9]{1,15}$' then (v_notice ->> 'value')::bigint end as value,
           case when v_notice ->> 'currency' ~ '^[A-Z]{3}$' then v_notice ->> 'currency' end as currency,
           case when v_notice ->> 'deadline' ~ '^\d{4}-\d{2}-\d{2}T' then (v_notice ->> 'deadline')::timestamptz end as deadline,
           case when v_notice ->> 'publishedAt' ~ '^\d{4}-\d{2}-\d{2}T' then (v_notice ->> 'publishedAt')::timestamptz end as published_at,
           coalesce((select array_agg(left(d, 2000)) from (select jsonb_array_elements_text(v_notice -> 'documents') d limit 20) x), '{}') as documents,
           left(v_notice ->> 'url', 2000) as url,
           coalesce(v_notice -> 'raw', '{}'::jsonb) as raw
      into v_new;
    if v_new.notice_id is null or v_new.title is null or v_new.title = '' then
      continue;
    end if;
    select * into v_old from public.opportunities o where o.source_id = p_source and o.notice_id = v_new.notice_id for update;
    if not found then
      insert into public.opportunities (account_id, source_id, notice_id, title, buyer, country, cpv_codes, value, currency,
                                        deadline, published_at, documents, url, raw)
      values (v_account, p_source, v_new.notice_id, v_new.title, v_new.buyer, v_new.country, v_new.cpv_codes, v_new.value,
              v_new.currency, v_new.deadline, v_new.published_at, v_new.documents, v_new.url, v_new.raw)
      on conflict (source_id, notice_id) do nothing;
      v_inserted := v_inserted + 1;
    elsif (v_old.title, v_old.buyer, v_old.country, v_old.cpv_codes, v_old.value, v_old.currency, v_old.deadline, v_old.documents, v_old.url)
          is not distinct from
          (v_new.title, v_new.buyer, v_new.country, v_new.cpv_codes, v_new.value, v_new.currency, v_new.deadline, v_new.documents, v_new.url) then
      v_unchanged := v_unchanged + 1;
    else
      v_notes := '{}';
      if v_old.deadline is distinct from v_new.deadline then
        v_notes := v_notes || ('Deadline moved from ' || coalesce(to_char(v_old.deadline at time zone 'UTC', 'YYYY-MM-DD'), 'none')
                               || ' to ' || coalesce(to_char(v_new.deadline at time zone 'UTC', 'YYYY-MM-DD'), 'none'));
      end if;
      if v_old.value is distinct from v_new.value or v_old.currency is distinct from v_new.currency then
        v_notes := v_notes || ('value changed from ' || private.tender_money(v_old.value, v_old.currency)
                               || ' to ' || private.tender_money(v_new.value, v_new.currency));
      end if;
      if v_old.title is distinct from v_new.title then
        v_notes := v_notes || 'title changed'::text;
      end if;
      if cardinality(v_notes) = 0 then
        v_notes := array['details changed'];
      end if;
      update public.opportunities o
         set title = v_new.title, buyer = v_new.buyer, country = v_new.country, cpv_codes = v_new.cpv_codes, value = v_new.value,
             currency = v_new.currency, deadline = v_new.deadline, published_at = coalesce(v_new.published_at, o.published_at),
             documents = v_new.documents, url = v_new.url, raw = v_new.raw,
             change_note = left(upper(left(array_to_string(v_notes, '; '), 1)) || substr(array_to_string(v_notes, '; '), 2), 1000),
             amended_at = now()
       where o.id = v_old.id;
      v_amended := v_amended + 1;
    end if;
  end loop;
  return query select v_inserted, v_amended, v_unchanged;
end;
$function$;
revoke all on function public.ingest_tender_notices(p_source uuid, p_notices jsonb) from public, anon, authenticated, service_role;
grant execute on function public.ingest_tender_notices(p_source uuid, p_notices jsonb) to service_role;

create or replace function public.queue_radar_alerts(p_account uuid, p_now timestamp with time zone)
 returns table(search_id uuid, notices integer)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_search public.tender_searches;
  v_ids uuid[];
  v_lines text;
  v_first text;
  v_to text;
begin
  for v_search in select t.* from public.tender_searches t where t.account_id = p_account and t.alert_score is not null order by t.id loop
    with hits as (
      select m.* from private.radar_scored(v_search, (p_now at time zone 'UTC')::date, 500) m
        join public.opportunities o on o.id = m.id
       where m.score >= v_search.alert_score and o.first_seen_at >= p_now - interval '2 days'
    ),
    taken as (
      insert into private.radar_mailed (search_id, opportunity_id, kind)
      select v_search.id, h.id, 'immediate' from hits h
      on conflict do nothing
      returning opportunity_id
    )
    select array_agg(h.id order by h.score desc, h.deadline nulls last, h.id),
           string_agg(private.radar_mail_lines(h.title, h.buyer, h.deadline, h.score, h.reasons, h.url), chr(10) || chr(10)
                      order by h.score desc, h.deadline nulls last, h.id),
           (array_agg(h.title order by h.score desc, h.deadline nulls last, h.id))[1]
      into v_ids, v_lines, v_first
      from hits h join taken t on t.opportunity_id = h.id;
    if v_ids is null then
      continue;
    end if;
    foreach v_to in array private.radar_recipients(v_search) loop
      perform private.enqueue_job('mail.send', v_search.account_id,
        jsonb_build_object(
          'to', v_to,
          'subject', case when cardinality(v_ids) = 1 then 'Tender match for "' || v_search.name || '": ' || v_first
                          else cardinality(v_ids) || ' tender matches for "' || v_search.name || '"' end,
          'text', 'Hello,' || chr(10) || chr(10) || 'New notices on the radar score ' || v_search.alert_score
                  || ' or more for your saved search "' || v_search.name || '":' || chr(10) || chr(10) || v_lines || chr(10) || chr(10)
                  || 'Open RFP Radar in OpsHub to pursue or dismiss them.'),
        'rfp_alert:' || v_search.id || ':' || v_ids[1] || ':' || md5(v_to), v_search.id);
    end loop;
    search_id := v_search.id;
    notices := cardinality(v_ids);
    return next;
  end loop;
end;
$function$;
revoke all on function public.queue_radar_alerts(p_account uuid, p_now timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.queue_radar_alerts(p_account uuid, p_now timestamp with time zone) to service_role;

create or replace function public.radar_matches(p_search uuid, p_today date, p_limit integer default 100)
 returns table(id uuid, search_id uuid, title text, buyer text, country text, cpv_codes text[], value bigint, currency text, deadline timestamp with time zone, url text, change_note text, pursued_rfp_id uuid, source_name text, score integer, reasons text[])
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_search public.tender_searches;
begin
  if not public.is_account_staff() then
    return;
  end if;
  select t.* into v_search from public.tender_searches t
   where t.account_id = public.current_account_id() and (p_search is null or t.id = p_search)
   order by t.name, t.id limit 1;
  if not found then
    return;
  end if;
  return query select * from private.radar_scored(v_search, p_today, p_limit);
end;
$function$;
revoke all on function public.radar_matches(p_search uuid, p_today date, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.radar_matches(p_search uuid, p_today date, p_limit integer) to authenticated, service_role;

create or replace function public.record_tender_fetch(p_source uuid, p_now timestamp with time zone, p_etag text default null::text, p_last_modified text default null::text, p_error text default null::text, p_resume_page integer default null::integer)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  update public.tender_sources s
     set etag = case when p_error is null then coalesce(left(p_etag, 500), s.etag) else s.etag end,
         last_modified = case when p_error is null then coalesce(left(p_last_modified, 100), s.last_modified) else s.last_modified end,
         last_error = left(p_error, 1000),
         failures = case when p_error is null then 0 else s.failures + 1 end,
         last_fetched_at = p_now,
         next_fetch_at = case when p_error is null then p_now + interval '1 hour'
                              else p_now + least(interval '15 minutes' * power(2, s.failures), interval '1 hour') end,
         ted_resume_page = case when p_error is null then case when p_resume_page between 2 and 150 then p_resume_page end
                                else s.ted_resume_page end
   where s.id = p_source
$function$;
revoke all on function public.record_tender_fetch(p_source uuid, p_now timestamp with time zone, p_etag text, p_last_modified text, p_error text, p_resume_page integer) from public, anon, authenticated, service_role;
grant execute on function public.record_tender_fetch(p_source uuid, p_now timestamp with time zone, p_etag text, p_last_modified text, p_error text, p_resume_page integer) to service_role;
