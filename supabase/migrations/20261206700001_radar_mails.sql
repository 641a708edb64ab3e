-- Mails from the tender radar (issue 38; decision 092): an immediate mail when a new notice scores at or
-- above a saved search's alert score (alert_score, 80 unless the search says otherwise; null: none), and a
-- daily digest per saved search of its other new matches. Each notice is mailed once per search: the
-- notice and search are written to private.radar_mailed before the mail is queued, in one statement that
-- skips a pair already there, so a retried job or two runners at once never mail it twice; the digest of a
-- day is taken by writing (search, day) to private.radar_digests first, likewise. Both run in the jobs runner
-- (rfp.feeds after a fetch brought notices; rfp.digests every minute, doing a search's digest once a day
-- from 07:00 UTC), never in a request. Recipients: the search's owner (whoever saved it) while active,
-- else the account's active admins.
--
-- The scoring of radar_matches moves to private.radar_scored (for a given search, no caller's account),
-- which the mails share with the radar page; radar_matches keeps its checks and answers as before.

alter table public.tender_searches add column alert_score integer default 80 check (alert_score between 1 and 100);
grant insert (alert_score) on public.tender_searches to authenticated;
grant update (alert_score) on public.tender_searches to authenticated;

create table private.radar_mailed (
  search_id uuid not null references public.tender_searches (id) on delete cascade,
  opportunity_id uuid not null references public.opportunities (id) on delete cascade,
  kind text not null check (kind in ('immediate', 'digest')),
  mailed_at timestamptz not null default now(),
  primary key (search_id, opportunity_id)
);
create index radar_mailed_opportunity_id_idx on private.radar_mailed (opportunity_id);

create table private.radar_digests (
  search_id uuid not null references public.tender_searches (id) on delete cascade,
  day date not null,
  primary key (search_id, day)
);
revoke all on private.radar_mailed, private.radar_digests from public, anon, authenticated;

-- One search's matches, scored (the body of radar_matches, 20261205300004, for a search given).
create function private.radar_scored(p_search public.tender_searches, p_today date, p_limit integer default 100)
returns table (
  id uuid, search_id uuid, title text, buyer text, country text, cpv_codes text[], value bigint, currency text,
  deadline timestamptz, url text, change_note text, pursued_rfp_id uuid, source_name text, score integer, reasons text[]
)
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
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
$$;
revoke all on function private.radar_scored(public.tender_searches, date, integer) from public;

create or replace function public.radar_matches(p_search uuid, p_today date, p_limit integer default 100)
returns table (
  id uuid, search_id uuid, title text, buyer text, country text, cpv_codes text[], value bigint, currency text,
  deadline timestamptz, url text, change_note text, pursued_rfp_id uuid, source_name text, score integer, reasons text[]
)
language plpgsql stable
security definer
set search_path = ''
as $$
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
$$;

-- Who a search's mails go to: its owner while active, else the account's active admins.
create function private.radar_recipients(p_search public.tender_searches) returns text[]
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select array[u.email] from public.users u
      where u.id = p_search.created_by and u.account_id = p_search.account_id and u.is_active and u.email is not null),
    (select array_agg(u.email order by u.email) from public.users u
      where u.account_id = p_search.account_id and u.role = 'admin' and u.is_active and u.email is not null),
    '{}')
$$;
revoke all on function private.radar_recipients(public.tender_searches) from public;

-- One notice's lines in a mail: title, buyer, deadline, score and reasons, link.
create function private.radar_mail_lines(p_title text, p_buyer text, p_deadline timestamptz, p_score integer, p_reasons text[], p_url text)
returns text
language sql immutable
set search_path = ''
as $$
  select '- ' || p_title || coalesce(' (' || p_buyer || ')', '') || chr(10)
         || '  Fit ' || p_score || '/100: ' || array_to_string(p_reasons, '; ') || chr(10)
         || '  Deadline: ' || coalesce(to_char(p_deadline at time zone 'UTC', 'YYYY-MM-DD'), 'not given')
         || coalesce(chr(10) || '  ' || p_url, '')
$$;

-- The immediate mails of one account's searches: new notices (first seen within two days) scoring at least
-- the search's alert score, not mailed to that search before. One mail per search and recipient listing
-- them. Returns the searches mailed and how many notices each.
create function public.queue_radar_alerts(p_account uuid, p_now timestamptz)
returns table (search_id uuid, notices integer)
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.queue_radar_alerts(uuid, timestamptz) from public, anon, authenticated;
grant execute on function public.queue_radar_alerts(uuid, timestamptz) to service_role;

-- The daily digests: from 07:00 UTC, each search once a day (its (search, day) row taken first), listing
-- its matches first seen within two days that no mail has named yet; a search with none sends nothing.
-- Returns the searches mailed and how many notices each.
create function public.queue_radar_digests(p_now timestamptz)
returns table (search_id uuid, notices integer)
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.queue_radar_digests(timestamptz) from public, anon, authenticated;
grant execute on function public.queue_radar_digests(timestamptz) to service_role;
