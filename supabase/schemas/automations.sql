-- Automations: workflows over the events outbox, their runs (each once per event or scheduled time)
-- and the tasks they assign.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.automations ──

create or replace function private.audit_automation()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.audit_automation() from public, anon, authenticated, service_role;

create or replace function private.automation_before_write()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.status = 'active' and (tg_op = 'INSERT' or old.status is distinct from 'active') then
    new.active_since := now();
  end if;
  if tg_op = 'UPDATE' and (new.status, new.trigger_kind, new.action_kind, new.action_settings, new.conditions, new.frequency, new.cron)
      is distinct from (old.status, old.trigger_kind, old.action_kind, old.action_settings, old.conditions, old.frequency, old.cron) then
    new.last_error := null;
  end if;
  if new.action_kind = 'assign_task' and not exists (
      select 1 from public.users u where u.id = (new.action_settings ->> 'assignee_id')::uuid and u.account_id = new.account_id
        and u.role in ('admin', 'member')) then
    raise exception 'Choose someone of the account to assign the task to' using errcode = '22023', hint = 'assignee_id';
  end if;
  if new.action_kind = 'generate_report' and new.action_settings ? 'assignee_id' and not exists (
      select 1 from public.users u where u.id = (new.action_settings ->> 'assignee_id')::uuid and u.account_id = new.account_id
        and u.role in ('admin', 'member', 'auditor')) then
    raise exception 'Choose someone of the account to mail the report to' using errcode = '22023', hint = 'assignee_id';
  end if;
  if new.action_kind = 'send_email' and not exists (
      select 1 from public.templates t where t.id = (new.action_settings ->> 'template_id')::uuid and t.account_id = new.account_id
        and t.type = 'email') then
    raise exception 'Choose one of the account''s e-mail templates' using errcode = '22023', hint = 'template_id';
  end if;
  -- Recipients: the event's contact, one of the account's users, or a fixed
  -- address an admin entered (a member may not send the account's mail anywhere).
  if new.action_kind = 'send_email' and (new.action_settings ->> 'recipient') <> 'event_contact'
     and (tg_op = 'INSERT' or (new.action_settings ->> 'recipient') is distinct from (old.action_settings ->> 'recipient'))
     and public.current_user_id() is not null and public.current_user_role() is distinct from 'admin'
     and not exists (select 1 from public.users u where u.account_id = new.account_id
                      and lower(u.email) = lower(new.action_settings ->> 'recipient')) then
    raise exception 'Only an admin can enter an address outside the account: choose the event''s contact or a colleague'
      using errcode = '22023', hint = 'recipient';
  end if;
  -- An invoice is made from the accepted quote; its own event (invoice_created) is
  -- no trigger of create_invoice, so the action never fires itself.
  if new.action_kind = 'create_invoice' and new.trigger_kind <> 'quote_accepted' then
    raise exception 'Create Invoice applies to Quote Accepted' using errcode = '22023', hint = 'trigger';
  end if;
  return new;
end;
$function$;
revoke all on function private.automation_before_write() from public, anon, authenticated, service_role;

create or replace function private.automation_conditions_met(p_conditions jsonb, p_payload jsonb)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.automation_conditions_met(p_conditions jsonb, p_payload jsonb) from public, anon, authenticated, service_role;
grant execute on function private.automation_conditions_met(p_conditions jsonb, p_payload jsonb) to public;

create or replace function private.automation_conditions_valid(p_conditions jsonb)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select jsonb_typeof(p_conditions) = 'array' and jsonb_array_length(p_conditions) <= 20
    and not exists (
      select 1 from jsonb_array_elements(p_conditions) c
       where jsonb_typeof(c) <> 'object'
          or jsonb_typeof(c -> 'field') <> 'string' or (c ->> 'field') !~ '^[a-z][a-z0-9_]{0,49}$'
          or jsonb_typeof(c -> 'operator') <> 'string'
          or (c ->> 'operator') not in ('equals', 'not_equals', 'contains', 'greater_than', 'less_than', 'is_empty', 'is_not_empty')
          or (c ? 'value' and jsonb_typeof(c -> 'value') <> 'string')
          or length(coalesce(c ->> 'value', '')) > 200)
$function$;
revoke all on function private.automation_conditions_valid(p_conditions jsonb) from public, anon, authenticated, service_role;
grant execute on function private.automation_conditions_valid(p_conditions jsonb) to public;

create or replace function private.automation_max_attempts()
 returns integer
 language sql
 immutable
 set search_path to ''
as $function$ select 3 $function$;
revoke all on function private.automation_max_attempts() from public, anon, authenticated, service_role;
grant execute on function private.automation_max_attempts() to public;

create or replace function private.automation_max_depth()
 returns integer
 language sql
 immutable
 set search_path to ''
as $function$ select 3 $function$;
revoke all on function private.automation_max_depth() from public, anon, authenticated, service_role;
grant execute on function private.automation_max_depth() to public;

create or replace function private.automation_render(p_text text, p_payload jsonb)
 returns text
 language plpgsql
 immutable
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.automation_render(p_text text, p_payload jsonb) from public, anon, authenticated, service_role;
grant execute on function private.automation_render(p_text text, p_payload jsonb) to public;

create or replace function private.automation_settings_valid(p_kind text, p_settings jsonb)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select jsonb_typeof(p_settings) = 'object' and length(p_settings::text) <= 4000 and case p_kind
    when 'send_email' then
      jsonb_typeof(p_settings -> 'template_id') = 'string'
      and (p_settings ->> 'template_id') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      and jsonb_typeof(p_settings -> 'recipient') = 'string'
      and ((p_settings ->> 'recipient') = 'event_contact'
           or ((p_settings ->> 'recipient') ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
               and (p_settings ->> 'recipient') !~ '[[:cntrl:]]' and length(p_settings ->> 'recipient') <= 320))
    when 'update_status' then
      jsonb_typeof(p_settings -> 'status') = 'string' and (p_settings ->> 'status') ~ '^[a-z_]{1,40}$'
    when 'assign_task' then
      jsonb_typeof(p_settings -> 'assignee_id') = 'string'
      and (p_settings ->> 'assignee_id') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      and jsonb_typeof(p_settings -> 'title') = 'string' and length(btrim(p_settings ->> 'title')) between 1 and 200
    when 'create_invoice' then p_settings = '{}'::jsonb
    when 'generate_report' then
      jsonb_typeof(p_settings -> 'report_type') = 'string'
      and (p_settings ->> 'report_type') in ('sales', 'financial', 'leads', 'clients', 'compliance', 'comprehensive')
      and coalesce(p_settings ->> 'format', 'pdf') in ('csv', 'xlsx', 'pdf')
      and coalesce(p_settings ->> 'date_range', 'last_30_days') in ('last_7_days', 'last_30_days', 'last_quarter', 'last_year')
      and (not p_settings ? 'assignee_id'
           or (p_settings ->> 'assignee_id') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
    else false
  end
$function$;

create table public.automations (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  name text not null,
  description text,
  trigger_kind text not null,
  frequency text,
  cron text,
  status text default 'draft'::text not null,
  action_kind text not null,
  action_settings jsonb default '{}'::jsonb not null,
  conditions jsonb default '[]'::jsonb not null,
  active_since timestamp with time zone,
  last_error text,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint automations_pkey primary key (id),
  constraint automations_id_account_id_key unique (id, account_id),
  constraint automations_action_kind_check check ((action_kind = any (array['send_email'::text, 'create_invoice'::text, 'update_status'::text, 'assign_task'::text, 'generate_report'::text]))),
  constraint automations_check check (private.automation_settings_valid(action_kind, action_settings)),
  constraint automations_check1 check (((trigger_kind = 'scheduled_time'::text) = (frequency is not null))),
  constraint automations_check2 check (((cron is null) or (frequency = 'custom'::text))),
  constraint automations_check3 check (((frequency is distinct from 'custom'::text) or (cron is not null))),
  constraint automations_conditions_check check (private.automation_conditions_valid(conditions)),
  constraint automations_cron_check check (((length(cron) <= 100) and (cron !~ '[[:cntrl:]]'::text))),
  constraint automations_description_check check ((length(description) <= 2000)),
  constraint automations_frequency_check check ((frequency = any (array['hourly'::text, 'daily'::text, 'weekly'::text, 'monthly'::text, 'custom'::text]))),
  constraint automations_last_error_check check ((length(last_error) <= 2000)),
  constraint automations_name_check check (((length(btrim(name)) >= 1) and (length(btrim(name)) <= 200))),
  constraint automations_status_check check ((status = any (array['draft'::text, 'active'::text, 'paused'::text]))),
  constraint automations_trigger_kind_check check ((trigger_kind = any (array['lead_created'::text, 'client_registered'::text, 'quote_sent'::text, 'quote_viewed'::text, 'quote_accepted'::text, 'quote_declined'::text, 'quote_expired'::text, 'invoice_created'::text, 'invoice_sent'::text, 'invoice_overdue'::text, 'invoice_paid'::text, 'invoice_void'::text, 'message_received'::text, 'conversation_resolved'::text, 'sla_breached'::text, 'shipment_delivered'::text, 'shipment_exception'::text, 'po_sent'::text, 'po_confirmed'::text, 'document_extracted'::text, 'review_due'::text, 'scheduled_time'::text]))),
  constraint automations_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint automations_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.automations enable row level security;

create index automations_account_id_created_at_idx on public.automations using btree (account_id, created_at desc, id desc);
create index automations_account_id_status_created_at_idx on public.automations using btree (account_id, status, created_at desc, id desc);
create index automations_active_trigger_idx on public.automations using btree (account_id, trigger_kind) where (status = 'active'::text);
create index automations_created_by_idx on public.automations using btree (created_by);

revoke all on table public.automations from public, anon, authenticated, service_role;
grant all on table public.automations to authenticated;
revoke insert, truncate, update on table public.automations from authenticated;
grant all on table public.automations to service_role;
grant insert (account_id, name, description, trigger_kind, frequency, cron, status, action_kind, action_settings, conditions) on table public.automations to authenticated;
grant update (name, description, trigger_kind, frequency, cron, status, action_kind, action_settings, conditions) on table public.automations to authenticated;

create or replace function private.automation_perform(p_automation public.automations, p_run_id uuid, p_event public.events)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_settings jsonb := p_automation.action_settings;
  v_payload jsonb := coalesce(p_event.payload, '{}'::jsonb);
  v_task_id uuid;
  v_template public.templates;
  v_to text;
  v_job uuid;
  v_rows integer;
  v_quote public.quotes;
  v_invoice public.invoices;
  v_recipient uuid;
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
    raise exception 'Update status does not apply to %', coalesce(p_event.resource_type, 'a run without an event') using errcode = '22023';
  when 'send_email' then
    select * into v_template from public.templates t
     where t.id = (v_settings ->> 'template_id')::uuid and t.account_id = p_automation.account_id;
    if not found then
      raise exception 'The template no longer exists' using errcode = 'P0002';
    end if;
    -- The event's contact: a lead's or client's email, a supplier's, a message's sender.
    v_to := case when v_settings ->> 'recipient' = 'event_contact'
                 then coalesce(v_payload ->> 'email', v_payload ->> 'supplier_email', v_payload ->> 'from')
                 else v_settings ->> 'recipient' end;
    if v_to is null or v_to !~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$' or v_to ~ '[[:cntrl:]]' or length(v_to) > 320 then
      raise exception 'The event has no contact address to mail' using errcode = '22023';
    end if;
    v_job := private.enqueue_job('mail.send', p_automation.account_id,
      jsonb_build_object('to', v_to,
                         'subject', regexp_replace(private.automation_render(coalesce(v_template.subject, v_template.name), v_payload), '[[:cntrl:]]', ' ', 'g'),
                         'text', private.automation_render(v_template.content, v_payload)),
      'automation:' || p_run_id::text, p_automation.id);
    return jsonb_build_object('mail_job_id', v_job, 'to', v_to);
  when 'create_invoice' then
    if p_event.resource_type is distinct from 'quotes' or p_event.resource_id is null then
      raise exception 'Create invoice needs an accepted quote' using errcode = '22023';
    end if;
    -- Locked as convert_quote_to_invoice locks it: a conversion by hand meanwhile queues behind.
    select * into v_quote from public.quotes q
     where q.id = p_event.resource_id and q.account_id = p_automation.account_id for update;
    if not found then
      raise exception 'The quote no longer exists' using errcode = 'P0002';
    end if;
    -- The one writer, for the automation's account, its creator as the invoice's author.
    v_invoice := private.invoice_from_quote(p_automation.account_id, p_automation.created_by, v_quote);
    return jsonb_build_object('invoice_id', v_invoice.id, 'invoice_number', v_invoice.invoice_number, 'quote_id', v_quote.id);
  when 'generate_report' then
    v_recipient := coalesce((v_settings ->> 'assignee_id')::uuid, p_automation.created_by);
    if v_recipient is null then
      raise exception 'The automation has no one to mail the report to' using errcode = '22023';
    end if;
    v_job := private.enqueue_job('analytics.export_report', p_automation.account_id,
      jsonb_build_object('report_type', v_settings ->> 'report_type',
                         'format', coalesce(v_settings ->> 'format', 'pdf'),
                         'date_range', coalesce(v_settings ->> 'date_range', 'last_30_days'),
                         'from', null, 'to', null,
                         'include_charts', coalesce((v_settings ->> 'include_charts')::boolean, true),
                         'include_summary', coalesce((v_settings ->> 'include_summary')::boolean, true),
                         'recipient_user_id', v_recipient),
      'automation:' || p_run_id::text, p_automation.id);
    return jsonb_build_object('report_job_id', v_job, 'recipient_user_id', v_recipient);
  else
    raise exception '% is not performed by this engine', p_automation.action_kind using errcode = '0A000';
  end case;
end;
$function$;
revoke all on function private.automation_perform(p_automation public.automations, p_run_id uuid, p_event public.events) from public, anon, authenticated, service_role;

revoke all on function private.automation_settings_valid(p_kind text, p_settings jsonb) from public, anon, authenticated, service_role;
grant execute on function private.automation_settings_valid(p_kind text, p_settings jsonb) to public;

create trigger automations_audit after insert or delete or update on public.automations for each row execute function private.audit_automation();
create trigger automations_before_write before insert or update on public.automations for each row execute function private.automation_before_write();
create trigger automations_set_updated_at before update on public.automations for each row execute function private.set_updated_at();

create policy "business writers add automations" on public.automations
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete automations" on public.automations
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update automations" on public.automations
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's automations" on public.automations
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.automation_runs ──

create table public.automation_runs (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  automation_id uuid not null,
  event_id uuid,
  scheduled_for timestamp with time zone,
  status text default 'running'::text not null,
  error text,
  output jsonb default '{}'::jsonb not null,
  started_at timestamp with time zone default now() not null,
  finished_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone,
  manual_key text,
  requested_by uuid,
  constraint automation_runs_pkey primary key (id),
  constraint automation_runs_automation_id_event_id_key unique (automation_id, event_id),
  constraint automation_runs_automation_id_scheduled_for_key unique (automation_id, scheduled_for),
  constraint automation_runs_manual_once unique (automation_id, manual_key),
  constraint automation_runs_attempts_check check (((attempts >= 0) and (attempts <= 10))),
  constraint automation_runs_check check (((event_id is not null) or (scheduled_for is not null) or (status <> 'running'::text))),
  constraint automation_runs_error_check check ((length(error) <= 2000)),
  constraint automation_runs_manual_key_check check ((manual_key ~ '^[A-Za-z0-9_-]{8,64}$'::text)),
  constraint automation_runs_output_check check ((jsonb_typeof(output) = 'object'::text)),
  constraint automation_runs_retry_has_time check (((status <> 'retrying'::text) or (next_attempt_at is not null))),
  constraint automation_runs_status_check check ((status = any (array['running'::text, 'succeeded'::text, 'skipped'::text, 'failed'::text, 'queued'::text, 'retrying'::text]))),
  constraint automation_runs_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint automation_runs_automation_id_account_id_fkey foreign key (automation_id, account_id) references public.automations(id, account_id) on delete cascade,
  constraint automation_runs_event_id_fkey foreign key (event_id) references public.events(id) on delete set null
);
alter table public.automation_runs enable row level security;

create index automation_runs_account_id_created_at_idx on public.automation_runs using btree (account_id, created_at desc, id desc);
create index automation_runs_automation_idx on public.automation_runs using btree (automation_id, started_at desc, id desc);
create index automation_runs_due_idx on public.automation_runs using btree (next_attempt_at) where (status = any (array['queued'::text, 'retrying'::text]));
create index automation_runs_event_idx on public.automation_runs using btree (event_id);

revoke all on table public.automation_runs from public, anon, authenticated, service_role;
grant all on table public.automation_runs to authenticated;
revoke delete, insert, truncate, update on table public.automation_runs from authenticated;
grant all on table public.automation_runs to service_role;

create or replace function private.automation_attempt(p_run public.automation_runs)
 returns public.automation_runs
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_automation public.automations;
  v_event public.events;
  v_run public.automation_runs;
  v_output jsonb;
  v_attempt integer := p_run.attempts + 1;
  v_depth integer;
begin
  select * into v_automation from public.automations where id = p_run.automation_id;
  v_event := private.automation_run_event(p_run);
  v_depth := coalesce(v_event.automation_depth, 0);
  update public.automation_runs set attempts = v_attempt where id = p_run.id;
  if v_depth >= private.automation_max_depth() then
    update public.automation_runs
       set status = 'skipped', finished_at = now(), next_attempt_at = null,
           error = format('Stopped: this event was written by a chain of %s automation runs, which would loop', v_depth),
           output = jsonb_build_object('loop_guard', true, 'depth', v_depth, 'caused_by_run_id', v_event.caused_by_run_id)
     where id = p_run.id returning * into v_run;
    return v_run;
  end if;
  -- Conditions test the event; a manual run (Run now) is asked for regardless.
  if p_run.manual_key is null and p_run.event_id is not null
     and not private.automation_conditions_met(v_automation.conditions, v_event.payload) then
    update public.automation_runs set status = 'skipped', finished_at = now(), error = null, next_attempt_at = null
     where id = p_run.id returning * into v_run;
    return v_run;
  end if;
  begin
    perform set_config('opshub.automation_depth', (v_depth + 1)::text, true);
    perform set_config('opshub.automation_run', p_run.id::text, true);
    v_output := private.automation_perform(v_automation, p_run.id, v_event);
    perform set_config('opshub.automation_depth', '', true);
    perform set_config('opshub.automation_run', '', true);
    update public.automation_runs set status = 'succeeded', finished_at = now(), output = v_output, error = null, next_attempt_at = null
     where id = p_run.id returning * into v_run;
    update public.automations set last_error = null where id = v_automation.id and last_error is not null;
  exception when others then
    -- The subtransaction's rollback undoes its set_config too; cleared again to be plain about it.
    perform set_config('opshub.automation_depth', '', true);
    perform set_config('opshub.automation_run', '', true);
    if sqlstate in ('22023', 'P0002', '0A000', '23505', '42501', '22P02', '23503', '23514')
       or v_attempt >= private.automation_max_attempts() then
      update public.automation_runs set status = 'failed', finished_at = now(), error = left(sqlerrm, 2000), next_attempt_at = null
       where id = p_run.id returning * into v_run;
      update public.automations set last_error = left(sqlerrm, 2000) where id = v_automation.id;
    else
      update public.automation_runs
         set status = 'retrying', error = left(sqlerrm, 2000),
             next_attempt_at = now() + make_interval(mins => power(4, v_attempt - 1)::integer)
       where id = p_run.id returning * into v_run;
    end if;
  end;
  return v_run;
end;
$function$;
revoke all on function private.automation_attempt(p_run public.automation_runs) from public, anon, authenticated, service_role;

create or replace function private.automation_run_event(p_run public.automation_runs)
 returns public.events
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_event public.events;
begin
  if p_run.event_id is not null then
    select * into v_event from public.events where id = p_run.event_id;
    if found then return v_event; end if;
  end if;
  v_event.account_id := p_run.account_id;
  if p_run.scheduled_for is not null then
    v_event.kind := 'scheduled_time';
    v_event.payload := jsonb_build_object('scheduled_for', p_run.scheduled_for);
  else
    v_event.kind := 'manual';
    v_event.payload := '{}'::jsonb;
  end if;
  return v_event;
end;
$function$;
revoke all on function private.automation_run_event(p_run public.automation_runs) from public, anon, authenticated, service_role;

create or replace function public.run_automation_now(p_automation_id uuid, p_key text)
 returns public.automation_runs
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account_id uuid := public.current_account_id();
  v_automation public.automations;
  v_run public.automation_runs;
begin
  if v_account_id is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can run automations' using errcode = '42501';
  end if;
  if p_key is null or p_key !~ '^[A-Za-z0-9_-]{8,64}$' then
    raise exception 'Reload the page and try again' using errcode = '22023';
  end if;
  select * into v_automation from public.automations where id = p_automation_id and account_id = v_account_id;
  if not found then
    raise exception 'Automation not found' using errcode = 'P0002';
  end if;
  -- A manual run has no event: these two act on the record of the event that started them.
  if v_automation.action_kind = 'update_status' then
    raise exception 'Run now is not offered for Update Status: it changes the status of the lead whose creation started the run, so it runs only when a lead is created.'
      using errcode = '22023';
  elsif v_automation.action_kind = 'create_invoice' then
    raise exception 'Run now is not offered for Create Invoice: it invoices the quote whose acceptance started the run, so it runs only when a quote is accepted.'
      using errcode = '22023';
  end if;
  insert into public.automation_runs (account_id, automation_id, status, manual_key, requested_by, next_attempt_at)
  values (v_account_id, v_automation.id, 'queued', p_key, public.current_user_id(), now())
  on conflict (automation_id, manual_key) do nothing
  returning * into v_run;
  if v_run.id is null then
    select * into v_run from public.automation_runs where automation_id = v_automation.id and manual_key = p_key;
  end if;
  return v_run;
end;
$function$;
revoke all on function public.run_automation_now(p_automation_id uuid, p_key text) from public, anon, authenticated, service_role;
grant execute on function public.run_automation_now(p_automation_id uuid, p_key text) to authenticated, service_role;

create or replace function public.run_automations(p_limit integer default 100)
 returns setof public.automation_runs
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_pair record;
  v_run public.automation_runs;
begin
  for v_pair in
    select a.id as automation_id, a.account_id, e.id as event_id
      from public.automations a
      join public.events e on e.account_id = a.account_id and e.kind = a.trigger_kind and e.created_at >= a.active_since
     where a.status = 'active' and a.trigger_kind <> 'scheduled_time'
       and not exists (select 1 from public.automation_runs r where r.automation_id = a.id and r.event_id = e.id)
     order by e.created_at, e.id
     limit greatest(1, least(coalesce(p_limit, 100), 1000))
  loop
    -- Waits for a concurrent runner inserting the same pair, then does nothing.
    insert into public.automation_runs (account_id, automation_id, event_id)
    values (v_pair.account_id, v_pair.automation_id, v_pair.event_id)
    on conflict (automation_id, event_id) do nothing
    returning * into v_run;
    continue when v_run.id is null;
    return next private.automation_attempt(v_run);
  end loop;
end;
$function$;
revoke all on function public.run_automations(p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.run_automations(p_limit integer) to service_role;

create or replace function public.run_due_automation_runs(p_limit integer default 100)
 returns setof public.automation_runs
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_run public.automation_runs;
begin
  for v_run in
    select r.* from public.automation_runs r
     where (r.status = 'queued'
            or (r.status = 'retrying' and r.next_attempt_at <= now()
                and exists (select 1 from public.automations a where a.id = r.automation_id and a.status = 'active')))
     order by coalesce(r.next_attempt_at, r.created_at), r.id
     limit greatest(1, least(coalesce(p_limit, 100), 1000))
     for update of r skip locked
  loop
    return next private.automation_attempt(v_run);
  end loop;
end;
$function$;
revoke all on function public.run_due_automation_runs(p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.run_due_automation_runs(p_limit integer) to service_role;

create or replace function public.run_scheduled_automation(p_automation_id uuid, p_scheduled_for timestamp with time zone)
 returns public.automation_runs
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_automation public.automations;
  v_run public.automation_runs;
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
  return private.automation_attempt(v_run);
end;
$function$;
revoke all on function public.run_scheduled_automation(p_automation_id uuid, p_scheduled_for timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.run_scheduled_automation(p_automation_id uuid, p_scheduled_for timestamp with time zone) to service_role;

create trigger automation_runs_set_updated_at before update on public.automation_runs for each row execute function private.set_updated_at();

create policy "staff read their account's automation runs" on public.automation_runs
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.tasks ──

create table public.tasks (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  title text not null,
  assignee_id uuid,
  done boolean default false not null,
  resource_type text,
  resource_id uuid,
  automation_run_id uuid,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint tasks_pkey primary key (id),
  constraint tasks_automation_run_id_key unique (automation_run_id),
  constraint tasks_id_account_id_key unique (id, account_id),
  constraint tasks_resource_type_check check ((length(resource_type) <= 50)),
  constraint tasks_title_check check (((length(btrim(title)) >= 1) and (length(btrim(title)) <= 200))),
  constraint tasks_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint tasks_assignee_id_account_id_fkey foreign key (assignee_id, account_id) references public.users(id, account_id) on delete set null (assignee_id),
  constraint tasks_automation_run_id_fkey foreign key (automation_run_id) references public.automation_runs(id) on delete set null,
  constraint tasks_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.tasks enable row level security;

create index tasks_account_id_created_at_idx on public.tasks using btree (account_id, created_at desc, id desc);
create index tasks_assignee_idx on public.tasks using btree (assignee_id, done, created_at desc);
create index tasks_created_by_idx on public.tasks using btree (created_by);

revoke all on table public.tasks from public, anon, authenticated, service_role;
grant all on table public.tasks to authenticated;
revoke insert, truncate, update on table public.tasks from authenticated;
grant all on table public.tasks to service_role;
grant insert (account_id, title, assignee_id, resource_type, resource_id) on table public.tasks to authenticated;
grant update (title, assignee_id, done) on table public.tasks to authenticated;

create or replace function public.my_open_tasks(p_limit integer default 10)
 returns setof public.tasks
 language sql
 stable
 set search_path to ''
as $function$
  select * from public.tasks
   where assignee_id = public.current_user_id() and not done
   order by created_at desc, id desc
   limit greatest(1, least(coalesce(p_limit, 10), 50))
$function$;
revoke all on function public.my_open_tasks(p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.my_open_tasks(p_limit integer) to authenticated, service_role;

create trigger tasks_audit after insert or delete or update on public.tasks for each row execute function private.audit_automation();
create trigger tasks_set_updated_at before update on public.tasks for each row execute function private.set_updated_at();

create policy "business writers add tasks" on public.tasks
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete tasks" on public.tasks
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update tasks" on public.tasks
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's tasks" on public.tasks
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.automation_list ──

create view public.automation_list with (security_invoker=true) as
 select id,
    account_id,
    name,
    trigger_kind,
    action_kind,
    status,
    last_error,
    created_at,
    (( select count(*) as count
           from public.automation_runs r
          where r.automation_id = a.id and (r.status = any (array['succeeded'::text, 'skipped'::text, 'failed'::text]))))::integer as run_count,
    (( select count(*) as count
           from public.automation_runs r
          where r.automation_id = a.id and r.status = 'succeeded'::text))::integer as succeeded_count
   from public.automations a;

revoke all on table public.automation_list from public, anon, authenticated, service_role;
grant select on table public.automation_list to authenticated;
grant all on table public.automation_list to service_role;
