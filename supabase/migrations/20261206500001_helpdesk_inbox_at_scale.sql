-- The inbox at 100,000 conversations (issue 35, decision 090).
--
-- 'Breached' and 'Due soon' list the most urgent first (sla_due_at, id). The
-- deadlines are in business time, so many conversations share one (everything
-- that arrived overnight or over a weekend is due at the same minute after the
-- next opening): on (account_id, sla_due_at) alone the page sorted each tie
-- group by id, reading hundreds of rows for 21. With the id in the index and the
-- merged-away conversations (never listed) left out, the page is the index's
-- first 21 entries, read from the index alone.
drop index public.conversations_account_sla_due_idx;
create index conversations_account_sla_due_idx on public.conversations (account_id, sla_due_at, id)
  where sla_due_at is not null and merged_into_id is null;

-- A search reads its matches from search_conversations (the trigram indexes)
-- and sorts them: inbox_conversations filtered the account's newest-first index
-- by "id in (the matches)", a hashed list the planner cannot turn into an index
-- read, so a search that matched ten conversations walked all 100,000. Security
-- invoker and without SET clauses, so it is inlined; search_conversations
-- checks the caller's account and role itself.
create function public.inbox_search(p_query text, p_mine boolean default false)
returns setof public.conversations
language sql stable
security invoker
as $$
  select s.* from public.search_conversations(btrim(p_query)) s
   where not coalesce(p_mine, false) or s.assignee_id = public.current_user_id()
$$;
revoke all on function public.inbox_search(text, boolean) from public, anon;
grant execute on function public.inbox_search(text, boolean) to authenticated;
