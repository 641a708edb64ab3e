-- Tables no feature of scripts/db-schema/features.ts lists yet.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

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
