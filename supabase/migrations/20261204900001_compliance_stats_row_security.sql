-- The compliance cards' per-status counts (private.compliance_stats) came
-- without row-level security; every table of public and private has it on
-- (tests/db/migrations.test.ts). Read only through compliance_summary's
-- security definer, so no policy is needed: on, with nothing granted.
alter table private.compliance_stats enable row level security;
revoke all on table private.compliance_stats from public, anon, authenticated, service_role;
