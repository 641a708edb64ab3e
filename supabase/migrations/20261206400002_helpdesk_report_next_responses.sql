-- The SLA report counts next responses (issue 35, decision 089): "SLAs met in
-- % per agent and priority" counted first responses and resolutions only.
--
-- A conversation can wait for several next responses, and the current wait
-- is all the conversation stores; so each wait is counted on the
-- conversation when our reply ends it: next_responses_met (answered by its
-- deadline) or next_responses_missed (after it). A wait ended while the
-- conversation is pending is judged at the moment its clock stopped (the
-- pause's start, or its own start if it began during the pause). The report
-- counts, per assignee and priority: waits ended, plus the open
-- conversations' running waits past their deadline (breached, not answered
-- yet), as the first response counts due-or-done; met is those answered in
-- time. Counters are the clock's: not in the update grant, quiet in the
-- audit diff.

alter table public.conversations
  add column next_responses_met integer not null default 0,
  add column next_responses_missed integer not null default 0;

create or replace function private.message_next_response() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.direction = 'inbound' then
    update public.conversations c set next_response_started_at = new.created_at
     where c.id = new.conversation_id and c.account_id = new.account_id
       and c.first_responded_at is not null and c.next_response_started_at is null;
  elsif new.direction = 'outbound' then
    -- SET reads the row as it was: the wait's deadline before the trigger clears it.
    update public.conversations c
       set next_responses_met = c.next_responses_met + v.met::integer,
           next_responses_missed = c.next_responses_missed + (not v.met)::integer,
           next_response_started_at = null
      from (select x.id,
                   coalesce(case when x.status = 'pending' and x.sla_paused_at is not null
                                 then greatest(x.sla_paused_at, x.next_response_started_at)
                                 else new.created_at end <= x.next_response_due_at, true) as met
              from public.conversations x where x.id = new.conversation_id) v
     where c.id = v.id and c.account_id = new.account_id and c.next_response_started_at is not null;
  end if;
  return null;
end;
$$;

drop function public.helpdesk_sla_report(timestamptz, timestamptz);
-- Conversations started in [p_from, p_to), per assignee and priority: how many,
-- first responses, next responses and resolutions due or done and how many
-- met their deadline, the average first response (wall-clock minutes) and
-- CSAT. Security invoker: row-level security decides (staff see their
-- account's, anyone else nothing).
create function public.helpdesk_sla_report(p_from timestamptz, p_to timestamptz)
returns table (
  assignee_id uuid, assignee_name text, priority text, conversations bigint,
  first_response_total bigint, first_response_met bigint, next_response_total bigint, next_response_met bigint,
  resolution_total bigint, resolution_met bigint,
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
         coalesce(sum(c.next_responses_met + c.next_responses_missed), 0)
           + count(*) filter (where c.status = 'open' and c.next_response_due_at <= now()),
         coalesce(sum(c.next_responses_met), 0),
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

-- The counters are quiet in the record's history.
create or replace function private.audit_conversation() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
  v_quiet text[] := array['updated_at', 'unread', 'last_message_at', 'first_responded_at', 'resolved_at',
                          'first_response_due_at', 'resolution_due_at', 'sla_due_at', 'sla_started_at',
                          'sla_paused_minutes', 'sla_paused_at', 'next_response_started_at', 'next_response_due_at',
                          'next_response_paused_minutes', 'next_responses_met', 'next_responses_missed'];
  v_old jsonb;
  v_new jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'conversation_created', 'conversation', new.id, null,
                                jsonb_build_object('subject', new.subject, 'channel', new.channel, 'contact_id', new.contact_id));
    return null;
  end if;
  select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
  v_new := v_changes.new_values - v_quiet;
  v_old := v_changes.old_values - v_quiet;
  if v_new <> '{}'::jsonb then
    perform private.write_audit(new.account_id,
                                case when new.status is distinct from old.status then 'conversation_' || new.status
                                     else 'conversation_updated' end,
                                'conversation', new.id, v_old, v_new);
  end if;
  if new.status = 'resolved' and old.status <> 'resolved' then
    perform private.emit_event(new.account_id, 'conversation_resolved', 'conversations', new.id,
                               jsonb_build_object('subject', new.subject, 'contact_id', new.contact_id));
  end if;
  return null;
end;
$$;
