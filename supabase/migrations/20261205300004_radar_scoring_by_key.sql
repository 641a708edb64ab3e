-- The radar's scoring reads its candidates by primary key alone (issue 38; decision 079): with the account
-- named again beside them, a plan cached for the function could read the whole account by its deadline
-- index instead, which bench/rfp/radar.ts showed at 100,000 notices. The candidates are the account's
-- already (20261205300003); nothing else changes.

create or replace function public.radar_matches(p_search uuid, p_today date, p_limit integer default 100)
returns table (
  id uuid, search_id uuid, title text, buyer text, country text, cpv_codes text[], value bigint, currency text,
  deadline timestamptz, url text, change_note text, pursued_rfp_id uuid, source_name text, score integer, reasons text[]
)
language plpgsql stable
security definer
set search_path = ''
-- The lookups by index even while the account is small (as search_rfps; decision 037).
set enable_seqscan = off
as $$
declare
  v_search public.tender_searches;
  v_any tsquery;
  v_candidates uuid[];
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
