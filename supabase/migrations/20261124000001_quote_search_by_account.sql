-- Text search of the Recent Quotes list (/quotes?q=) that reads only the
-- caller's matches, not every quote of the account.
--
-- Searching the quote_list view with `ilike` over an OR that spans the quote
-- and its contact reads every quote of the account (0.5 s for 100,000 quotes
-- on PGlite, bench/README.md, Business screens). Trigram indexes alone did not
-- help (20261122200011, undone by 20261122200012), for two reasons:
-- - under row-level security Postgres may not use an index for `ilike`: the
--   operator is not leakproof, so it must wait until the policy has passed a
--   row, and an index condition would run before it;
-- - the indexes spanned every account, so a word many accounts share led
--   a small account through everybody's matches.
-- So the indexes here lead with account_id (btree_gin lets a GIN index carry
-- it beside the trigrams), and the search is a security definer function that
-- states the caller's account itself: RLS is not consulted inside it, and the
-- account condition it writes is the same one the policies enforce (a quote's
-- contact is always of the quote's account: a composite foreign key says so).

create extension if not exists pg_trgm with schema extensions;
create extension if not exists btree_gin with schema extensions;

create index quotes_account_quote_number_trgm_idx on public.quotes
  using gin (account_id, quote_number extensions.gin_trgm_ops);
create index quotes_account_notes_trgm_idx on public.quotes
  using gin (account_id, notes extensions.gin_trgm_ops);
create index contacts_account_name_trgm_idx on public.contacts
  using gin (account_id, name extensions.gin_trgm_ops);
create index contacts_account_company_trgm_idx on public.contacts
  using gin (account_id, company extensions.gin_trgm_ops);

-- The caller's quote_list rows whose number, notes, contact name or contact
-- company contain p_query, case-insensitively; LIKE's wildcards in it are
-- plain characters. Each column is its own index lookup within the account,
-- and the lookups are unioned. The caller pages, orders, filters and counts
-- the result (PostgREST applies ?select, ?status, ?order, the range and
-- count=exact to it). A caller with no account (or no session) finds nothing.
--
-- The statement is planned at each call with the account and the pattern as
-- known values (EXECUTE ... USING; the SQL text itself is fixed): a plan made
-- for any account would walk the trigram indexes even for an account of ten
-- quotes, where reading its few rows is far cheaper.
create function public.search_quotes(p_query text)
returns setof public.quote_list
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_pattern text := '%' || replace(replace(replace(p_query, '\', '\\'), '%', '\%'), '_', '\_') || '%';
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
  $sql$ using v_account, v_pattern;
end;
$$;

revoke all on function public.search_quotes(text) from public, anon;
grant execute on function public.search_quotes(text) to authenticated;
