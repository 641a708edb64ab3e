-- Automations (decision 067): the account's workflows over the events outbox.
-- automations: a trigger (an event kind, or scheduled_time), conditions on the
-- event's payload, and one action with its settings (checked here, so a row
-- written through the API cannot hold an action the engine cannot perform).
-- automation_runs: one row per (automation, event) or (automation, scheduled
-- time), held by unique constraints: a replayed event or a second runner
-- running the same batch inserts nothing, so each run happens exactly once.
-- Where the action is a database write (update_status, assign_task) it is made
-- in the same transaction as the run record; send_email queues one mail job
-- whose idempotency key is the run's id.
-- tasks: work assigned to a user (the assign_task action, or by hand).
--
-- Staff read all three; admins and members write automations and tasks;
-- auditors read; clients, suppliers and other accounts see nothing. Runs are
-- written only by run_automations (the jobs runner, service role).

-- Settings and conditions -----------------------------------------------------

-- The action's settings, by kind: every key the engine reads, of the right type.
create function private.automation_settings_valid(p_kind text, p_settings jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select jsonb_typeof(p_settings) = 'object' and length(p_settings::text) <= 4000 and case p_kind
    when 'send_email' then
      jsonb_typeof(p_settings -> 'template_id') = 'string'
      and (p_settings ->> 'template_id') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      and jsonb_typeof(p_settings -> 'recipient') = 'string'
      -- The event's own contact, or a fixed address (no control characters: it reaches a mail header).
      and ((p_settings ->> 'recipient') = 'event_contact'
           or ((p_settings ->> 'recipient') ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
               and (p_settings ->> 'recipient') !~ '[[:cntrl:]]' and length(p_settings ->> 'recipient') <= 320))
    when 'update_status' then
      jsonb_typeof(p_settings -> 'status') = 'string' and (p_settings ->> 'status') ~ '^[a-z_]{1,40}$'
    when 'assign_task' then
      jsonb_typeof(p_settings -> 'assignee_id') = 'string'
      and (p_settings ->> 'assignee_id') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      and jsonb_typeof(p_settings -> 'title') = 'string' and length(btrim(p_settings ->> 'title')) between 1 and 200
    when 'create_invoice' then true
    when 'generate_report' then
      jsonb_typeof(p_settings -> 'report_type') = 'string' and (p_settings ->> 'report_type') in ('sales', 'invoices', 'leads')
    else false
  end
$$;

-- Conditions: up to 20 rows of { field, operator, value }.
create function private.automation_conditions_valid(p_conditions jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select jsonb_typeof(p_conditions) = 'array' and jsonb_array_length(p_conditions) <= 20
    and not exists (
      select 1 from jsonb_array_elements(p_conditions) c
       where jsonb_typeof(c) <> 'object'
          or jsonb_typeof(c -> 'field') <> 'string' or (c ->> 'field') !~ '^[a-z][a-z0-9_]{0,49}$'
          or jsonb_typeof(c -> 'operator') <> 'string'
          or (c ->> 'operator') not in ('equals', 'not_equals', 'contains', 'greater_than', 'less_than', 'is_empty', 'is_not_empty')
          or (c ? 'value' and jsonb_typeof(c -> 'value') <> 'string')
          or length(coalesce(c ->> 'value', '')) > 200)
$$;

-- Does the payload meet every condition? Missing fields compare as empty;
-- greater/less compare as numbers when both sides are numbers, else as text.
create function private.automation_conditions_met(p_conditions jsonb, p_payload jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select coalesce(bool_and(case c ->> 'operator'
    when 'equals' then lower(coalesce(p_payload ->> (c ->> 'field'), '')) = lower(coalesce(c ->> 'value', ''))
    when 'not_equals' then lower(coalesce(p_payload ->> (c ->> 'field'), '')) <> lower(coalesce(c ->> 'value', ''))
    when 'contains' then strpos(lower(coalesce(p_payload ->> (c ->> 'field'), '')), lower(coalesce(c ->> 'value', ''))) > 0
    when 'is_empty' then coalesce(p_payload ->> (c ->> 'field'), '') = ''
    when 'is_not_empty' then coalesce(p_payload ->> (c ->> 'field'), '') <> ''
    when 'greater_than' then case
      when (p_payload ->> (c ->> 'field')) ~ '^-?\d+(\.\d+)?$' and (c ->> 'value') ~ '^-?\d+(\.\d+)?$'
        then (p_payload ->> (c ->> 'field'))::numeric > (c ->> 'value')::numeric
      else coalesce(p_payload ->> (c ->> 'field'), '') > coalesce(c ->> 'value', '') end
    when 'less_than' then case
      when (p_payload ->> (c ->> 'field')) ~ '^-?\d+(\.\d+)?$' and (c ->> 'value') ~ '^-?\d+(\.\d+)?$'
        then (p_payload ->> (c ->> 'field'))::numeric < (c ->> 'value')::numeric
      else coalesce(p_payload ->> (c ->> 'field'), '') < coalesce(c ->> 'value', '') end
    else false end), true)
  from jsonb_array_elements(case when jsonb_typeof(p_conditions) = 'array' then p_conditions else '[]'::jsonb end) c
$$;

-- Tables ------------------------------------------------------------------------

create table public.automations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  description text check (length(description) <= 2000),
  trigger_kind text not null check (trigger_kind in (
    'lead_created', 'client_registered', 'quote_sent', 'quote_viewed', 'quote_accepted', 'quote_declined',
    'quote_expired', 'invoice_created', 'invoice_overdue', 'invoice_paid', 'message_received',
    'shipment_delivered', 'document_extracted', 'review_due', 'sla_breached', 'scheduled_time')),
  -- scheduled_time only: how often, and the cron expression of 'custom' (checked by the app with croner).
  frequency text check (frequency in ('hourly', 'daily', 'weekly', 'monthly', 'custom')),
  cron text check (length(cron) <= 100 and cron !~ '[[:cntrl:]]'),
  status text not null default 'draft' check (status in ('draft', 'active', 'paused')),
  action_kind text not null check (action_kind in ('send_email', 'create_invoice', 'update_status', 'assign_task', 'generate_report')),
  action_settings jsonb not null default '{}',
  conditions jsonb not null default '[]',
  -- Events from this moment on are the automation's: activating it does not replay the past.
  active_since timestamptz,
  last_error text check (length(last_error) <= 2000),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (private.automation_settings_valid(action_kind, action_settings)),
  check (private.automation_conditions_valid(conditions)),
  check ((trigger_kind = 'scheduled_time') = (frequency is not null)),
  check (cron is null or frequency = 'custom'),
  check (frequency is distinct from 'custom' or cron is not null),
  unique (id, account_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index automations_account_id_created_at_idx on public.automations (account_id, created_at desc, id desc);
create index automations_account_id_status_created_at_idx on public.automations (account_id, status, created_at desc, id desc);
create index automations_active_trigger_idx on public.automations (account_id, trigger_kind) where status = 'active';
create index automations_created_by_idx on public.automations (created_by);

create table public.automation_runs (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  automation_id uuid not null,
  -- The event it ran for, or the scheduled time it ran at.
  event_id uuid references public.events (id) on delete set null,
  scheduled_for timestamptz,
  status text not null default 'running' check (status in ('running', 'succeeded', 'skipped', 'failed', 'queued')),
  error text check (length(error) <= 2000),
  -- What the run wrote: the task, the status changed, the mail job.
  output jsonb not null default '{}' check (jsonb_typeof(output) = 'object'),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (event_id is not null or scheduled_for is not null or status <> 'running'),
  -- Exactly once per (automation, event) and per (automation, scheduled time).
  unique (automation_id, event_id),
  unique (automation_id, scheduled_for),
  foreign key (automation_id, account_id) references public.automations (id, account_id) on delete cascade
);
create index automation_runs_automation_idx on public.automation_runs (automation_id, started_at desc, id desc);
create index automation_runs_account_id_created_at_idx on public.automation_runs (account_id, created_at desc, id desc);
create index automation_runs_event_idx on public.automation_runs (event_id);

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 200),
  assignee_id uuid,
  done boolean not null default false,
  resource_type text check (length(resource_type) <= 50),
  resource_id uuid,
  automation_run_id uuid references public.automation_runs (id) on delete set null,
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id),
  -- One task per run: a retried run never assigns twice.
  unique (automation_run_id),
  foreign key (assignee_id, account_id) references public.users (id, account_id) on delete set null (assignee_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index tasks_account_id_created_at_idx on public.tasks (account_id, created_at desc, id desc);
create index tasks_assignee_idx on public.tasks (assignee_id, done, created_at desc);
create index tasks_created_by_idx on public.tasks (created_by);

create trigger automations_set_updated_at before update on public.automations
  for each row execute function private.set_updated_at();
create trigger automation_runs_set_updated_at before update on public.automation_runs
  for each row execute function private.set_updated_at();
create trigger tasks_set_updated_at before update on public.tasks
  for each row execute function private.set_updated_at();

-- Activating stamps active_since; an assignee or template of another account is refused.
create function private.automation_before_write() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'active' and (tg_op = 'INSERT' or old.status is distinct from 'active') then
    new.active_since := now();
  end if;
  if new.action_kind = 'assign_task' and not exists (
      select 1 from public.users u where u.id = (new.action_settings ->> 'assignee_id')::uuid and u.account_id = new.account_id
        and u.role in ('admin', 'member')) then
    raise exception 'Choose someone of the account to assign the task to' using errcode = '22023', hint = 'assignee_id';
  end if;
  if new.action_kind = 'send_email' and not exists (
      select 1 from public.templates t where t.id = (new.action_settings ->> 'template_id')::uuid and t.account_id = new.account_id
        and t.type = 'email') then
    raise exception 'Choose one of the account''s e-mail templates' using errcode = '22023', hint = 'template_id';
  end if;
  -- An update_status automation on the event it emits itself would loop: there is none today (lead_created is
  -- emitted on insert only), so no status change fires its own trigger.
  return new;
end;
$$;
revoke all on function private.automation_before_write() from public;
create trigger automations_before_write before insert or update on public.automations
  for each row execute function private.automation_before_write();

-- Row-level security ----------------------------------------------------------

alter table public.automations enable row level security;
alter table public.automation_runs enable row level security;
alter table public.tasks enable row level security;
revoke all on public.automations, public.automation_runs, public.tasks from anon;
revoke insert, update, delete, truncate on public.automations, public.automation_runs, public.tasks from authenticated;
grant insert (account_id, name, description, trigger_kind, frequency, cron, status, action_kind, action_settings, conditions)
  on public.automations to authenticated;
grant update (name, description, trigger_kind, frequency, cron, status, action_kind, action_settings, conditions)
  on public.automations to authenticated;
grant delete on public.automations to authenticated;
grant insert (account_id, title, assignee_id, resource_type, resource_id) on public.tasks to authenticated;
grant update (title, assignee_id, done) on public.tasks to authenticated;
grant delete on public.tasks to authenticated;

create policy "staff read their account's automations" on public.automations
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add automations" on public.automations
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update automations" on public.automations
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete automations" on public.automations
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

create policy "staff read their account's automation runs" on public.automation_runs
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));

create policy "staff read their account's tasks" on public.tasks
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add tasks" on public.tasks
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update tasks" on public.tasks
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete tasks" on public.tasks
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- Audit rows ------------------------------------------------------------------

create function private.audit_automation() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
  v_kind text := case tg_table_name when 'automations' then 'automation' else 'task' end;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_kind || '_created', v_kind, new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    perform private.write_audit(old.account_id, v_kind || '_deleted', v_kind, old.id, to_jsonb(old), null);
  else
    select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
    if v_changes.new_values - 'updated_at' - 'active_since' - 'last_error' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_kind || '_updated', v_kind, new.id, v_changes.old_values, v_changes.new_values);
    end if;
  end if;
  return null;
end;
$$;
revoke all on function private.audit_automation() from public;
create trigger automations_audit after insert or update or delete on public.automations
  for each row execute function private.audit_automation();
create trigger tasks_audit after insert or update or delete on public.tasks
  for each row execute function private.audit_automation();

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('automation', 'public.automations', $$r.name$$, 'name', true),
  ('task', 'public.tasks', $$r.title$$, 'title', true);

-- The engine ------------------------------------------------------------------

-- {{name}} placeholders of a template, each replaced by the payload's value;
-- a placeholder the payload lacks (or holds empty) raises naming it, so no mail
-- goes out with an empty string in its place.
create function private.automation_render(p_text text, p_payload jsonb) returns text
language plpgsql immutable
set search_path = ''
as $$
declare
  v_out text := coalesce(p_text, '');
  v_name text;
  v_value text;
begin
  for v_name in select distinct m[1] from regexp_matches(coalesce(p_text, ''), '\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}', 'g') m loop
    v_value := p_payload ->> v_name;
    if v_value is null or btrim(v_value) = '' then
      raise exception 'Missing variable: %', v_name using errcode = '22023';
    end if;
    v_out := regexp_replace(v_out, '\{\{\s*' || v_name || '\s*\}\}', replace(v_value, '\', '\\'), 'g');
  end loop;
  return v_out;
end;
$$;

-- Performs one run's action inside the caller's transaction. Raises on failure.
create function private.automation_perform(p_automation public.automations, p_run_id uuid, p_event public.events)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_settings jsonb := p_automation.action_settings;
  v_payload jsonb := coalesce(p_event.payload, '{}'::jsonb);
  v_task_id uuid;
  v_template public.templates;
  v_to text;
  v_job uuid;
  v_rows integer;
begin
  case p_automation.action_kind
  when 'assign_task' then
    insert into public.tasks (account_id, title, assignee_id, resource_type, resource_id, automation_run_id, created_by)
    values (p_automation.account_id, left(private.automation_render(v_settings ->> 'title', v_payload), 200),
            (v_settings ->> 'assignee_id')::uuid, p_event.resource_type, p_event.resource_id, p_run_id, null)
    returning id into v_task_id;
    return jsonb_build_object('task_id', v_task_id);
  when 'update_status' then
    if p_event.resource_type = 'leads' then
      if (v_settings ->> 'status') not in ('new', 'qualified', 'contacted', 'lost') then
        raise exception 'A lead cannot have the status %', v_settings ->> 'status' using errcode = '22023';
      end if;
      update public.leads set status = v_settings ->> 'status'
       where id = p_event.resource_id and account_id = p_automation.account_id;
      get diagnostics v_rows = row_count;
      if v_rows = 0 then
        raise exception 'The lead no longer exists' using errcode = 'P0002';
      end if;
      return jsonb_build_object('resource_type', 'leads', 'resource_id', p_event.resource_id, 'status', v_settings ->> 'status');
    end if;
    raise exception 'Update status does not apply to %', coalesce(p_event.resource_type, 'a scheduled run') using errcode = '22023';
  when 'send_email' then
    select * into v_template from public.templates t
     where t.id = (v_settings ->> 'template_id')::uuid and t.account_id = p_automation.account_id;
    if not found then
      raise exception 'The template no longer exists' using errcode = 'P0002';
    end if;
    v_to := case when v_settings ->> 'recipient' = 'event_contact' then v_payload ->> 'email' else v_settings ->> 'recipient' end;
    if v_to is null or v_to !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or v_to ~ '[[:cntrl:]]' or length(v_to) > 320 then
      raise exception 'The event has no contact address to mail' using errcode = '22023';
    end if;
    v_job := private.enqueue_job('mail.send', p_automation.account_id,
      jsonb_build_object('to', v_to,
                         'subject', regexp_replace(private.automation_render(coalesce(v_template.subject, v_template.name), v_payload), '[[:cntrl:]]', ' ', 'g'),
                         'text', private.automation_render(v_template.content, v_payload)),
      'automation:' || p_run_id::text, p_automation.id);
    return jsonb_build_object('mail_job_id', v_job, 'to', v_to);
  else
    raise exception '% is not performed by this engine yet', p_automation.action_kind using errcode = '0A000';
  end case;
end;
$$;
revoke all on function private.automation_perform(public.automations, uuid, public.events) from public;

-- The jobs runner's step: every event since an active automation's activation
-- that matches its trigger and has no run yet gets exactly one. The run row is
-- inserted first (on conflict do nothing: a second runner, or a replay, finds
-- it and does nothing), then the action is performed in a subtransaction: a
-- failure rolls back what the action wrote and records the run as failed with
-- its error, in the same transaction as the run. Answers the runs made.
create function public.run_automations(p_limit integer default 100)
returns setof public.automation_runs
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_pair record;
  v_run public.automation_runs;
  v_output jsonb;
begin
  for v_pair in
    select a.id as automation_id, e.id as event_id
      from public.automations a
      join public.events e on e.account_id = a.account_id and e.kind = a.trigger_kind and e.created_at >= a.active_since
     where a.status = 'active' and a.trigger_kind <> 'scheduled_time'
       and not exists (select 1 from public.automation_runs r where r.automation_id = a.id and r.event_id = e.id)
     order by e.created_at, e.id
     limit greatest(1, least(coalesce(p_limit, 100), 1000))
  loop
    declare
      v_automation public.automations;
      v_event public.events;
    begin
      select * into v_automation from public.automations where id = v_pair.automation_id;
      select * into v_event from public.events where id = v_pair.event_id;
      -- Waits for a concurrent runner inserting the same pair, then does nothing.
      insert into public.automation_runs (account_id, automation_id, event_id)
      values (v_automation.account_id, v_automation.id, v_event.id)
      on conflict (automation_id, event_id) do nothing
      returning * into v_run;
      continue when v_run.id is null;
      if not private.automation_conditions_met(v_automation.conditions, v_event.payload) then
        update public.automation_runs set status = 'skipped', finished_at = now(), error = null
         where id = v_run.id returning * into v_run;
      else
        begin
          v_output := private.automation_perform(v_automation, v_run.id, v_event);
          update public.automation_runs set status = 'succeeded', finished_at = now(), output = v_output
           where id = v_run.id returning * into v_run;
        exception when others then
          update public.automation_runs set status = 'failed', finished_at = now(), error = left(sqlerrm, 2000)
           where id = v_run.id returning * into v_run;
          update public.automations set last_error = left(sqlerrm, 2000) where id = v_automation.id;
        end;
      end if;
      return next v_run;
    end;
  end loop;
end;
$$;
revoke all on function public.run_automations(integer) from public, anon, authenticated;
grant execute on function public.run_automations(integer) to service_role;

-- A scheduled automation's run at one scheduled time (computed by the runner
-- with croner in the account's timezone): once per (automation, time).
create function public.run_scheduled_automation(p_automation_id uuid, p_scheduled_for timestamptz)
returns public.automation_runs
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_automation public.automations;
  v_run public.automation_runs;
  v_output jsonb;
  -- The event a scheduled run stands on: its time, nothing else.
  v_event public.events;
begin
  select * into v_automation from public.automations
   where id = p_automation_id and status = 'active' and trigger_kind = 'scheduled_time';
  if not found then
    return null;
  end if;
  insert into public.automation_runs (account_id, automation_id, scheduled_for)
  values (v_automation.account_id, v_automation.id, p_scheduled_for)
  on conflict (automation_id, scheduled_for) do nothing
  returning * into v_run;
  if v_run.id is null then
    return null;
  end if;
  begin
    v_event.account_id := v_automation.account_id;
    v_event.kind := 'scheduled_time';
    v_event.payload := jsonb_build_object('scheduled_for', p_scheduled_for);
    v_output := private.automation_perform(v_automation, v_run.id, v_event);
    update public.automation_runs set status = 'succeeded', finished_at = now(), output = v_output
     where id = v_run.id returning * into v_run;
  exception when others then
    update public.automation_runs set status = 'failed', finished_at = now(), error = left(sqlerrm, 2000)
     where id = v_run.id returning * into v_run;
    update public.automations set last_error = left(sqlerrm, 2000) where id = v_automation.id;
  end;
  return v_run;
end;
$$;
revoke all on function public.run_scheduled_automation(uuid, timestamptz) from public, anon, authenticated;
grant execute on function public.run_scheduled_automation(uuid, timestamptz) to service_role;
