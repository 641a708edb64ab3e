-- Text search of the Recent Quotes list (/quotes?q=) that does not read every
-- quote of the account. The list searches the quote number and notes and the
-- contact's name and company; as one OR over the quote_list view (a join) no
-- index can serve it, and a 100,000-quote account took ~0.5 s a search on
-- PGlite (bench/README.md, Business screens). Here each branch is its own
-- trigram-indexed lookup and the branches are unioned.

create extension if not exists pg_trgm with schema extensions;

create index quotes_quote_number_trgm_idx on public.quotes using gin (quote_number extensions.gin_trgm_ops);
create index quotes_notes_trgm_idx on public.quotes using gin (notes extensions.gin_trgm_ops);
create index contacts_name_trgm_idx on public.contacts using gin (name extensions.gin_trgm_ops);
create index contacts_company_trgm_idx on public.contacts using gin (company extensions.gin_trgm_ops);

-- The quote_list rows whose number, notes, contact name or contact company
-- contain p_query (case-insensitive; LIKE's wildcards in it are plain
-- characters). Security invoker: RLS on quotes and contacts applies, as when
-- reading quote_list. The caller pages, orders, filters and counts (PostgREST
-- applies ?select, ?status, ?order, the range and count=exact to the result).
create or replace function public.search_quotes(p_query text)
returns setof public.quote_list
language sql stable
security invoker
set search_path = ''
as $$
  with pattern as (
    select '%' || replace(replace(replace(p_query, '\', '\\'), '%', '\%'), '_', '\_') || '%' as p
  )
  select l.*
    from public.quote_list l
   where l.id in (
     select q.id from public.quotes q, pattern
      where q.quote_number ilike pattern.p or q.notes ilike pattern.p
     union
     select q.id from public.contacts c
       join public.quotes q on q.contact_id = c.id, pattern
      where c.name ilike pattern.p or c.company ilike pattern.p
   )
$$;

revoke all on function public.search_quotes(text) from public, anon;
grant execute on function public.search_quotes(text) to authenticated;
