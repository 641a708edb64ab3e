-- The Documents screen's search (/documents?q=: every word in the title or
-- extracted text, or the title containing the text as typed) from the
-- account's own indexes, as the other lists' searches (20261130100002).
-- Under row-level security neither the full-text match nor `ilike` may use
-- an index before the policy has passed a row, so the search read every
-- document of every account.
--
-- search_documents states the caller's account and the documents policy's
-- rule itself: staff read their account's documents; anyone else nothing.

create index documents_account_search_idx on public.documents using gin (account_id, search);
create index documents_account_title_trgm_idx on public.documents
  using gin (account_id, title extensions.gin_trgm_ops);
-- Superseded by the index above: every search names the account.
drop index public.documents_search_idx;

-- The caller's documents matching p_query (plainto_tsquery with the 'simple'
-- configuration over `search`, or the title containing it). The caller pages,
-- orders, filters and counts the result. Planned at each call, without
-- sequential scans, as the other searches (20261130100001).
create function public.search_documents(p_query text)
returns setof public.documents
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
    select d.* from public.documents d
     where d.account_id = $1
       and (d.search @@ plainto_tsquery('simple', $2) or d.title ilike $3)
  $sql$ using v_account, p_query, private.contains_pattern(p_query);
end;
$$;

revoke all on function public.search_documents(text) from public, anon;
grant execute on function public.search_documents(text) to authenticated;
