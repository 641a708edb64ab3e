-- The 'next response' SLA target (issue 35, decision 083): after the first
-- reply, each later message of the customer that nobody has answered starts
-- a clock, counted in business hours like the others and stored on the
-- conversation (next_response_started_at, next_response_due_at); our next
-- reply (not a note) stops it. It joins sla_due_at (the inbox's timer and
-- filters), the breach sweep (once per deadline: a conversation can miss
-- several next responses) and Settings > Helpdesk (per priority, default the
-- first response's target).

alter table public.helpdesk_sla_targets
  add column next_response_minutes integer check (next_response_minutes between 1 and 86400);

-- An account's next-response target for a priority: its setting, else the first response's.
create function private.helpdesk_next_response_minutes(p_account_id uuid, p_priority text)
returns integer
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(t.next_response_minutes, p.first_response_minutes)
    from private.helpdesk_policy(p_account_id, p_priority) p
    left join public.helpdesk_sla_targets t on t.account_id = p_account_id and t.priority = p_priority
$$;
revoke all on function private.helpdesk_next_response_minutes(uuid, text) from public, anon, authenticated, service_role;

alter table public.conversations
  add column next_response_started_at timestamptz,
  add column next_response_due_at timestamptz;
create index conversations_next_response_due_idx on public.conversations (next_response_due_at) where status = 'open';

-- Breaches: first response and resolution once per conversation (as before); next response once per deadline.
alter table public.sla_breaches drop constraint sla_breaches_target_check;
alter table public.sla_breaches add constraint sla_breaches_target_check check (target in ('first_response', 'resolution', 'next_response'));
alter table public.sla_breaches drop constraint sla_breaches_pkey;
create unique index sla_breaches_once_idx on public.sla_breaches (conversation_id, target) where target <> 'next_response';
create unique index sla_breaches_each_wait_idx on public.sla_breaches (conversation_id, target, due_at) where target = 'next_response';

-- The clock starts at a customer's message after our first reply (the first
-- message is the first response's), and our reply stops it.
create function private.message_next_response() returns trigger
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
    update public.conversations c set next_response_started_at = null
     where c.id = new.conversation_id and c.account_id = new.account_id and c.next_response_started_at is not null;
  end if;
  return null;
end;
$$;
revoke all on function private.message_next_response() from public, anon, authenticated, service_role;
create trigger messages_next_response after insert on public.messages
  for each row execute function private.message_next_response();

create or replace function private.conversation_sla() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_policy record;
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
    if new.status = 'pending' and new.sla_paused_at is null then
      new.sla_paused_at := now();
    elsif new.status <> 'pending' and new.sla_paused_at is not null then
      new.sla_paused_minutes := new.sla_paused_minutes + public.business_minutes_between(
        new.sla_paused_at, now(), v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
      new.sla_paused_at := null;
    end if;
    new.first_response_due_at := public.business_time_add(new.created_at, v_policy.first_response_minutes,
      v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
    new.resolution_due_at := public.business_time_add(new.sla_started_at, v_policy.resolution_minutes + new.sla_paused_minutes,
      v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
    -- Next response (decision 083): from the customer's message that nobody has answered yet.
    new.next_response_due_at := case when new.next_response_started_at is null then null else
      public.business_time_add(new.next_response_started_at, private.helpdesk_next_response_minutes(new.account_id, new.priority),
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

create or replace function private.audit_conversation() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
  v_quiet text[] := array['updated_at', 'unread', 'last_message_at', 'first_responded_at', 'resolved_at',
                          'first_response_due_at', 'resolution_due_at', 'sla_due_at', 'sla_started_at',
                          'sla_paused_minutes', 'sla_paused_at', 'next_response_started_at', 'next_response_due_at'];
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

create or replace function public.save_helpdesk_sla(
  p_timezone text, p_days smallint[], p_opens time, p_closes time, p_holidays date[], p_targets jsonb
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_priority text;
begin
  if v_account is null or not public.is_account_admin() then
    raise exception 'Only the account''s admins can change its SLAs' using errcode = '42501';
  end if;
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = p_timezone) then
    raise exception 'Choose a timezone' using errcode = '22023';
  end if;
  if p_closes <= p_opens then
    raise exception 'Closing time must be after opening time' using errcode = '22023';
  end if;
  insert into public.helpdesk_business_hours (account_id, timezone, days, opens_at, closes_at, holidays, updated_at)
  values (v_account, p_timezone, p_days, p_opens, p_closes, coalesce(p_holidays, '{}'), now())
  on conflict (account_id) do update
    set timezone = excluded.timezone, days = excluded.days, opens_at = excluded.opens_at,
        closes_at = excluded.closes_at, holidays = excluded.holidays, updated_at = now();
  foreach v_priority in array array['low', 'normal', 'high', 'urgent'] loop
    insert into public.helpdesk_sla_targets (account_id, priority, first_response_minutes, resolution_minutes, next_response_minutes)
    values (v_account, v_priority, (p_targets -> v_priority ->> 'first_response_minutes')::integer,
            (p_targets -> v_priority ->> 'resolution_minutes')::integer,
            (p_targets -> v_priority ->> 'next_response_minutes')::integer)
    on conflict (account_id, priority) do update
      set first_response_minutes = excluded.first_response_minutes, resolution_minutes = excluded.resolution_minutes,
          next_response_minutes = excluded.next_response_minutes;
  end loop;
  perform private.write_audit(v_account, 'helpdesk_sla_updated', 'account', v_account, null,
    jsonb_build_object('timezone', p_timezone, 'days', p_days, 'opens_at', p_opens, 'closes_at', p_closes,
                       'holidays', p_holidays, 'targets', p_targets));
  -- Open work takes the new deadlines (the trigger recomputes on a priority "change" to itself).
  perform set_config('opshub.sla_recompute', 'on', true);
  update public.conversations c set priority = c.priority where c.account_id = v_account and c.status <> 'resolved';
  perform set_config('opshub.sla_recompute', '', true);
end;
$$;

create or replace function public.helpdesk_sla_sweep(p_now timestamptz default now())
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row record;
  v_count integer := 0;
begin
  for v_row in
    -- At most 500 of each a run (the job must end well within the Worker's limits): the next minute takes the rest.
    with once as (
      insert into public.sla_breaches (account_id, conversation_id, target, due_at, breached_at)
      (select c.account_id, c.id, 'first_response', c.first_response_due_at, p_now from public.conversations c
        where c.status = 'open' and c.first_responded_at is null and c.first_response_due_at <= p_now
          and not exists (select 1 from public.sla_breaches b where b.conversation_id = c.id and b.target = 'first_response')
        order by c.first_response_due_at limit 500)
      union all
      (select c.account_id, c.id, 'resolution', c.resolution_due_at, p_now from public.conversations c
        where c.status = 'open' and c.resolution_due_at <= p_now
          and not exists (select 1 from public.sla_breaches b where b.conversation_id = c.id and b.target = 'resolution')
        order by c.resolution_due_at limit 500)
      on conflict (conversation_id, target) where target <> 'next_response' do nothing
      returning account_id, conversation_id, target, due_at
    ), each_wait as (
      -- A next response is due again after each unanswered customer message: once per deadline.
      insert into public.sla_breaches (account_id, conversation_id, target, due_at, breached_at)
      select c.account_id, c.id, 'next_response', c.next_response_due_at, p_now from public.conversations c
       where c.status = 'open' and c.next_response_due_at <= p_now
         and not exists (select 1 from public.sla_breaches b where b.conversation_id = c.id and b.target = 'next_response'
                                                              and b.due_at = c.next_response_due_at)
       order by c.next_response_due_at limit 500
      on conflict (conversation_id, target, due_at) where target = 'next_response' do nothing
      returning account_id, conversation_id, target, due_at
    )
    select * from once union all select * from each_wait
  loop
    v_count := v_count + 1;
    perform private.emit_event(v_row.account_id, 'sla_breached', 'conversations', v_row.conversation_id,
                               jsonb_build_object('target', v_row.target, 'due_at', v_row.due_at));
    perform private.write_audit(v_row.account_id, 'sla_breached', 'conversation', v_row.conversation_id, null,
                                jsonb_build_object('target', v_row.target, 'due_at', v_row.due_at));
    perform private.enqueue_job('helpdesk.sla_breach_mail', v_row.account_id,
      jsonb_build_object('conversation_id', v_row.conversation_id, 'target', v_row.target, 'due_at', v_row.due_at),
      'helpdesk.sla_breach_mail:' || v_row.conversation_id || ':' || v_row.target
        || case when v_row.target = 'next_response' then ':' || extract(epoch from v_row.due_at)::bigint else '' end,
      v_row.conversation_id);
  end loop;
  return v_count;
end;
$$;

