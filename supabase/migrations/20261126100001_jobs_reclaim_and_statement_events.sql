-- Jobs and events, after review (decision 021).
--
-- 1. A job whose runner died: reclaiming it closes the dead runner's run
--    record ('abandoned') instead of leaving it 'running' for ever, and a job
--    that has spent its attempts fails there rather than running once more.
-- 2. The events triggers fire once per statement over a transition table, so
--    a bulk insert of 10,000 leads writes its 10,000 events in one statement.
-- 3. Only the account's admins read its jobs and their run records: a job's
--    payload is the mail it sends, which members and auditors need not read.
-- 4. Unused: events.updated_at (events never change) and the index on
--    events.resource_id (no query reads events by resource).

-- 1. Reclaiming -------------------------------------------------------------

alter table public.job_runs drop constraint job_runs_outcome_check;
alter table public.job_runs add constraint job_runs_outcome_check
  check (outcome in ('running', 'done', 'retry', 'failed', 'abandoned'));

-- Jobs left running for 10 minutes: their runner died (or lost its database
-- connection) before recording an outcome. The attempt it made stays counted
-- (claim_jobs counted it); its run record is closed as abandoned; the job is
-- queued again, or failed when that was its last attempt. `skip locked`: a
-- job another runner is reclaiming or finishing at this moment is left to it.
create or replace function private.reclaim_stale_jobs()
returns void
language sql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.reclaim_stale_jobs() from public;

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
$$;

-- 2. Events per statement ---------------------------------------------------

create or replace function private.events_on_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.events (account_id, kind, resource_type, resource_id, payload)
  select n.account_id, tg_argv[0], tg_table_name, n.id, jsonb_build_object('name', n.name, 'email', n.email)
    from new_rows n;
  return null;
end;
$$;
revoke all on function private.events_on_insert() from public;

drop trigger leads_event_created on public.leads;
drop trigger contacts_event_registered on public.contacts;
create trigger leads_event_created after insert on public.leads
  referencing new table as new_rows
  for each statement execute function private.events_on_insert('lead_created');
create trigger contacts_event_registered after insert on public.contacts
  referencing new table as new_rows
  for each statement execute function private.events_on_insert('client_registered');

-- 3. Admins read the account's jobs -----------------------------------------

drop policy "staff read their account's jobs" on public.jobs;
drop policy "staff read their account's job runs" on public.job_runs;
create policy "admins read their account's jobs" on public.jobs
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));
create policy "admins read their account's job runs" on public.job_runs
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));

-- The admins' list of failed jobs (the Integrations screen).
create index jobs_failed_idx on public.jobs (account_id, updated_at desc, id desc) where status = 'failed';

-- 4. Unused -----------------------------------------------------------------

drop index public.events_resource_idx;
alter table public.events drop column updated_at;
