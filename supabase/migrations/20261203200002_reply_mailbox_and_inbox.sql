-- The reply job's look-up (decision 060): the local part of an account's
-- inbound mailbox, for the Reply-To of a helpdesk reply. Service role only.
create function public.inbound_mailbox_of(p_account_id uuid)
returns text
language sql stable
security definer
set search_path = ''
as $$
  select m.local_part from private.inbound_mailboxes m where m.account_id = p_account_id
$$;
revoke all on function public.inbound_mailbox_of(uuid) from public, anon, authenticated;
grant execute on function public.inbound_mailbox_of(uuid) to service_role;

-- The inbox's rows (the /messages list): the caller's account's conversations,
-- those whose subject or contact match p_query (search_conversations) when
-- given, and only those assigned to the caller when p_mine. Row-level
-- security decides the rest (security invoker); the page filters status,
-- channel and 'Unassigned' and orders on top.
create function public.inbox_conversations(p_query text default null, p_mine boolean default false)
returns setof public.conversations
language sql stable
security invoker
set search_path = ''
as $$
  select v.* from public.conversations v
   where v.account_id = public.current_account_id()
     and (not coalesce(p_mine, false) or v.assignee_id = public.current_user_id())
     and (nullif(btrim(p_query), '') is null or v.id in (select s.id from public.search_conversations(btrim(p_query)) s))
$$;
revoke all on function public.inbox_conversations(text, boolean) from public, anon;
grant execute on function public.inbox_conversations(text, boolean) to authenticated;
