-- Automations: Run now refuses the two actions that need an event (decision 085).
-- Update Status changes the lead of the event that started the run and Create
-- Invoice invoices the accepted quote of its event; a manual run has none, so
-- queuing one only made a failed run and a 'Failed' automation. The page says
-- why instead of offering the button; this refuses a post made anyway.

create or replace function public.run_automation_now(p_automation_id uuid, p_key text)
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
$$;
