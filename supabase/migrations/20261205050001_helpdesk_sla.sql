-- Helpdesk SLAs in business hours (issue 35, decision 075).
--
-- An account's business hours (days, opening hours, timezone, holidays) and
-- its SLA targets per priority (first response, resolution, in business
-- minutes) are set by its admins (save_helpdesk_sla); staff read them. An
-- account that set nothing works to the defaults of private.helpdesk_policy.
--
-- Deadlines are stored on the conversation when it changes (a trigger), never
-- computed per page: first_response_due_at, resolution_due_at, and sla_due_at,
-- the next deadline still running (null when none is: resolved, or 'pending' =
-- waiting on the customer, when the resolution clock stops). Time spent
-- pending is added to the resolution target in business minutes.
--
-- The breach sweep (helpdesk_sla_sweep, the jobs runner's helpdesk.sla_sweep)
-- records each breach once per conversation and target (sla_breaches' key),
-- emits `sla_breached` and queues one mail job for it.

-- Settings ----------------------------------------------------------------------

create table public.helpdesk_business_hours (
  account_id uuid primary key references public.accounts (id) on delete cascade,
  timezone text not null default 'UTC' check (length(timezone) between 1 and 64),
  -- ISO weekdays: 1 = Monday … 7 = Sunday.
  days smallint[] not null default '{1,2,3,4,5}' check (cardinality(days) between 1 and 7 and days <@ '{1,2,3,4,5,6,7}'::smallint[]),
  opens_at time not null default '09:00',
  closes_at time not null default '17:00',
  holidays date[] not null default '{}' check (cardinality(holidays) <= 100),
  updated_at timestamptz not null default now(),
  check (closes_at > opens_at)
);

create table public.helpdesk_sla_targets (
  account_id uuid not null references public.accounts (id) on delete cascade,
  priority text not null check (priority in ('low', 'normal', 'high', 'urgent')),
  -- Business minutes, at most 60 business days of 24 hours.
  first_response_minutes integer not null check (first_response_minutes between 1 and 86400),
  resolution_minutes integer not null check (resolution_minutes between 1 and 86400),
  primary key (account_id, priority)
);

alter table public.helpdesk_business_hours enable row level security;
alter table public.helpdesk_sla_targets enable row level security;
revoke all on public.helpdesk_business_hours, public.helpdesk_sla_targets from public, anon, authenticated, service_role;
grant select on public.helpdesk_business_hours, public.helpdesk_sla_targets to authenticated;
grant all on public.helpdesk_business_hours, public.helpdesk_sla_targets to service_role;
create policy "staff read their account's business hours" on public.helpdesk_business_hours
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "staff read their account's SLA targets" on public.helpdesk_sla_targets
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));

-- The policy an account works to: its own settings, else the defaults
-- (Monday to Friday 09:00-17:00 UTC; targets by priority).
create function private.helpdesk_policy(p_account_id uuid, p_priority text,
  out timezone text, out days smallint[], out opens_at time, out closes_at time, out holidays date[],
  out first_response_minutes integer, out resolution_minutes integer)
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(h.timezone, 'UTC'), coalesce(h.days, '{1,2,3,4,5}'::smallint[]),
         coalesce(h.opens_at, '09:00'::time), coalesce(h.closes_at, '17:00'::time), coalesce(h.holidays, '{}'::date[]),
         coalesce(t.first_response_minutes, d.first_response), coalesce(t.resolution_minutes, d.resolution)
    from (values ('urgent', 60, 240), ('high', 240, 960), ('normal', 480, 2400), ('low', 960, 4800))
           as d (priority, first_response, resolution)
    left join public.helpdesk_business_hours h on h.account_id = p_account_id
    left join public.helpdesk_sla_targets t on t.account_id = p_account_id and t.priority = d.priority
   where d.priority = p_priority
$$;
revoke all on function private.helpdesk_policy(uuid, text) from public, anon, authenticated, service_role;

-- Business time ---------------------------------------------------------------------

-- p_start plus p_minutes of business time: counted only inside the opening
-- hours of business days that are not holidays, in p_timezone's wall clock
-- (each day's window is its local opening and closing time made absolute
-- for that day, so a daylight-saving change moves it correctly). Null when
-- no business day comes within 1,000 days.
create function public.business_time_add(
  p_start timestamptz, p_minutes integer, p_timezone text, p_days smallint[], p_opens time, p_closes time, p_holidays date[]
) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
declare
  v_day date := (p_start at time zone p_timezone)::date;
  v_left interval := make_interval(mins => greatest(p_minutes, 0));
  v_open timestamptz;
  v_close timestamptz;
  v_from timestamptz;
begin
  for i in 0..1000 loop
    if extract(isodow from v_day)::smallint = any (p_days) and not (v_day = any (coalesce(p_holidays, '{}'))) then
      v_open := (v_day + p_opens) at time zone p_timezone;
      v_close := (v_day + p_closes) at time zone p_timezone;
      v_from := greatest(v_open, p_start);
      if v_from < v_close then
        if v_from + v_left <= v_close then
          return v_from + v_left;
        end if;
        v_left := v_left - (v_close - v_from);
      end if;
    end if;
    v_day := v_day + 1;
  end loop;
  return null;
end;
$$;

-- The business minutes between two moments (0 when p_to is not after p_from).
create function public.business_minutes_between(
  p_from timestamptz, p_to timestamptz, p_timezone text, p_days smallint[], p_opens time, p_closes time, p_holidays date[]
) returns integer
language plpgsql stable
set search_path = ''
as $$
declare
  v_day date := (p_from at time zone p_timezone)::date;
  v_last date := (p_to at time zone p_timezone)::date;
  v_total interval := interval '0';
  v_open timestamptz;
  v_close timestamptz;
begin
  if p_to <= p_from then
    return 0;
  end if;
  while v_day <= v_last and v_day - (p_from at time zone p_timezone)::date <= 1000 loop
    if extract(isodow from v_day)::smallint = any (p_days) and not (v_day = any (coalesce(p_holidays, '{}'))) then
      v_open := greatest((v_day + p_opens) at time zone p_timezone, p_from);
      v_close := least((v_day + p_closes) at time zone p_timezone, p_to);
      if v_close > v_open then
        v_total := v_total + (v_close - v_open);
      end if;
    end if;
    v_day := v_day + 1;
  end loop;
  return floor(extract(epoch from v_total) / 60)::integer;
end;
$$;
revoke all on function public.business_time_add(timestamptz, integer, text, smallint[], time, time, date[]) from public, anon;
revoke all on function public.business_minutes_between(timestamptz, timestamptz, text, smallint[], time, time, date[]) from public, anon;
grant execute on function public.business_time_add(timestamptz, integer, text, smallint[], time, time, date[]) to authenticated, service_role;
grant execute on function public.business_minutes_between(timestamptz, timestamptz, text, smallint[], time, time, date[]) to authenticated, service_role;

-- Deadlines on the conversation ----------------------------------------------------

alter table public.conversations
  add column first_response_due_at timestamptz,
  add column resolution_due_at timestamptz,
  -- The next deadline still running (the inbox's timer and its Breached / Due soon filters).
  add column sla_due_at timestamptz,
  -- When the resolution clock (re)started: created, or reopened after being resolved.
  add column sla_started_at timestamptz,
  -- Business minutes spent waiting on the customer ('pending'), added to the resolution target.
  add column sla_paused_minutes integer not null default 0,
  add column sla_paused_at timestamptz;
create index conversations_account_sla_due_idx on public.conversations (account_id, sla_due_at) where sla_due_at is not null;
-- The breach sweep's reads: the running deadlines, across accounts.
create index conversations_first_response_due_idx on public.conversations (first_response_due_at)
  where status = 'open' and first_responded_at is null;
create index conversations_resolution_due_idx on public.conversations (resolution_due_at) where status = 'open';

create function private.conversation_sla() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_policy record;
begin
  -- Recomputed when what they depend on changes, or when the settings changed (save_helpdesk_sla's flag).
  if tg_op = 'INSERT' or new.priority is distinct from old.priority or new.status is distinct from old.status
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
  end if;
  new.sla_due_at := case
    when new.status <> 'open' then null
    when new.first_responded_at is null then least(new.first_response_due_at, new.resolution_due_at)
    else new.resolution_due_at
  end;
  return new;
end;
$$;
revoke all on function private.conversation_sla() from public, anon, authenticated, service_role;
create trigger conversations_sla before insert or update on public.conversations
  for each row execute function private.conversation_sla();

-- The deadlines are the trigger's, never a person's: they are not in the update grant,
-- and the audit trigger leaves them out of the record's history (the clock is not a change).
create or replace function private.audit_conversation() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
  v_quiet text[] := array['updated_at', 'unread', 'last_message_at', 'first_responded_at', 'resolved_at',
                          'first_response_due_at', 'resolution_due_at', 'sla_due_at', 'sla_started_at',
                          'sla_paused_minutes', 'sla_paused_at'];
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

-- The conversations there already: their deadlines from the defaults.
select set_config('opshub.sla_recompute', 'on', false);
update public.conversations set priority = priority;
select set_config('opshub.sla_recompute', '', false);

-- Saving the settings ---------------------------------------------------------------

-- An admin's business hours and targets, all at once. p_targets: a jsonb
-- object { priority: { first_response_minutes, resolution_minutes } } for
-- each of the four priorities. Open conversations take the new deadlines.
create function public.save_helpdesk_sla(
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
    insert into public.helpdesk_sla_targets (account_id, priority, first_response_minutes, resolution_minutes)
    values (v_account, v_priority, (p_targets -> v_priority ->> 'first_response_minutes')::integer,
            (p_targets -> v_priority ->> 'resolution_minutes')::integer)
    on conflict (account_id, priority) do update
      set first_response_minutes = excluded.first_response_minutes, resolution_minutes = excluded.resolution_minutes;
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
revoke all on function public.save_helpdesk_sla(text, smallint[], time, time, date[], jsonb) from public, anon;
grant execute on function public.save_helpdesk_sla(text, smallint[], time, time, date[], jsonb) to authenticated;

-- Breaches ------------------------------------------------------------------------------

create table public.sla_breaches (
  account_id uuid not null references public.accounts (id) on delete cascade,
  conversation_id uuid not null,
  target text not null check (target in ('first_response', 'resolution')),
  due_at timestamptz not null,
  breached_at timestamptz not null default now(),
  primary key (conversation_id, target),
  foreign key (conversation_id, account_id) references public.conversations (id, account_id) on delete cascade
);
create index sla_breaches_account_idx on public.sla_breaches (account_id, breached_at desc);
alter table public.sla_breaches enable row level security;
revoke all on public.sla_breaches from public, anon, authenticated, service_role;
grant select on public.sla_breaches to authenticated;
grant all on public.sla_breaches to service_role;
create policy "staff read their account's SLA breaches" on public.sla_breaches
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));

-- sla_breached joins the events' kinds, added to whatever the list holds when this
-- runs (read, not retyped, as 20261204100001_logistics.sql does: none is lost).
do $$
declare
  v_kinds text[];
begin
  -- The definition reads either ARRAY['a'::text, …] or '{a,b}'::text[]: both read.
  select array_agg(distinct k order by k) into v_kinds from (
    select (regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_.]+)''', 'g'))[1] as k
      from pg_constraint c where c.conname = 'events_kind_check' and c.conrelid = 'public.events'::regclass
    union
    select unnest(string_to_array((regexp_match(pg_get_constraintdef(c.oid), '''\{([a-z_.,]+)\}'''))[1], ','))
      from pg_constraint c where c.conname = 'events_kind_check' and c.conrelid = 'public.events'::regclass
    union select 'sla_breached') kinds
   where k is not null;
  execute 'alter table public.events drop constraint events_kind_check';
  execute format('alter table public.events add constraint events_kind_check check (kind = any (%L::text[]))', v_kinds);
end;
$$;

-- The sweep (service role, the jobs runner): each deadline passed, of a
-- conversation whose clock for it still runs, recorded once; an event and
-- one mail job (the assignee and the admins) per breach.
create function public.helpdesk_sla_sweep(p_now timestamptz default now())
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
    on conflict (conversation_id, target) do nothing
    returning account_id, conversation_id, target, due_at
  loop
    v_count := v_count + 1;
    perform private.emit_event(v_row.account_id, 'sla_breached', 'conversations', v_row.conversation_id,
                               jsonb_build_object('target', v_row.target, 'due_at', v_row.due_at));
    perform private.write_audit(v_row.account_id, 'sla_breached', 'conversation', v_row.conversation_id, null,
                                jsonb_build_object('target', v_row.target, 'due_at', v_row.due_at));
    perform private.enqueue_job('helpdesk.sla_breach_mail', v_row.account_id,
      jsonb_build_object('conversation_id', v_row.conversation_id, 'target', v_row.target, 'due_at', v_row.due_at),
      'helpdesk.sla_breach_mail:' || v_row.conversation_id || ':' || v_row.target, v_row.conversation_id);
  end loop;
  return v_count;
end;
$$;
revoke all on function public.helpdesk_sla_sweep(timestamptz) from public, anon, authenticated;

-- Conversations already overdue when SLAs began are recorded as breached, not announced:
-- nobody was working to these deadlines, and a first sweep would otherwise mail them all at once.
insert into public.sla_breaches (account_id, conversation_id, target, due_at, breached_at)
select c.account_id, c.id, 'first_response', c.first_response_due_at, now() from public.conversations c
 where c.status = 'open' and c.first_responded_at is null and c.first_response_due_at <= now()
union all
select c.account_id, c.id, 'resolution', c.resolution_due_at, now() from public.conversations c
 where c.status = 'open' and c.resolution_due_at <= now()
on conflict (conversation_id, target) do nothing;
grant execute on function public.helpdesk_sla_sweep(timestamptz) to service_role;

-- Who a breach's mail goes to: the conversation's assignee and the account's admins (service role).
create function public.sla_breach_recipients(p_conversation_id uuid)
returns table (email text, subject text)
language sql stable
security definer
set search_path = ''
as $$
  select distinct u.email, c.subject
    from public.conversations c
    join public.users u on u.account_id = c.account_id and (u.role = 'admin' or u.id = c.assignee_id)
   where c.id = p_conversation_id and u.email is not null
$$;
revoke all on function public.sla_breach_recipients(uuid) from public, anon, authenticated;
grant execute on function public.sla_breach_recipients(uuid) to service_role;
