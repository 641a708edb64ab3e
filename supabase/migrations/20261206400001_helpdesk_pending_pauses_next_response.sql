-- 'Pending' (waiting on the customer) pauses the next-response clock too
-- (issue 35, decision 089). Until now only the first-response and resolution
-- clocks paused; a next response that was running when a person set the
-- conversation to pending kept running and was due (and breached) as soon as
-- the conversation reopened.
--
-- The pause is counted as the resolution's is: business minutes of the
-- account's hours between the pause and the reopening, stored on the
-- conversation when it changes (next_response_paused_minutes) and added to
-- the next-response target. A new wait (a new customer message after a reply)
-- starts with nothing paused. A wait that began during the pause (the
-- customer's message arriving while pending) counts its pause from its own
-- start only.

alter table public.conversations
  add column next_response_paused_minutes integer not null default 0;

create or replace function private.conversation_sla() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_policy record;
  v_paused integer;
begin
  -- Recomputed when what they depend on changes, or when the settings changed (save_helpdesk_sla's flag).
  if tg_op = 'INSERT' or new.priority is distinct from old.priority or new.status is distinct from old.status
     or new.next_response_started_at is distinct from old.next_response_started_at
     or current_setting('opshub.sla_recompute', true) = 'on' then
    select * into v_policy from private.helpdesk_policy(new.account_id, new.priority);
    if tg_op = 'INSERT' then
      new.sla_started_at := coalesce(new.sla_started_at, new.created_at);
    elsif old.status = 'resolved' and new.status <> 'resolved' then
      -- Reopened: the resolution clock starts again.
      new.sla_started_at := now();
      new.sla_paused_minutes := 0;
      new.sla_paused_at := null;
    end if;
    -- A new wait for our next response (or none) starts with nothing paused.
    if tg_op = 'INSERT' or new.next_response_started_at is distinct from old.next_response_started_at then
      new.next_response_paused_minutes := 0;
    end if;
    if new.status = 'pending' and new.sla_paused_at is null then
      new.sla_paused_at := now();
    elsif new.status <> 'pending' and new.sla_paused_at is not null then
      v_paused := public.business_minutes_between(
        new.sla_paused_at, now(), v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
      new.sla_paused_minutes := new.sla_paused_minutes + v_paused;
      if new.next_response_started_at is not null then
        new.next_response_paused_minutes := new.next_response_paused_minutes + case
          when new.next_response_started_at <= new.sla_paused_at then v_paused
          else public.business_minutes_between(new.next_response_started_at, now(), v_policy.timezone, v_policy.days,
                                               v_policy.opens_at, v_policy.closes_at, v_policy.holidays)
        end;
      end if;
      new.sla_paused_at := null;
    end if;
    new.first_response_due_at := public.business_time_add(new.created_at, v_policy.first_response_minutes,
      v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
    new.resolution_due_at := public.business_time_add(new.sla_started_at, v_policy.resolution_minutes + new.sla_paused_minutes,
      v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
    -- Next response (decision 083): from the customer's message that nobody has answered yet, plus its pauses.
    new.next_response_due_at := case when new.next_response_started_at is null then null else
      public.business_time_add(new.next_response_started_at,
        private.helpdesk_next_response_minutes(new.account_id, new.priority) + new.next_response_paused_minutes,
        v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays) end;
  end if;
  new.sla_due_at := case
    when new.status <> 'open' then null
    when new.first_responded_at is null then least(new.first_response_due_at, new.resolution_due_at)
    else least(new.resolution_due_at, new.next_response_due_at)
  end;
  return new;
end;
$$;

-- The new counter is the clock's, not a person's change: quiet in the audit diff.
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
                          'next_response_paused_minutes'];
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
