-- The audit log screen, flat in cost as the log grows (measured at 100,000
-- entries on PGlite; bench/README.md, "Business screens").
--
-- It offers every action its account's log holds as a filter, and reads that
-- list on every view. `select distinct action` read every entry of the
-- account to find the dozen or so actions there are (35 ms a view at 100,000
-- entries). And a filter by a rare action walked the whole log by date
-- looking for it (24 ms). One index on (account, action, date) serves both:
-- the filtered page reads its entries from it in order, and the list of
-- actions is found by skipping through it, the first action, then the first
-- one after it, and so on: one index probe per action, whatever the number
-- of entries.
--
-- The unfiltered page, newest first with the id breaking ties, sorted every
-- entry that shared the newest time before it could return its first rows:
-- entries written in one transaction (an import, the bench's 100,000 quotes)
-- share their time, and the page took 104 ms. Its index now holds the id too.
create index audit_logs_account_id_action_created_at_idx
  on public.audit_logs (account_id, action, created_at desc, id desc);
create index audit_logs_account_id_created_at_id_idx
  on public.audit_logs (account_id, created_at desc, id desc);
drop index public.audit_logs_account_id_created_at_idx;

create or replace function public.audit_log_actions()
returns table (action text)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if not public.can_read_settings() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  return query
    with recursive found (action) as (
      (select l.action from public.audit_logs l
        where l.account_id = v_account
        order by l.action limit 1)
      union all
      select (select l.action from public.audit_logs l
               where l.account_id = v_account and l.action > found.action
               order by l.action limit 1)
        from found
       where found.action is not null
    )
    select found.action from found where found.action is not null order by found.action;
end;
$$;
revoke all on function public.audit_log_actions() from public, anon;
grant execute on function public.audit_log_actions() to authenticated, service_role;
