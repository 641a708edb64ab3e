-- Automations: the loop guard (decision 085).
-- An automation whose action emits its own trigger (directly, or through a
-- chain of automations) would run forever. Every event now carries its
-- automation depth: 0 for an event of a person's or a module's own doing, and
-- d + 1 for an event written while an automation ran on an event of depth d.
-- A run whose event is at the limit (depth 3) is recorded `skipped` with the
-- reason and its action is never performed: a chain stops after three runs.
--
-- The depth reaches the events through a transaction-local setting
-- (opshub.automation_depth) that private.automation_attempt sets around the
-- action only, so every event the action's writes emit (the invoices' own
-- triggers, any module's) is stamped by the events' before-insert trigger,
-- without each emitter knowing about automations.

alter table public.events
  add column automation_depth smallint not null default 0 check (automation_depth between 0 and 1000),
  -- The run whose action wrote the event (no foreign key: the outbox is append-only
  -- and outlives a deleted automation's runs).
  add column caused_by_run_id uuid;

create function private.automation_max_depth() returns integer language sql immutable set search_path = '' as $$ select 3 $$;

-- Stamps the event with the depth and run of the automation action writing it
-- (none outside an action). A malformed setting counts as none.
create function private.events_stamp_automation_depth() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_depth text := current_setting('opshub.automation_depth', true);
  v_run text := current_setting('opshub.automation_run', true);
begin
  new.automation_depth := case when v_depth ~ '^[0-9]{1,3}$' then v_depth::smallint else 0 end;
  new.caused_by_run_id := case when v_run ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then v_run::uuid end;
  return new;
end;
$$;
revoke all on function private.events_stamp_automation_depth() from public;
create trigger events_stamp_automation_depth before insert on public.events
  for each row execute function private.events_stamp_automation_depth();

-- One attempt of a run (decision 080), with the loop guard: a run on an event at
-- the limit is skipped with the reason; otherwise the action runs with the
-- depth of its event plus one, which the events it writes carry.
create or replace function private.automation_attempt(p_run public.automation_runs) returns public.automation_runs
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
$$;
revoke all on function private.automation_attempt(public.automation_runs) from public;
