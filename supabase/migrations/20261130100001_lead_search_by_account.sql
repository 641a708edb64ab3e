-- The Leads screen's text search (/leads?q=) that reads only the caller's
-- matches, as the quotes' search does (20261124000001).
--
-- The list searched with `ilike` over name, email and company under row-level
-- security: ilike is not leakproof, so Postgres may not use an index for it
-- before the policy has passed a row, and with no index to use it read every
-- lead of every account. An account of 10 leads waited 256 ms for a search
-- beside an account of 100,000 (bench/README.md, "Leads and clients at
-- 100,000"). The indexes here lead with account_id (btree_gin), and the search
-- is a security definer function that states the caller's account and the
-- leads policy's rule itself: staff read their account's leads; anyone else
-- (a client, a supplier, no session) finds nothing.

create index leads_account_name_trgm_idx on public.leads
  using gin (account_id, name extensions.gin_trgm_ops);
create index leads_account_email_trgm_idx on public.leads
  using gin (account_id, email extensions.gin_trgm_ops);
create index leads_account_company_trgm_idx on public.leads
  using gin (account_id, company extensions.gin_trgm_ops);

-- `ilike` pattern for "contains p_text", LIKE's wildcards in it taken as plain characters.
create function private.contains_pattern(p_text text) returns text
language sql immutable
set search_path = ''
as $$
  select '%' || replace(replace(replace(p_text, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

-- The caller's leads whose name, email or company contain p_query,
-- case-insensitively; LIKE's wildcards in it are plain characters. The caller
-- pages, orders, filters and counts the result (PostgREST applies ?select,
-- ?status, ?order, the range and count=exact to it).
--
-- Planned at each call with the account and the pattern as known values
-- (EXECUTE ... USING; the SQL text is fixed), and without sequential scans:
-- the planner prices the account's key in a composite GIN index as if all
-- of the account's entries were read, and chose to read the whole table
-- instead. For 11 matches among 100,000 invoices on PGlite that was 132 ms
-- against 26 ms from the indexes; where most rows match, the indexes cost
-- about a tenth more than the scan (145 against 127 ms for 11,111 matches).
-- A small account's rows are read through its (account, time) index.
create function public.search_leads(p_query text)
returns setof public.leads
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select l.* from public.leads l
     where l.account_id = $1
       and (l.name ilike $2 or l.email ilike $2 or l.company ilike $2)
  $sql$ using v_account, private.contains_pattern(p_query);
end;
$$;

revoke all on function private.contains_pattern(text) from public, anon, authenticated;
revoke all on function public.search_leads(text) from public, anon;
grant execute on function public.search_leads(text) to authenticated;
