-- The jobs queue and the events that feed it: work the Worker does after a request.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.jobs ──

-- Work the Worker does after a request (decision 021): claimed with
-- public.claim_jobs, tried again until max_attempts, made once per idempotency key.
create table public.jobs (
  id uuid default gen_random_uuid() not null,
  account_id uuid,
  kind text not null,
  payload jsonb default '{}'::jsonb not null,
  subject_id uuid,
  run_at timestamp with time zone default now() not null,
  attempts integer default 0 not null,
  max_attempts integer default 5 not null,
  status text default 'queued'::text not null,
  last_error text,
  idempotency_key text not null,
  locked_by text,
  locked_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint jobs_pkey primary key (id),
  constraint jobs_idempotency_key_key unique (idempotency_key),
  constraint jobs_attempts_check check ((attempts >= 0)),
  constraint jobs_idempotency_key_check check (((length(idempotency_key) >= 1) and (length(idempotency_key) <= 300))),
  constraint jobs_kind_check check (((kind ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$'::text) and (length(kind) <= 100))),
  constraint jobs_last_error_check check ((length(last_error) <= 2000)),
  constraint jobs_max_attempts_check check (((max_attempts >= 1) and (max_attempts <= 20))),
  constraint jobs_payload_check check ((jsonb_typeof(payload) = 'object'::text)),
  constraint jobs_status_check check ((status = any (array['queued'::text, 'running'::text, 'done'::text, 'failed'::text]))),
  constraint jobs_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.jobs enable row level security;

create index jobs_account_id_created_at_idx on public.jobs using btree (account_id, created_at desc, id desc);
create index jobs_due_idx on public.jobs using btree (run_at, id) where (status = 'queued'::text);
create index jobs_failed_idx on public.jobs using btree (account_id, updated_at desc, id desc) where (status = 'failed'::text);
create index jobs_running_idx on public.jobs using btree (locked_at) where (status = 'running'::text);
create index jobs_subject_idx on public.jobs using btree (subject_id, created_at desc) where (subject_id is not null);

revoke all on table public.jobs from public, anon, authenticated, service_role;
grant all on table public.jobs to authenticated;
revoke delete, insert, truncate, update on table public.jobs from authenticated;
grant all on table public.jobs to service_role;

create or replace function private.enqueue_job(p_kind text, p_account_id uuid, p_payload jsonb, p_idempotency_key text, p_subject_id uuid default null::uuid, p_run_at timestamp with time zone default now(), p_max_attempts integer default 5)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_id uuid;
begin
  insert into public.jobs (kind, account_id, payload, idempotency_key, subject_id, run_at, max_attempts)
  values (p_kind, p_account_id, coalesce(p_payload, '{}'::jsonb), p_idempotency_key, p_subject_id,
          coalesce(p_run_at, now()), coalesce(p_max_attempts, 5))
  on conflict (idempotency_key) do nothing
  returning id into v_id;
  return v_id;
end;
$function$;
revoke all on function private.enqueue_job(p_kind text, p_account_id uuid, p_payload jsonb, p_idempotency_key text, p_subject_id uuid, p_run_at timestamp with time zone, p_max_attempts integer) from public, anon, authenticated, service_role;

create or replace function private.reclaim_stale_jobs()
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  with stale as (
    select j.id, j.attempts, j.max_attempts, j.locked_by, j.locked_at
      from public.jobs j
     where j.status = 'running' and j.locked_at < now() - interval '10 minutes'
       for update skip locked
  ), closed as (
    update public.job_runs r
       set finished_at = now(), outcome = 'abandoned',
           error = format('The runner %s stopped without recording an outcome', s.locked_by)
      from stale s
     where r.job_id = s.id and r.outcome = 'running'
    returning r.id
  )
  update public.jobs j
     set status = case when s.attempts >= s.max_attempts then 'failed' else 'queued' end,
         last_error = format('Attempt %s was abandoned: its runner stopped without recording an outcome', s.attempts),
         run_at = now(),
         locked_by = null,
         locked_at = null
    from stale s
   where j.id = s.id
$function$;
revoke all on function private.reclaim_stale_jobs() from public, anon, authenticated, service_role;

create or replace function public.claim_jobs(p_runner text, p_limit integer default 10)
 returns setof public.jobs
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if nullif(btrim(p_runner), '') is null then
    raise exception 'A runner names itself' using errcode = '22023';
  end if;
  -- Its own statement: the claim below sees the reclaimed jobs as queued.
  perform private.reclaim_stale_jobs();
  return query
  with due as (
    select j.id
      from public.jobs j
     where j.status = 'queued' and j.run_at <= now()
     order by j.run_at, j.id
     limit greatest(1, least(coalesce(p_limit, 10), 100))
       for update skip locked
  ), claimed as (
    update public.jobs j
       set status = 'running', attempts = j.attempts + 1, locked_by = p_runner, locked_at = now()
      from due
     where j.id = due.id
    returning j.*
  ), runs as (
    insert into public.job_runs (job_id, account_id, runner, attempt)
    select c.id, c.account_id, p_runner, c.attempts from claimed c
  )
  select * from claimed;
end;
$function$;
revoke all on function public.claim_jobs(p_runner text, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_jobs(p_runner text, p_limit integer) to service_role;

create or replace function public.enqueue_job(p_kind text, p_idempotency_key text, p_payload jsonb default '{}'::jsonb, p_account_id uuid default null::uuid, p_subject_id uuid default null::uuid, p_run_at timestamp with time zone default null::timestamp with time zone)
 returns uuid
 language sql
 security definer
 set search_path to ''
as $function$
  select private.enqueue_job(p_kind, p_account_id, p_payload, p_idempotency_key, p_subject_id, coalesce(p_run_at, now()))
$function$;
revoke all on function public.enqueue_job(p_kind text, p_idempotency_key text, p_payload jsonb, p_account_id uuid, p_subject_id uuid, p_run_at timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.enqueue_job(p_kind text, p_idempotency_key text, p_payload jsonb, p_account_id uuid, p_subject_id uuid, p_run_at timestamp with time zone) to service_role;

create or replace function public.finish_job(p_job_id uuid, p_runner text, p_error text default null::text, p_permanent boolean default false)
 returns public.jobs
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_job public.jobs;
  v_error text := left(p_error, 2000);
  v_outcome text;
begin
  select * into v_job from public.jobs j where j.id = p_job_id for update;
  if not found or v_job.status <> 'running' or v_job.locked_by is distinct from p_runner then
    raise exception 'This runner does not hold job %', p_job_id using errcode = '55000';
  end if;
  v_outcome := case
    when v_error is null then 'done'
    when p_permanent or v_job.attempts >= v_job.max_attempts then 'failed'
    else 'retry'
  end;
  update public.jobs j
     set status = case v_outcome when 'retry' then 'queued' else v_outcome end,
         last_error = v_error,
         run_at = case when v_outcome = 'retry'
                       then now() + make_interval(secs => least(30 * power(2, v_job.attempts - 1), 3600))
                       else j.run_at end,
         locked_by = null,
         locked_at = null
   where j.id = p_job_id
  returning * into v_job;
  update public.job_runs r
     set finished_at = now(), outcome = v_outcome, error = v_error
   where r.job_id = p_job_id and r.attempt = v_job.attempts and r.runner = p_runner and r.outcome = 'running';
  return v_job;
end;
$function$;
revoke all on function public.finish_job(p_job_id uuid, p_runner text, p_error text, p_permanent boolean) from public, anon, authenticated, service_role;
grant execute on function public.finish_job(p_job_id uuid, p_runner text, p_error text, p_permanent boolean) to service_role;

create trigger jobs_set_updated_at before update on public.jobs for each row execute function private.set_updated_at();

create policy "admins read their account's jobs" on public.jobs
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

-- ── public.job_runs ──

-- One row per attempt at a job, for the record of what ran and how it ended.
create table public.job_runs (
  id uuid default gen_random_uuid() not null,
  job_id uuid not null,
  account_id uuid,
  runner text not null,
  attempt integer not null,
  started_at timestamp with time zone default now() not null,
  finished_at timestamp with time zone,
  outcome text default 'running'::text not null,
  error text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint job_runs_pkey primary key (id),
  constraint job_runs_error_check check ((length(error) <= 2000)),
  constraint job_runs_outcome_check check ((outcome = any (array['running'::text, 'done'::text, 'retry'::text, 'failed'::text, 'abandoned'::text]))),
  constraint job_runs_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint job_runs_job_id_fkey foreign key (job_id) references public.jobs(id) on delete cascade
);
alter table public.job_runs enable row level security;

create index job_runs_account_id_created_at_idx on public.job_runs using btree (account_id, created_at desc, id desc);
create index job_runs_job_id_idx on public.job_runs using btree (job_id, attempt);

revoke all on table public.job_runs from public, anon, authenticated, service_role;
grant all on table public.job_runs to authenticated;
revoke delete, insert, truncate, update on table public.job_runs from authenticated;
grant all on table public.job_runs to service_role;

create trigger job_runs_set_updated_at before update on public.job_runs for each row execute function private.set_updated_at();

create policy "admins read their account's job runs" on public.job_runs
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

-- ── public.events ──

-- Things that happened (a lead created, a quote sent...), written by triggers; jobs follow from them.
create table public.events (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  kind text not null,
  resource_type text not null,
  resource_id uuid,
  payload jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  automation_depth smallint default 0 not null,
  caused_by_run_id uuid,
  constraint events_pkey primary key (id),
  constraint events_automation_depth_check check (((automation_depth >= 0) and (automation_depth <= 1000))),
  constraint events_kind_check check ((kind = any ('{client_registered,conversation_resolved,document_extracted,invoice_created,invoice_overdue,invoice_paid,lead_created,message_received,po_confirmed,po_sent,quote_accepted,quote_declined,quote_expired,quote_sent,quote_viewed,review_due,shipment_delivered,shipment_exception,sla_breached}'::text[]))),
  constraint events_payload_check check ((jsonb_typeof(payload) = 'object'::text)),
  constraint events_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.events enable row level security;

create index events_account_id_created_at_idx on public.events using btree (account_id, created_at desc, id desc);

revoke all on table public.events from public, anon, authenticated, service_role;
grant all on table public.events to authenticated;
revoke delete, insert, truncate, update on table public.events from authenticated;
grant all on table public.events to service_role;

create or replace function private.emit_event(p_account_id uuid, p_kind text, p_resource_type text, p_resource_id uuid, p_payload jsonb default '{}'::jsonb)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  insert into public.events (account_id, kind, resource_type, resource_id, payload)
  values (p_account_id, p_kind, p_resource_type, p_resource_id, coalesce(p_payload, '{}'::jsonb))
$function$;
revoke all on function private.emit_event(p_account_id uuid, p_kind text, p_resource_type text, p_resource_id uuid, p_payload jsonb) from public, anon, authenticated, service_role;

create or replace function private.events_on_insert()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into public.events (account_id, kind, resource_type, resource_id, payload)
  select n.account_id, tg_argv[0], tg_table_name, n.id, jsonb_build_object('name', n.name, 'email', n.email)
    from new_rows n;
  return null;
end;
$function$;
revoke all on function private.events_on_insert() from public, anon, authenticated, service_role;

create or replace function private.events_stamp_automation_depth()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
declare
  v_depth text := current_setting('opshub.automation_depth', true);
  v_run text := current_setting('opshub.automation_run', true);
begin
  new.automation_depth := case when v_depth ~ '^[0-9]{1,3}$' then v_depth::smallint else 0 end;
  new.caused_by_run_id := case when v_run ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then v_run::uuid end;
  return new;
end;
$function$;
revoke all on function private.events_stamp_automation_depth() from public, anon, authenticated, service_role;

create or replace function private.logistics_event_jobs()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.kind = 'po_sent' then
    perform private.enqueue_job('purchase_order_send', new.account_id,
                                jsonb_build_object('purchase_order_id', new.resource_id),
                                'purchase_order_send:' || new.id, new.resource_id);
  elsif new.kind = 'shipment_delivered' then
    perform private.enqueue_job('shipment_notice', new.account_id,
                                jsonb_build_object('shipment_id', new.resource_id, 'kind', 'delivered',
                                                   'event_id', new.payload ->> 'event_id'),
                                'shipment_delivered:' || new.resource_id, new.resource_id);
  elsif new.kind = 'shipment_exception' then
    perform private.enqueue_job('shipment_notice', new.account_id,
                                jsonb_build_object('shipment_id', new.resource_id, 'kind', 'exception',
                                                   'event_id', new.payload ->> 'event_id'),
                                'shipment_exception:' || coalesce(new.payload ->> 'event_id', new.id::text), new.resource_id);
  end if;
  return null;
end;
$function$;
revoke all on function private.logistics_event_jobs() from public, anon, authenticated, service_role;

create trigger events_logistics_jobs after insert on public.events for each row when (new.kind = any (array['po_sent'::text, 'shipment_delivered'::text, 'shipment_exception'::text])) execute function private.logistics_event_jobs();
create trigger events_stamp_automation_depth before insert on public.events for each row execute function private.events_stamp_automation_depth();

create policy "staff read their account's events" on public.events
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));
