-- TED's search by POST (issue 38; decision 092): a TED source may keep an expert query (TED's query syntax,
-- as the expert search of ted.europa.eu writes it), which the feed job POSTs to the source's address
-- (https://api.ted.europa.eu/v3/notices/search) as { query, fields, page, limit, scope, paginationMode }.
-- Only a TED source has one. Changing it starts the source over, as a new address does.

alter table public.tender_sources add column query text
  check (length(btrim(query)) between 1 and 2000 and query !~ '[\x01-\x1f\x7f]');
alter table public.tender_sources add constraint tender_sources_query_is_ted check (query is null or format = 'ted');
grant insert (query) on public.tender_sources to authenticated;
grant update (query) on public.tender_sources to authenticated;

create or replace function private.tender_source_reset() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.url is distinct from old.url or new.format is distinct from old.format or new.query is distinct from old.query then
    new.etag := null;
    new.last_modified := null;
    new.last_error := null;
    new.failures := 0;
    new.next_fetch_at := now();
  end if;
  return new;
end;
$$;
