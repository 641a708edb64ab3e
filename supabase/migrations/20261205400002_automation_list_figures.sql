-- The Automations list's run count and success rate (decision 080): each
-- automation with how many of its runs are done (succeeded, skipped or failed)
-- and how many succeeded, read in the list's one query. security_invoker: the
-- caller's RLS on automations and automation_runs applies, as when reading
-- the tables (the counts use automation_runs_automation_idx).
create view public.automation_list with (security_invoker = true) as
select a.id,
       a.account_id,
       a.name,
       a.trigger_kind,
       a.action_kind,
       a.status,
       a.last_error,
       a.created_at,
       (select count(*) from public.automation_runs r
         where r.automation_id = a.id and r.status in ('succeeded', 'skipped', 'failed'))::integer as run_count,
       (select count(*) from public.automation_runs r
         where r.automation_id = a.id and r.status = 'succeeded')::integer as succeeded_count
  from public.automations a;

revoke all on public.automation_list from anon, authenticated;
grant select on public.automation_list to authenticated;
