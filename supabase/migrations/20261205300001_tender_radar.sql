-- The tender radar of the RFP module (issue 38; decision 079): the feeds an account follows
-- (tender_sources: OCDS, TED or RSS/Atom, with the conditional-GET state the hourly job keeps), its saved
-- searches (tender_searches: keywords, CPV codes, buyer countries, a minimum value in a currency, a deadline
-- horizon), and the notices the feeds brought (opportunities: normalised columns beside the raw notice, once
-- per source and notice id; an amended notice says what changed). Staff read; admins and members manage
-- sources and searches and dismiss or pursue an opportunity; only the feed job (service role) writes notices
-- and fetch state. Clients, suppliers and other accounts see nothing (decision 012).

-- Sources ----------------------------------------------------------------------

create table public.tender_sources (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  url text not null check (length(url) between 10 and 2000 and url ~ '^https?://[^\s]+$'),
  format text not null check (format in ('ocds', 'ted', 'rss')),
  -- The feed job's state: the validators of the last answer, the last error, when it runs next.
  etag text check (length(etag) <= 500),
  last_modified text check (length(last_modified) <= 100),
  last_error text check (length(last_error) <= 1000),
  failures integer not null default 0 check (failures >= 0),
  last_fetched_at timestamptz,
  next_fetch_at timestamptz not null default now(),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id),
  unique (account_id, url),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index tender_sources_account_id_name_idx on public.tender_sources (account_id, name);
create index tender_sources_next_fetch_at_idx on public.tender_sources (next_fetch_at);
create index tender_sources_created_by_idx on public.tender_sources (created_by);

-- A source pointed elsewhere (or read as another format) starts over: no validators of the old address, fetched soon.
create function private.tender_source_reset() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.url is distinct from old.url or new.format is distinct from old.format then
    new.etag := null;
    new.last_modified := null;
    new.last_error := null;
    new.failures := 0;
    new.next_fetch_at := now();
  end if;
  return new;
end;
$$;
create trigger tender_sources_reset before update on public.tender_sources
  for each row execute function private.tender_source_reset();
create trigger tender_sources_set_updated_at before update on public.tender_sources
  for each row execute function private.set_updated_at();

-- Saved searches ------------------------------------------------------------------

create table public.tender_searches (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  -- Each keyword a word or phrase; a notice matches a keyword when its title or buyer has all its words.
  keywords text[] not null default '{}'
    check (cardinality(keywords) <= 20 and length(array_to_string(keywords, ',')) <= 1000),
  -- CPV codes, eight digits; a division (72000000) matches every code under it (72200000).
  cpv_codes text[] not null default '{}'
    check (cardinality(cpv_codes) <= 50 and array_to_string(cpv_codes, ',') ~ '^([0-9]{8}(,[0-9]{8})*)?$'),
  -- Buyer countries, ISO 3166 alpha-2 (the feed job writes a notice's country so).
  countries text[] not null default '{}'
    check (cardinality(countries) <= 50 and array_to_string(countries, ',') ~ '^([A-Z]{2}(,[A-Z]{2})*)?$'),
  -- Integer cents in min_currency; compared only with notices in that currency (no exchange rates here).
  min_value bigint check (min_value between 0 and 100000000000000),
  min_currency text check (min_currency ~ '^[A-Z]{3}$'),
  -- Notices whose deadline falls within this many days (a past deadline never matches).
  horizon_days integer not null default 90 check (horizon_days between 1 and 730),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id),
  check ((min_value is null) = (min_currency is null)),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index tender_searches_account_id_name_idx on public.tender_searches (account_id, name);
create index tender_searches_created_by_idx on public.tender_searches (created_by);
create trigger tender_searches_set_updated_at before update on public.tender_searches
  for each row execute function private.set_updated_at();

-- Opportunities -------------------------------------------------------------------

create table public.opportunities (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  source_id uuid not null,
  notice_id text not null check (length(notice_id) between 1 and 300),
  title text not null check (length(title) between 1 and 500),
  buyer text check (length(buyer) <= 300),
  country text check (length(country) <= 100),
  cpv_codes text[] not null default '{}' check (cardinality(cpv_codes) <= 50),
  value bigint check (value between 0 and 100000000000000),
  currency text check (currency ~ '^[A-Z]{3}$'),
  deadline timestamptz,
  published_at timestamptz,
  documents text[] not null default '{}' check (cardinality(documents) <= 20),
  url text check (length(url) <= 2000),
  -- The notice as the feed gave it (capped by the parsers), beside the columns above.
  raw jsonb not null default '{}'::jsonb,
  -- What the last amendment changed ("Deadline moved from … to …; value changed from … to …").
  change_note text check (length(change_note) <= 1000),
  amended_at timestamptz,
  dismissed boolean not null default false,
  dismiss_reason text check (length(dismiss_reason) <= 500),
  pursued_rfp_id uuid,
  search tsvector generated always as (to_tsvector('simple', title || ' ' || coalesce(buyer, ''))) stored,
  first_seen_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id),
  unique (source_id, notice_id),
  foreign key (source_id, account_id) references public.tender_sources (id, account_id) on delete cascade,
  foreign key (pursued_rfp_id, account_id) references public.rfps (id, account_id) on delete set null (pursued_rfp_id)
);
create index opportunities_account_id_deadline_idx on public.opportunities (account_id, deadline);
create index opportunities_search_idx on public.opportunities using gin (search);
create index opportunities_cpv_codes_idx on public.opportunities using gin (cpv_codes);
create index opportunities_pursued_rfp_id_idx on public.opportunities (pursued_rfp_id);
create index opportunities_source_id_account_id_idx on public.opportunities (source_id, account_id);
create trigger opportunities_set_updated_at before update on public.opportunities
  for each row execute function private.set_updated_at();

-- Row-level security ---------------------------------------------------------------

alter table public.tender_sources enable row level security;
alter table public.tender_searches enable row level security;
alter table public.opportunities enable row level security;
revoke all on public.tender_sources, public.tender_searches, public.opportunities from anon;
revoke insert, update, delete, truncate on public.tender_sources, public.tender_searches, public.opportunities from authenticated;
grant insert (account_id, name, url, format) on public.tender_sources to authenticated;
grant update (name, url, format) on public.tender_sources to authenticated;
grant delete on public.tender_sources to authenticated;
grant insert (account_id, name, keywords, cpv_codes, countries, min_value, min_currency, horizon_days) on public.tender_searches to authenticated;
grant update (name, keywords, cpv_codes, countries, min_value, min_currency, horizon_days) on public.tender_searches to authenticated;
grant delete on public.tender_searches to authenticated;
-- People dismiss and pursue; the notice itself is the feed's.
grant update (dismissed, dismiss_reason, pursued_rfp_id) on public.opportunities to authenticated;

create policy "staff read their account's tender sources" on public.tender_sources
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add tender sources" on public.tender_sources
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update tender sources" on public.tender_sources
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete tender sources" on public.tender_sources
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

create policy "staff read their account's tender searches" on public.tender_searches
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add tender searches" on public.tender_searches
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update tender searches" on public.tender_searches
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete tender searches" on public.tender_searches
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

create policy "staff read their account's opportunities" on public.opportunities
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers dismiss or pursue opportunities" on public.opportunities
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));

-- Audit rows -----------------------------------------------------------------------

-- Sources and searches: created, changed (what changed), deleted. The feed job's own bookkeeping
-- (validators, errors, next run) is no one's change and writes nothing.
create function private.audit_tender_setting() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_type text := case tg_table_name when 'tender_sources' then 'tender_source' else 'tender_search' end;
  v_changes record;
  v_ignored text[] := array['etag', 'last_modified', 'last_error', 'failures', 'last_fetched_at', 'next_fetch_at', 'updated_at'];
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_type || '_created', v_type, new.id, null, to_jsonb(new) - v_ignored);
  elsif tg_op = 'DELETE' then
    perform private.write_audit(old.account_id, v_type || '_deleted', v_type, old.id, to_jsonb(old) - v_ignored, null);
  else
    select * into v_changes from private.changed_values(to_jsonb(old) - v_ignored, to_jsonb(new) - v_ignored);
    if v_changes.new_values <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_type || '_updated', v_type, new.id, v_changes.old_values,
                                  v_changes.new_values || jsonb_build_object('name', new.name));
    end if;
  end if;
  return null;
end;
$$;
revoke all on function private.audit_tender_setting() from public;
create trigger tender_sources_audit after insert or update or delete on public.tender_sources
  for each row execute function private.audit_tender_setting();
create trigger tender_searches_audit after insert or update or delete on public.tender_searches
  for each row execute function private.audit_tender_setting();

-- Opportunities: an amendment (what changed), a dismissal (with its reason) and a pursuit (the bid made).
create function private.audit_opportunity() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.audit_opportunity() from public;
create trigger opportunities_audit after update on public.opportunities
  for each row execute function private.audit_opportunity();

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('tender_source', 'public.tender_sources', $$r.name$$, 'name', false),
  ('tender_search', 'public.tender_searches', $$r.name$$, 'name', false),
  ('opportunity', 'public.opportunities', $$r.title$$, 'title', false);

-- The feed job (service role only) -------------------------------------------------

-- The sources due now, each taken for the hour in the same statement: a second runner (or the next
-- minute's job) finds nothing to take, so a source is fetched once per hour.
create function public.claim_tender_sources(p_now timestamptz, p_limit integer)
returns setof public.tender_sources
language sql
security definer
set search_path = ''
as $$
  update public.tender_sources s
     set next_fetch_at = p_now + interval '1 hour'
   where s.id in (select d.id from public.tender_sources d
                   where d.next_fetch_at <= p_now
                   order by d.next_fetch_at
                   limit least(greatest(p_limit, 1), 100)
                   for update skip locked)
  returning s.*
$$;
revoke all on function public.claim_tender_sources(timestamptz, integer) from public, anon, authenticated;
grant execute on function public.claim_tender_sources(timestamptz, integer) to service_role;

-- A fetch's outcome. Success (p_error null): the new validators (a 304 keeps the old), the error cleared.
-- Failure: the error kept for the settings page, the source tried again after 15 minutes, 30, then hourly.
create function public.record_tender_fetch(p_source uuid, p_now timestamptz, p_etag text default null, p_last_modified text default null,
                                           p_error text default null)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.tender_sources s
     set etag = case when p_error is null then coalesce(left(p_etag, 500), s.etag) else s.etag end,
         last_modified = case when p_error is null then coalesce(left(p_last_modified, 100), s.last_modified) else s.last_modified end,
         last_error = left(p_error, 1000),
         failures = case when p_error is null then 0 else s.failures + 1 end,
         last_fetched_at = p_now,
         next_fetch_at = case when p_error is null then p_now + interval '1 hour'
                              else p_now + least(interval '15 minutes' * power(2, s.failures), interval '1 hour') end
   where s.id = p_source
$$;
revoke all on function public.record_tender_fetch(uuid, timestamptz, text, text, text) from public, anon, authenticated;
grant execute on function public.record_tender_fetch(uuid, timestamptz, text, text, text) to service_role;

-- A money amount for a change note: 'EUR 120,000.00'.
create function private.tender_money(p_value bigint, p_currency text) returns text
language sql immutable
set search_path = ''
as $$
  select case when p_value is null then 'none' else coalesce(p_currency, '') || ' ' || to_char(p_value / 100.0, 'FM999,999,999,999,990.00') end
$$;

-- The notices of one fetch (the parsers' output, normalised), stored once per source and notice id. A notice
-- seen before is left alone when nothing changed; otherwise its columns are updated and, when its deadline or
-- value moved, the change is noted (and audited). Returns how many were new, amended and unchanged.
create function public.ingest_tender_notices(p_source uuid, p_notices jsonb)
returns table (inserted integer, amended integer, unchanged integer)
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.ingest_tender_notices(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.ingest_tender_notices(uuid, jsonb) to service_role;

-- Matching (security definer, stating the select policy itself: the caller's account, staff only) ------

-- One keyword (a word or phrase) as a prefix query over the 'simple' configuration: every word of it,
-- each as a prefix ('hosting' finds 'hosting', 'host' finds 'hosts'); null when it has no word.
create function private.keyword_query(p_keyword text) returns tsquery
language sql immutable
set search_path = ''
as $$
  select case when count(*) = 0 then null
              else to_tsquery('simple', string_agg(w || ':*', ' & ')) end
    from (select w from regexp_split_to_table(lower(coalesce(p_keyword, '')), '[^[:alnum:]]+') w where w <> '' limit 10) words
$$;

-- Whether a notice's CPV code falls under a searched one: the searched code without its trailing zeros
-- (at least the two digits of a division) is a prefix of the notice's.
create function private.cpv_covers(p_searched text, p_notice text) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_notice like rpad(rtrim(p_searched, '0'), 2, '0') || '%'
$$;

-- The matches of one saved search (or the account's first by name when p_search is null), best first, each
-- with its fit score (0-100) and the reasons for it. Hard filters: not dismissed, the deadline unknown or
-- within the horizon from p_today (never past), the buyer's country among the search's (when it names
-- any), the value at least the minimum (when both are in the same currency), and at least one keyword or
-- CPV code matching (when the search has either). The score weighs what the search asks: keywords 50
-- (the share matched), CPV 30, the minimum value 10 (met in the same currency), and 10 for a deadline at
-- least 7 days away (time to write a response).
create function public.radar_matches(p_search uuid, p_today date, p_limit integer default 100)
returns table (
  id uuid, search_id uuid, title text, buyer text, country text, cpv_codes text[], value bigint, currency text,
  deadline timestamptz, url text, change_note text, pursued_rfp_id uuid, source_name text, score integer, reasons text[]
)
language sql stable
security definer
set search_path = ''
as $$
  with s as (
    select t.* from public.tender_searches t
     where t.account_id = public.current_account_id() and public.is_account_staff()
       and (p_search is null or t.id = p_search)
     order by t.name, t.id limit 1
  ),
  k as (
    select coalesce(array_agg(q) filter (where q is not null), '{}') as queries
      from s left join lateral unnest(s.keywords) kw on true
      left join lateral (select private.keyword_query(kw) q) x on true
  ),
  scored as (
    select o.*, s.id as sid, s.min_value, s.min_currency, src.name as src_name,
           cardinality(k.queries) as kw_total,
           (select count(*)::integer from unnest(k.queries) q where o.search @@ q) as kw_hits,
           cardinality(s.cpv_codes) > 0 as has_cpv,
           (select min(sc) from unnest(s.cpv_codes) sc where exists (select 1 from unnest(o.cpv_codes) oc where private.cpv_covers(sc, oc))) as cpv_hit,
           s.min_value is not null as has_min,
           (s.min_value is not null and o.value is not null and o.currency = s.min_currency and o.value >= s.min_value) as min_met,
           (o.deadline is not null and o.deadline >= p_today + 7) as time_enough
      from s cross join k
      join public.opportunities o on o.account_id = s.account_id
      join public.tender_sources src on src.id = o.source_id
     where not o.dismissed
       and (o.deadline is null or (o.deadline >= p_today and o.deadline < p_today + s.horizon_days + 1))
       and (cardinality(s.countries) = 0 or o.country = any (s.countries))
       and (s.min_value is null or o.value is null or o.currency is distinct from s.min_currency or o.value >= s.min_value)
       and ((cardinality(k.queries) = 0 and cardinality(s.cpv_codes) = 0)
            or exists (select 1 from unnest(k.queries) q where o.search @@ q)
            or exists (select 1 from unnest(s.cpv_codes) sc, unnest(o.cpv_codes) oc where private.cpv_covers(sc, oc)))
  )
  select x.id, x.sid, x.title, x.buyer, x.country, x.cpv_codes, x.value, x.currency, x.deadline, x.url, x.change_note,
         x.pursued_rfp_id, x.src_name,
         round(100.0 * (
             case when x.kw_total > 0 then 50.0 * x.kw_hits / x.kw_total else 0 end
           + case when x.cpv_hit is not null then 30 else 0 end
           + case when x.min_met then 10 else 0 end
           + case when x.time_enough then 10 else 0 end
         ) / (case when x.kw_total > 0 then 50 else 0 end + case when x.has_cpv then 30 else 0 end
              + case when x.has_min then 10 else 0 end + 10))::integer,
         array_remove(array[
           case when x.kw_total > 0 then 'keywords: ' || x.kw_hits || ' of ' || x.kw_total end,
           case when x.cpv_hit is not null then 'CPV ' || x.cpv_hit || ' matches' when x.has_cpv then 'no CPV match' end,
           case when not x.has_min then null
                when x.min_met then 'value above minimum'
                when x.value is null then 'value not given'
                else 'value in ' || coalesce(x.currency, 'no currency') || ', minimum in ' || x.min_currency end,
           case when x.deadline is null then 'deadline not given'
                when x.time_enough then 'deadline in ' || (x.deadline::date - p_today) || ' days'
                else 'deadline in under 7 days' end
         ], null)
    from scored x
   order by 14 desc, x.deadline nulls last, x.id
   limit least(greatest(coalesce(p_limit, 100), 1), 500)
$$;
revoke all on function public.radar_matches(uuid, date, integer) from public, anon;
grant execute on function public.radar_matches(uuid, date, integer) to authenticated;
