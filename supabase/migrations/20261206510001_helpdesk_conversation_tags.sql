-- The inbox's tag filter at 100,000 conversations (issue 35, decision 090).
--
-- `tags @> '{x}'` is not leakproof, so under row-level security it is never an
-- index condition: a rare tag read the account's whole newest-first index
-- (55-79x at 100,000). conversation_tags holds one row per tag of each listed
-- conversation (merged-away ones are never listed, so they have none), with
-- the conversation's last_message_at, and its index is the tag's inbox in list
-- order. Text and timestamp equality are leakproof: the page is an index range.
create table public.conversation_tags (
  account_id uuid not null,
  conversation_id uuid not null,
  tag text not null,
  last_message_at timestamptz not null,
  primary key (conversation_id, tag),
  foreign key (conversation_id, account_id) references public.conversations (id, account_id) on delete cascade
);
create index conversation_tags_inbox_idx on public.conversation_tags (account_id, tag, last_message_at desc, conversation_id desc);

-- In public with row-level security so inbox_tagged can stay security invoker
-- and be inlined (the REST server's order and limit then reach the index; a
-- security definer function is a black box that would return the tag's every
-- row to be sorted). Read exactly as conversations are read; written only by
-- the trigger below (no write grant to anyone but service_role).
alter table public.conversation_tags enable row level security;
revoke all on public.conversation_tags from public, anon, authenticated, service_role;
grant select on public.conversation_tags to authenticated;
grant all on public.conversation_tags to service_role;
create policy "staff read their account's conversation tags" on public.conversation_tags
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));

-- Kept on every change of the tags, the activity time or the merge; a deleted
-- conversation's rows go with it (the foreign key).
create function private.sync_conversation_tags() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.tags = old.tags and new.merged_into_id is not distinct from old.merged_into_id then
    if new.last_message_at is distinct from old.last_message_at then
      update public.conversation_tags set last_message_at = new.last_message_at where conversation_id = new.id;
    end if;
    return null;
  end if;
  if tg_op = 'UPDATE' then
    delete from public.conversation_tags where conversation_id = new.id;
  end if;
  if new.merged_into_id is null then
    insert into public.conversation_tags (account_id, conversation_id, tag, last_message_at)
    select distinct new.account_id, new.id, t, new.last_message_at from unnest(new.tags) t
    on conflict do nothing;
  end if;
  return null;
end;
$$;
revoke all on function private.sync_conversation_tags() from public;
create trigger conversations_sync_tags after insert or update of tags, last_message_at, merged_into_id on public.conversations
  for each row execute function private.sync_conversation_tags();

insert into public.conversation_tags (account_id, conversation_id, tag, last_message_at)
select distinct c.account_id, c.id, t, c.last_message_at
  from public.conversations c cross join lateral unnest(c.tags) t
 where c.merged_into_id is null;

-- The inbox with one tag: the tag's rows in list order, each joined to its
-- conversation by id. The row's id and last_message_at are the tag row's
-- (equal to the conversation's: the trigger keeps them), so the REST server's
-- "order by last_message_at desc, id desc limit 21" is the tag index's order
-- and the page is its first entries. (Joined on last_message_at as well, the
-- planner multiplied the two conditions' selectivities, expected one row and
-- hashed the whole account.) The columns are conversations' in table order: a
-- column added to conversations must be added here too (the helpdesk db tests
-- call this function and fail otherwise). Security invoker SQL without SET
-- clauses, so it is inlined; both tables' row-level security applies to the
-- caller. Every other filter stays on inbox_conversations.
create function public.inbox_tagged(p_tag text, p_mine boolean default false)
returns setof public.conversations
language sql stable
security invoker
as $$
  select t.conversation_id, v.account_id, v.contact_id, v.channel, v.subject, v.status, v.assignee_id, v.priority,
         v.reply_token, t.last_message_at, v.first_responded_at, v.resolved_at, v.unread, v.created_at, v.updated_at,
         v.first_response_due_at, v.resolution_due_at, v.sla_due_at, v.sla_started_at, v.sla_paused_minutes,
         v.sla_paused_at, v.tags, v.merged_into_id, v.next_response_started_at, v.next_response_due_at,
         v.next_response_paused_minutes, v.next_responses_met, v.next_responses_missed
    from public.conversation_tags t
    join public.conversations v on v.id = t.conversation_id
   where t.account_id = public.current_account_id()
     and t.tag = p_tag
     and (not coalesce(p_mine, false) or v.assignee_id = public.current_user_id())
$$;
revoke all on function public.inbox_tagged(text, boolean) from public, anon;
grant execute on function public.inbox_tagged(text, boolean) to authenticated;
