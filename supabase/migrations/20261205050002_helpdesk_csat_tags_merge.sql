-- Helpdesk CSAT, tags, merge, presence and the SLA report (issue 35, decision 075).

-- CSAT ------------------------------------------------------------------------------
--
-- On resolve, an email conversation queues one helpdesk.csat_request job (its
-- key makes it once per conversation). The job asks issue_csat_link for a
-- token (32 random bytes, base64url; only its sha256 is kept), mails the link
-- /csat/:token and marks it sent. The public page answers through
-- open_csat_link / answer_csat as anon: one answer per conversation; every
-- use of a token counts towards its limit (30 in 10 minutes) as the quote
-- links do, the per-IP window being the Worker's binding.

create table public.csat_responses (
  conversation_id uuid primary key,
  account_id uuid not null references public.accounts (id) on delete cascade,
  token_hash bytea not null unique,
  score smallint check (score between 1 and 5),
  comment text check (length(comment) <= 2000),
  sent_at timestamptz,
  answered_at timestamptz,
  created_at timestamptz not null default now(),
  check ((score is null) = (answered_at is null)),
  foreign key (conversation_id, account_id) references public.conversations (id, account_id) on delete cascade
);
create index csat_responses_account_idx on public.csat_responses (account_id, answered_at desc);
alter table public.csat_responses enable row level security;
revoke all on public.csat_responses from public, anon, authenticated, service_role;
-- Staff read the answers, never the token's hash.
grant select (conversation_id, account_id, score, comment, sent_at, answered_at, created_at) on public.csat_responses to authenticated;
grant all on public.csat_responses to service_role;
create policy "staff read their account's CSAT answers" on public.csat_responses
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));

create table private.csat_link_hits (
  id bigint generated always as identity primary key,
  token_hash bytea not null,
  hit_at timestamptz not null default now()
);
create index csat_link_hits_token_hash_hit_at_idx on private.csat_link_hits (token_hash, hit_at desc);
alter table private.csat_link_hits enable row level security;
revoke all on private.csat_link_hits from public, anon, authenticated, service_role;

-- The job's token (service role): null when the conversation's link already went out or was answered.
create function public.issue_csat_link(p_conversation_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_token text := rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=');
  v_account uuid;
begin
  select c.account_id into v_account from public.conversations c where c.id = p_conversation_id;
  if v_account is null then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  insert into public.csat_responses (conversation_id, account_id, token_hash)
  values (p_conversation_id, v_account, extensions.digest(v_token, 'sha256'))
  on conflict (conversation_id) do update set token_hash = excluded.token_hash
    where public.csat_responses.sent_at is null and public.csat_responses.answered_at is null;
  if not found then
    return null;
  end if;
  return v_token;
end;
$$;

create function public.mark_csat_sent(p_conversation_id uuid) returns void
language sql
security definer
set search_path = ''
as $$
  update public.csat_responses set sent_at = coalesce(sent_at, now()) where conversation_id = p_conversation_id
$$;

-- The answer a token opens, locked, and whether it may be used now.
create function private.csat_by_token(p_token text, out response public.csat_responses, out limited boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hash bytea;
begin
  limited := false;
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    response := null;
    return;
  end if;
  v_hash := extensions.digest(p_token, 'sha256');
  select * into response from public.csat_responses r where r.token_hash = v_hash for update;
  if not found then
    response := null;
    return;
  end if;
  if (select count(*) from private.csat_link_hits h where h.token_hash = v_hash and h.hit_at > now() - interval '10 minutes') >= 30 then
    limited := true;
    return;
  end if;
  delete from private.csat_link_hits h where h.hit_at < now() - interval '10 minutes';
  insert into private.csat_link_hits (token_hash) values (v_hash);
end;
$$;
revoke all on function private.csat_by_token(text) from public, anon, authenticated, service_role;

create function private.csat_view(p_response public.csat_responses, p_state text) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('state', p_state, 'account_name', a.name, 'subject', c.subject, 'score', p_response.score)
    from public.conversations c join public.accounts a on a.id = c.account_id
   where c.id = p_response.conversation_id
$$;
revoke all on function private.csat_view(public.csat_responses, text) from public, anon, authenticated, service_role;

-- The page: open (not answered yet), answered, not_found or rate_limited.
create function public.open_csat_link(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.csat_by_token(p_token);
  if (v_found.response).conversation_id is null then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_found.limited then
    return jsonb_build_object('state', 'rate_limited');
  end if;
  return private.csat_view(v_found.response, case when (v_found.response).answered_at is null then 'open' else 'answered' end);
end;
$$;

-- The answer: kept once (answered_now), a second one changes nothing (state answered).
create function public.answer_csat(p_token text, p_score integer, p_comment text default null) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_response public.csat_responses;
  -- Control characters (not line breaks) are dropped.
  v_comment text := nullif(btrim(regexp_replace(coalesce(p_comment, ''), '[\x01-\x09\x0b\x0c\x0e-\x1f\x7f]+', '', 'g')), '');
begin
  select * into v_found from private.csat_by_token(p_token);
  v_response := v_found.response;
  if v_response.conversation_id is null then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_found.limited then
    return jsonb_build_object('state', 'rate_limited');
  end if;
  if v_response.answered_at is not null then
    return private.csat_view(v_response, 'answered');
  end if;
  if p_score is null or p_score not between 1 and 5 then
    raise exception 'Choose a score from 1 to 5' using errcode = '22023';
  end if;
  if length(v_comment) > 2000 then
    raise exception 'A comment can be at most 2,000 characters' using errcode = '22023';
  end if;
  update public.csat_responses r set score = p_score, comment = v_comment, answered_at = now()
   where r.conversation_id = v_response.conversation_id
  returning * into v_response;
  perform private.write_audit(v_response.account_id, 'csat_answered', 'conversation', v_response.conversation_id, null,
                              jsonb_build_object('score', p_score));
  return private.csat_view(v_response, 'answered') || jsonb_build_object('answered_now', true);
end;
$$;

revoke all on function public.issue_csat_link(uuid) from public, anon, authenticated;
revoke all on function public.mark_csat_sent(uuid) from public, anon, authenticated;
revoke all on function public.open_csat_link(text) from public;
revoke all on function public.answer_csat(text, integer, text) from public;
grant execute on function public.issue_csat_link(uuid) to service_role;
grant execute on function public.mark_csat_sent(uuid) to service_role;
grant execute on function public.open_csat_link(text) to anon, authenticated;
grant execute on function public.answer_csat(text, integer, text) to anon, authenticated;

-- Tags ------------------------------------------------------------------------------------

create function private.valid_conversation_tags(p_tags text[]) returns boolean
language sql immutable
set search_path = ''
as $$
  select cardinality(p_tags) <= 20
     and not exists (select 1 from unnest(p_tags) t where t is null or t !~ '^[a-z0-9][a-z0-9 _-]{0,39}$')
$$;

alter table public.conversations
  add column tags text[] not null default '{}' check (private.valid_conversation_tags(tags)),
  -- A duplicate merged into another conversation points to it (merge_conversation).
  add column merged_into_id uuid;
alter table public.conversations
  add constraint conversations_merged_into_fkey foreign key (merged_into_id, account_id)
    references public.conversations (id, account_id) on delete set null (merged_into_id);
create index conversations_tags_idx on public.conversations using gin (tags);
create index conversations_merged_into_idx on public.conversations (merged_into_id) where merged_into_id is not null;
grant update (tags) on public.conversations to authenticated;

-- Merge ----------------------------------------------------------------------------------------

-- A duplicate (p_source) merged into p_target, both of the caller's account
-- and of the same contact: its messages and attachments move, it is resolved
-- and points to the target; an audit row on each.
create function public.merge_conversation(p_source uuid, p_target uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_source public.conversations;
  v_target public.conversations;
  v_moved integer;
begin
  if v_account is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can merge conversations' using errcode = '42501';
  end if;
  if p_source = p_target then
    raise exception 'Choose another conversation to merge into' using errcode = '22023';
  end if;
  -- Both locked, in a fixed order, so two merges at once cannot deadlock or cross.
  perform 1 from public.conversations c where c.id in (p_source, p_target) and c.account_id = v_account order by c.id for update;
  select * into v_source from public.conversations c where c.id = p_source and c.account_id = v_account;
  select * into v_target from public.conversations c where c.id = p_target and c.account_id = v_account;
  if v_source.id is null or v_target.id is null then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  if v_source.merged_into_id is not null or v_target.merged_into_id is not null then
    raise exception 'That conversation was merged already' using errcode = '22023';
  end if;
  if v_source.contact_id <> v_target.contact_id then
    raise exception 'Only conversations of the same contact can be merged' using errcode = '22023';
  end if;
  update public.messages m set conversation_id = p_target where m.conversation_id = p_source and m.account_id = v_account;
  get diagnostics v_moved = row_count;
  update public.message_attachments a set conversation_id = p_target where a.conversation_id = p_source and a.account_id = v_account;
  update public.conversations c
     set merged_into_id = p_target, status = 'resolved'
   where c.id = p_source;
  update public.conversations c
     set last_message_at = greatest(c.last_message_at, v_source.last_message_at),
         tags = (select coalesce(array_agg(distinct t order by t), '{}') from unnest(c.tags || v_source.tags) t),
         unread = c.unread or v_source.unread
   where c.id = p_target;
  perform private.write_audit(v_account, 'conversation_merged', 'conversation', p_source, null,
                              jsonb_build_object('merged_into_id', p_target, 'messages_moved', v_moved));
  perform private.write_audit(v_account, 'conversation_merged_in', 'conversation', p_target, null,
                              jsonb_build_object('merged_from_id', p_source, 'messages_moved', v_moved));
end;
$$;
revoke all on function public.merge_conversation(uuid, uuid) from public, anon;
grant execute on function public.merge_conversation(uuid, uuid) to authenticated;

-- A resolved email conversation asks its contact once; a merged one is not asked.
create function private.queue_csat_request() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'resolved' and old.status <> 'resolved' and new.channel = 'email' and new.merged_into_id is null then
    perform private.enqueue_job('helpdesk.csat_request', new.account_id, jsonb_build_object('conversation_id', new.id),
                                'helpdesk.csat_request:' || new.id, new.id);
  end if;
  return null;
end;
$$;
revoke all on function private.queue_csat_request() from public, anon, authenticated, service_role;
create trigger conversations_csat_request after update of status on public.conversations
  for each row execute function private.queue_csat_request();

-- Presence ("a colleague is replying") ------------------------------------------------------

-- A short-lived row per person and conversation, refreshed while their reply box has focus.
create table public.conversation_presence (
  conversation_id uuid not null,
  user_id uuid not null,
  account_id uuid not null references public.accounts (id) on delete cascade,
  seen_at timestamptz not null default now(),
  primary key (conversation_id, user_id),
  foreign key (conversation_id, account_id) references public.conversations (id, account_id) on delete cascade,
  foreign key (user_id, account_id) references public.users (id, account_id) on delete cascade
);
alter table public.conversation_presence enable row level security;
revoke all on public.conversation_presence from public, anon, authenticated, service_role;
grant select on public.conversation_presence to authenticated;
grant all on public.conversation_presence to service_role;
create policy "staff read their account's presence" on public.conversation_presence
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));

create function public.mark_replying(p_conversation_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members reply' using errcode = '42501';
  end if;
  if not exists (select 1 from public.conversations c where c.id = p_conversation_id and c.account_id = v_account) then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  insert into public.conversation_presence (conversation_id, user_id, account_id, seen_at)
  values (p_conversation_id, public.current_user_id(), v_account, now())
  on conflict (conversation_id, user_id) do update set seen_at = now();
  -- Stale rows go as new ones come in: the table stays small.
  delete from public.conversation_presence p where p.account_id = v_account and p.seen_at < now() - interval '10 minutes';
end;
$$;
revoke all on function public.mark_replying(uuid) from public, anon;
grant execute on function public.mark_replying(uuid) to authenticated;

-- The SLA report -------------------------------------------------------------------------------

-- Conversations started in [p_from, p_to), per assignee and priority: how many,
-- first responses and resolutions due or done and how many met their deadline,
-- the average first response (wall-clock minutes) and CSAT. Security invoker:
-- row-level security decides (staff see their account's, anyone else nothing).
create function public.helpdesk_sla_report(p_from timestamptz, p_to timestamptz)
returns table (
  assignee_id uuid, assignee_name text, priority text, conversations bigint,
  first_response_total bigint, first_response_met bigint, resolution_total bigint, resolution_met bigint,
  avg_first_response_minutes numeric, csat_count bigint, csat_average numeric
)
language sql stable
security invoker
set search_path = ''
as $$
  select c.assignee_id,
         coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email),
         c.priority,
         count(*),
         count(*) filter (where c.first_responded_at is not null or c.first_response_due_at <= now()),
         count(*) filter (where c.first_responded_at <= c.first_response_due_at),
         count(*) filter (where c.resolved_at is not null or c.resolution_due_at <= now()),
         count(*) filter (where c.resolved_at <= c.resolution_due_at),
         round(avg(extract(epoch from c.first_responded_at - c.created_at) / 60)::numeric, 1),
         count(r.score),
         round(avg(r.score)::numeric, 2)
    from public.conversations c
    left join public.users u on u.id = c.assignee_id
    left join public.csat_responses r on r.conversation_id = c.id
   where c.account_id = public.current_account_id()
     and c.merged_into_id is null
     and c.created_at >= p_from and c.created_at < p_to
   group by c.assignee_id, u.first_name, u.last_name, u.email, c.priority
   order by 2 nulls first, array_position(array['urgent', 'high', 'normal', 'low'], c.priority)
$$;
revoke all on function public.helpdesk_sla_report(timestamptz, timestamptz) from public, anon;
grant execute on function public.helpdesk_sla_report(timestamptz, timestamptz) to authenticated;

-- The conversations a conversation may be merged into: the same contact's, not
-- merged themselves, newest first. Security invoker: row-level security decides.
create function public.merge_candidates(p_conversation_id uuid)
returns setof public.conversations
language sql stable
security invoker
set search_path = ''
as $$
  select o.* from public.conversations c
    join public.conversations o on o.contact_id = c.contact_id and o.account_id = c.account_id
   where c.id = p_conversation_id and o.id <> c.id and o.merged_into_id is null
   order by o.last_message_at desc, o.id desc
   limit 20
$$;
revoke all on function public.merge_candidates(uuid) from public, anon;
grant execute on function public.merge_candidates(uuid) to authenticated;

-- The inbox's rows as 20261203200002 defined them, without `set search_path`: a
-- security invoker SQL function with a SET clause is never inlined, so every
-- inbox page read the whole account before its filters and order (the bench of
-- decision 075: 150x slower at 20,000 conversations than at 10). Inlined, the
-- page's filters and order reach the indexes. Every name is schema-qualified.
create or replace function public.inbox_conversations(p_query text default null, p_mine boolean default false)
returns setof public.conversations
language sql stable
security invoker
as $$
  select v.* from public.conversations v
   where v.account_id = public.current_account_id()
     and (not coalesce(p_mine, false) or v.assignee_id = public.current_user_id())
     and (nullif(btrim(p_query), '') is null or v.id in (select s.id from public.search_conversations(btrim(p_query)) s))
$$;
