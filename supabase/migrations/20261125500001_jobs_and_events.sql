-- The platform's jobs and events (decision 021).
--
-- events: an append-only outbox, one row per domain event, written by
-- triggers in the same transaction as the change it records.
-- jobs: work that happens later or elsewhere (mail, expiry, feeds). Queued by
-- triggers and RPCs, claimed by the Worker's runner with the service role
-- (claim_jobs: `for update skip locked`, so two runners never take the same
-- job), retried with exponential backoff, then `failed`.
-- job_runs: one row per attempt (started, finished, outcome, error).
-- The account's staff read all three; nobody writes them through the API.

create table public.events (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  kind text not null check (kind in (
    'lead_created', 'client_registered', 'quote_sent', 'quote_viewed', 'quote_accepted', 'quote_declined',
    'quote_expired', 'invoice_created', 'invoice_overdue', 'invoice_paid', 'message_received',
    'shipment_delivered', 'document_extracted', 'review_due')),
  resource_type text not null,
  resource_id uuid,
  payload jsonb not null default '{}' check (jsonb_typeof(payload) = 'object'),
  created_at timestamptz not null default now(),
  -- Never changes (append-only); kept so every table has the same two stamps.
  updated_at timestamptz not null default now()
);
create index events_account_id_created_at_idx on public.events (account_id, created_at desc, id desc);
create index events_resource_idx on public.events (resource_id, created_at desc) where resource_id is not null;

create table public.jobs (
  id uuid primary key default gen_random_uuid(),
  -- Null for the platform's own work (the expiry sweep covers every account).
  account_id uuid references public.accounts (id) on delete cascade,
  kind text not null check (kind ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$' and length(kind) <= 100),
  payload jsonb not null default '{}' check (jsonb_typeof(payload) = 'object'),
  -- The record the job is about (a quote, an integration), so its screen can say how delivery went.
  subject_id uuid,
  run_at timestamptz not null default now(),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 5 check (max_attempts between 1 and 20),
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  last_error text check (length(last_error) <= 2000),
  idempotency_key text not null unique check (length(idempotency_key) between 1 and 300),
  locked_by text,
  locked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index jobs_due_idx on public.jobs (run_at, id) where status = 'queued';
create index jobs_running_idx on public.jobs (locked_at) where status = 'running';
create index jobs_account_id_created_at_idx on public.jobs (account_id, created_at desc, id desc);
create index jobs_subject_idx on public.jobs (subject_id, created_at desc) where subject_id is not null;

create table public.job_runs (
  id uuid primary key default gen_random_uuid(),
  job_id uuid not null references public.jobs (id) on delete cascade,
  account_id uuid references public.accounts (id) on delete cascade,
  runner text not null,
  attempt integer not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  outcome text not null default 'running' check (outcome in ('running', 'done', 'retry', 'failed')),
  error text check (length(error) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index job_runs_job_id_idx on public.job_runs (job_id, attempt);
create index job_runs_account_id_created_at_idx on public.job_runs (account_id, created_at desc, id desc);

create trigger jobs_set_updated_at before update on public.jobs
  for each row execute function private.set_updated_at();
create trigger job_runs_set_updated_at before update on public.job_runs
  for each row execute function private.set_updated_at();

alter table public.events enable row level security;
alter table public.jobs enable row level security;
alter table public.job_runs enable row level security;
revoke insert, update, delete, truncate on public.events, public.jobs, public.job_runs from anon, authenticated;
revoke all on public.events, public.jobs, public.job_runs from anon;

create policy "staff read their account's events" on public.events
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "staff read their account's jobs" on public.jobs
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "staff read their account's job runs" on public.job_runs
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));

-- Writing -------------------------------------------------------------------

create or replace function private.emit_event(
  p_account_id uuid, p_kind text, p_resource_type text, p_resource_id uuid, p_payload jsonb default '{}')
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.events (account_id, kind, resource_type, resource_id, payload)
  values (p_account_id, p_kind, p_resource_type, p_resource_id, coalesce(p_payload, '{}'::jsonb))
$$;

-- Queues a job once per idempotency key: a second call with the same key is
-- a no-op and answers null.
create or replace function private.enqueue_job(
  p_kind text, p_account_id uuid, p_payload jsonb, p_idempotency_key text,
  p_subject_id uuid default null, p_run_at timestamptz default now(), p_max_attempts integer default 5)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The runner's (service role) way to queue work itself: the periodic sweeps.
create or replace function public.enqueue_job(
  p_kind text, p_idempotency_key text, p_payload jsonb default '{}', p_account_id uuid default null,
  p_subject_id uuid default null, p_run_at timestamptz default null)
returns uuid
language sql
security definer
set search_path = ''
as $$
  select private.enqueue_job(p_kind, p_account_id, p_payload, p_idempotency_key, p_subject_id, coalesce(p_run_at, now()))
$$;

-- Claiming and finishing ----------------------------------------------------

-- Up to p_limit due jobs, marked running for this runner, each with a run
-- record. `skip locked`: a job another runner is claiming at this moment is
-- passed over, never taken twice. A job left running for 10 minutes (its
-- runner died) is due again.
create or replace function public.claim_jobs(p_runner text, p_limit integer default 10)
returns setof public.jobs
language plpgsql
security definer
set search_path = ''
as $$
begin
  if nullif(btrim(p_runner), '') is null then
    raise exception 'A runner names itself' using errcode = '22023';
  end if;
  return query
  with due as (
    select j.id
      from public.jobs j
     where (j.status = 'queued' and j.run_at <= now())
        or (j.status = 'running' and j.locked_at < now() - interval '10 minutes')
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
$$;

-- The outcome of a claimed job: done (p_error null), retried after
-- 30 s x 2^(attempt-1) (capped at an hour), or failed once its attempts are
-- spent or the error is permanent. Only the runner holding it may finish it.
create or replace function public.finish_job(
  p_job_id uuid, p_runner text, p_error text default null, p_permanent boolean default false)
returns public.jobs
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

revoke all on function private.emit_event(uuid, text, text, uuid, jsonb) from public;
revoke all on function private.enqueue_job(text, uuid, jsonb, text, uuid, timestamptz, integer) from public;
revoke all on function public.enqueue_job(text, text, jsonb, uuid, uuid, timestamptz) from public, anon, authenticated;
revoke all on function public.claim_jobs(text, integer) from public, anon, authenticated;
revoke all on function public.finish_job(uuid, text, text, boolean) from public, anon, authenticated;
grant execute on function public.enqueue_job(text, text, jsonb, uuid, uuid, timestamptz) to service_role;
grant execute on function public.claim_jobs(text, integer) to service_role;
grant execute on function public.finish_job(uuid, text, text, boolean) to service_role;

-- The first events: a lead arrives, a client (contact) is registered ---------

create or replace function private.events_on_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.emit_event(new.account_id, tg_argv[0], tg_table_name, new.id,
                             jsonb_build_object('name', new.name, 'email', new.email));
  return null;
end;
$$;
revoke all on function private.events_on_insert() from public;

create trigger leads_event_created after insert on public.leads
  for each row execute function private.events_on_insert('lead_created');
create trigger contacts_event_registered after insert on public.contacts
  for each row execute function private.events_on_insert('client_registered');
