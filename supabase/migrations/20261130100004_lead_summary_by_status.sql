-- lead_summary also gives the account's lead count per status, from the
-- lead_stats rollup, so that the Leads list filtered by a status shows its
-- total without counting that status's leads on every view (a common status
-- is a third of an account's leads). Otherwise as in 20261129100003.
-- Its result gains a column, so the function is dropped and made again.

drop function public.lead_summary();

create function public.lead_summary()
returns table (total_count bigint, new_this_week bigint, qualified_count bigint, conversion_rate integer, status_counts jsonb)
language sql stable
security invoker
set search_path = ''
as $$
  with by_status as (
    select s.status, sum(s.lead_count)::bigint as leads
      from public.lead_stats s
     where s.account_id = public.current_account_id()
     group by s.status
  ), figures as (
    select coalesce(sum(b.leads), 0)::bigint as total,
           coalesce(sum(b.leads) filter (where b.status = 'qualified'), 0)::bigint as qualified,
           coalesce(jsonb_object_agg(b.status, b.leads) filter (where b.leads > 0), '{}'::jsonb) as status_counts
      from by_status b
  )
  select f.total,
         (select count(*) from public.leads l
           where l.account_id = public.current_account_id()
             and l.created_at >= now() - interval '7 days')::bigint,
         f.qualified,
         coalesce(round(100.0 * f.qualified / nullif(f.total, 0)), 0)::integer,
         f.status_counts
    from figures f
$$;

revoke all on function public.lead_summary() from public, anon;
grant execute on function public.lead_summary() to authenticated;
