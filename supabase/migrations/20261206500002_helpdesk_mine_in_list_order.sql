-- 'Mine' in the inbox's order (issue 35, decision 090): the assignee's index
-- carries the whole sort (last_message_at desc, id desc), so the page is its
-- first 21 entries. On (assignee_id, last_message_at desc) alone the id was
-- sorted on top, and PostgreSQL 15 at times planned that as a full sort of the
-- assignee's 25,000 conversations (205 ms) rather than an incremental one
-- (0.3 ms). It still serves the assignee foreign key's lookups.
drop index public.conversations_assignee_idx;
create index conversations_assignee_idx on public.conversations (assignee_id, last_message_at desc, id desc);
