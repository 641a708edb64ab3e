-- Automations, the rest of decision 067 (decision 080):
-- * Retries with backoff. A failed action whose error may pass (anything but
--   the refusals the engine raises itself: bad data, nothing found, not
--   supported, already done) leaves its run `retrying` with next_attempt_at;
--   the runner's run_due_automation_runs takes it again (locked, skip locked,
--   so two runners never take the same run). After the third attempt the run
--   is `failed` and the automation's last_error says why ('Failed' on its
--   list and page). A run's action and its status are still one transaction.
-- * Run now: run_automation_now queues a manual run once per idempotency key
--   (unique (automation_id, manual_key)); the runner performs it.
-- * create_invoice: a draft invoice for the quote of a quote_accepted event,
--   written in the run's transaction (the inserts of convert_quote_to_invoice,
--   which needs a signed-in writer; the invoices' own triggers number it, total
--   it, audit it and emit invoice_created). One invoice per quote.
-- * generate_report: queues the analytics export job (contract with the
--   analytics module: kind analytics.export_report) with the key automation:<run>.
-- * Triggers: every event kind the migrations emit.

-- Triggers: what the events outbox really carries -----------------------------------
alter table public.automations drop constraint automations_trigger_kind_check;
alter table public.automations add constraint automations_trigger_kind_check check (trigger_kind in (
  'lead_created', 'client_registered', 'quote_sent', 'quote_viewed', 'quote_accepted', 'quote_declined',
  'quote_expired', 'invoice_created', 'invoice_sent', 'invoice_overdue', 'invoice_paid', 'invoice_void',
  'message_received', 'conversation_resolved', 'sla_breached', 'shipment_delivered', 'shipment_exception',
  'po_sent', 'po_confirmed', 'document_extracted', 'review_due', 'scheduled_time'));

-- Runs: attempts, retries and manual runs ----------------------------------------
alter table public.automation_runs drop constraint automation_runs_status_check;
alter table public.automation_runs add constraint automation_runs_status_check
  check (status in ('running', 'succeeded', 'skipped', 'failed', 'queued', 'retrying'));
alter table public.automation_runs
  add column attempts integer not null default 0 check (attempts between 0 and 10),
  add column next_attempt_at timestamptz,
  -- Run now: the click's idempotency key, and who clicked.
  add column manual_key text check (manual_key ~ '^[A-Za-z0-9_-]{8,64}$'),
  add column requested_by uuid,
  add constraint automation_runs_manual_once unique (automation_id, manual_key),
  add constraint automation_runs_retry_has_time check (status <> 'retrying' or next_attempt_at is not null);
create index automation_runs_due_idx on public.automation_runs (next_attempt_at) where status in ('queued', 'retrying');

-- Settings: generate_report's report of the analytics Export Report dialog -------
create or replace function private.automation_settings_valid(p_kind text, p_settings jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
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
$$;

-- Saving: create_invoice needs a quote's acceptance; a report's recipient is one
-- of the account's staff; a changed automation (or one activated again) starts
-- without its last error.
create or replace function private.automation_before_write() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The action ----------------------------------------------------------------------
create or replace function private.automation_perform(p_automation public.automations, p_run_id uuid, p_event public.events)
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
  v_quote public.quotes;
  v_contact public.contacts;
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
    select * into v_invoice from public.invoices i where i.quote_id = v_quote.id;
    if found then
      raise exception 'Already converted to %', v_invoice.invoice_number using errcode = '23505';
    end if;
    select * into v_contact from public.contacts c where c.id = v_quote.contact_id;
    if v_contact.id is null and v_quote.signer_email is null then
      raise exception 'The quote has no client to invoice' using errcode = '22023';
    end if;
    insert into public.invoices (account_id, contact_id, quote_id, created_by, client_name, client_email, currency,
                                 tax_rate, discount, due_date, notes)
    values (p_automation.account_id, v_contact.id, v_quote.id, p_automation.created_by,
            coalesce(v_contact.name, v_quote.signer_name, v_quote.signer_email),
            lower(coalesce(v_contact.email, v_quote.signer_email)), v_quote.currency, v_quote.tax_rate, v_quote.discount,
            (now() at time zone 'UTC')::date + 30, v_quote.notes)
    returning * into v_invoice;
    insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
    select v_invoice.id, qi.description, qi.qty, qi.unit_price, 0,
           (row_number() over (order by qi.position, qi.created_at, qi.id) - 1)::integer
      from public.quote_items qi where qi.quote_id = v_quote.id;
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
$$;

-- Attempts ---------------------------------------------------------------------
-- How many attempts a run has; the wait before attempt n+1 is 1, then 4 minutes.
create function private.automation_max_attempts() returns integer language sql immutable set search_path = '' as $$ select 3 $$;

-- The event a run stands on: the outbox's row, or (scheduled, manual) one made up of its time.
create function private.automation_run_event(p_run public.automation_runs) returns public.events
language plpgsql stable
security definer
set search_path = ''
as $$
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
$$;

-- One attempt of a run (the caller holds the run's row): the action in a
-- subtransaction, then the run's outcome. An error the engine raised as a
-- refusal fails at once; any other is retried after 1, then 4 minutes; the
-- third failure is final and becomes the automation's last_error.
create function private.automation_attempt(p_run public.automation_runs) returns public.automation_runs
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_automation public.automations;
  v_event public.events;
  v_run public.automation_runs;
  v_output jsonb;
  v_attempt integer := p_run.attempts + 1;
begin
  select * into v_automation from public.automations where id = p_run.automation_id;
  v_event := private.automation_run_event(p_run);
  update public.automation_runs set attempts = v_attempt where id = p_run.id;
  -- Conditions test the event; a manual run (Run now) is asked for regardless.
  if p_run.manual_key is null and p_run.event_id is not null
     and not private.automation_conditions_met(v_automation.conditions, v_event.payload) then
    update public.automation_runs set status = 'skipped', finished_at = now(), error = null, next_attempt_at = null
     where id = p_run.id returning * into v_run;
    return v_run;
  end if;
  begin
    v_output := private.automation_perform(v_automation, p_run.id, v_event);
    update public.automation_runs set status = 'succeeded', finished_at = now(), output = v_output, error = null, next_attempt_at = null
     where id = p_run.id returning * into v_run;
    update public.automations set last_error = null where id = v_automation.id and last_error is not null;
  exception when others then
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
$$;
revoke all on function private.automation_attempt(public.automation_runs) from public;
revoke all on function private.automation_run_event(public.automation_runs) from public;

-- The event step, as before (decision 067) with its attempt through automation_attempt.
create or replace function public.run_automations(p_limit integer default 100)
returns setof public.automation_runs
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create or replace function public.run_scheduled_automation(p_automation_id uuid, p_scheduled_for timestamptz)
returns public.automation_runs
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The runner's second step: queued manual runs and retries whose time has come.
-- Each row is locked and skipped by a second runner, and its attempt commits
-- with its outcome. A paused automation's retries wait until it is active again.
create function public.run_due_automation_runs(p_limit integer default 100)
returns setof public.automation_runs
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.run_due_automation_runs(integer) from public, anon, authenticated;
grant execute on function public.run_due_automation_runs(integer) to service_role;

-- Run now: a business writer queues one manual run per idempotency key (the
-- form's, made when the page was drawn): a second click of the same page, or a
-- replayed post, answers the run already queued.
create function public.run_automation_now(p_automation_id uuid, p_key text)
returns public.automation_runs
language plpgsql
security definer
set search_path = ''
as $$
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
  insert into public.automation_runs (account_id, automation_id, status, manual_key, requested_by, next_attempt_at)
  values (v_account_id, v_automation.id, 'queued', p_key, public.current_user_id(), now())
  on conflict (automation_id, manual_key) do nothing
  returning * into v_run;
  if v_run.id is null then
    select * into v_run from public.automation_runs where automation_id = v_automation.id and manual_key = p_key;
  end if;
  return v_run;
end;
$$;
revoke all on function public.run_automation_now(uuid, text) from public, anon;
grant execute on function public.run_automation_now(uuid, text) to authenticated;

-- My tasks (the dashboard): the signed-in person's open tasks, newest first.
-- Invoker's rights: the tasks policies decide, as for any read.
create function public.my_open_tasks(p_limit integer default 10)
returns setof public.tasks
language sql stable
security invoker
set search_path = ''
as $$
  select * from public.tasks
   where assignee_id = public.current_user_id() and not done
   order by created_at desc, id desc
   limit greatest(1, least(coalesce(p_limit, 10), 50))
$$;
revoke all on function public.my_open_tasks(integer) from public, anon;
grant execute on function public.my_open_tasks(integer) to authenticated;
