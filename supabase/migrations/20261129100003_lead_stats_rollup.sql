-- Lead figures that stay flat however many leads an account has, as the
-- quote figures do (quote_stats, 20261122200001). The leads screen's cards and
-- the dashboard's lead counts counted every lead of the account on every view:
-- at 100,000 leads lead_summary took 58 ms and dashboard_overview 76 ms on
-- PGlite (6 ms with the demo data). They now read this rollup, kept by
-- statement triggers: one row per account, status and creation month (UTC).
-- Only "new this week" still counts leads, through the (account, created_at)
-- index: the last seven days' leads, not all of them.

create table public.lead_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  status text not null,
  month date not null,
  lead_count bigint not null default 0,
  primary key (account_id, status, month)
);

alter table public.lead_stats enable row level security;
-- Leads are staff's to read (20261124100001), and so are their figures.
create policy "staff read their account's lead figures" on public.lead_stats
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
-- Only the triggers below write it.
revoke all on public.lead_stats from anon, authenticated;
grant select on public.lead_stats to authenticated;

-- Adds the inserted leads (upsert, in key order so concurrent statements lock
-- rows in the same order).
create or replace function private.lead_stats_after_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.lead_stats as s (account_id, status, month, lead_count)
  select n.account_id, n.status, private.quote_month(n.created_at), count(*)
    from inserted n
   group by 1, 2, 3
   order by 1, 2, 3
  on conflict (account_id, status, month) do update
    set lead_count = s.lead_count + excluded.lead_count;
  return null;
end;
$$;

-- Takes the deleted leads away. Only an update: when the account itself is
-- being deleted its rollup rows are already gone, and must stay so.
create or replace function private.lead_stats_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.lead_stats s
     set lead_count = s.lead_count - d.lead_count
    from (select o.account_id, o.status, private.quote_month(o.created_at) as month, count(*) as lead_count
            from removed o
           group by 1, 2, 3) d
   where s.account_id = d.account_id and s.status = d.status and s.month = d.month;
  return null;
end;
$$;

-- An update moves a lead's count from its old key to its new one (a status
-- change, say).
create or replace function private.lead_stats_after_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with changes as (
    select o.account_id, o.status, private.quote_month(o.created_at) as month, -1 as n from removed o
    union all
    select n.account_id, n.status, private.quote_month(n.created_at), 1 from inserted n
  ), summed as (
    select account_id, status, month, sum(n)::bigint as lead_count
      from changes group by 1, 2, 3
     having sum(n) <> 0
  )
  insert into public.lead_stats as s (account_id, status, month, lead_count)
  select account_id, status, month, lead_count from summed order by 1, 2, 3
  on conflict (account_id, status, month) do update
    set lead_count = s.lead_count + excluded.lead_count;
  return null;
end;
$$;

create trigger leads_stats_after_insert after insert on public.leads
  referencing new table as inserted
  for each statement execute function private.lead_stats_after_insert();
create trigger leads_stats_after_delete after delete on public.leads
  referencing old table as removed
  for each statement execute function private.lead_stats_after_delete();
create trigger leads_stats_after_update after update on public.leads
  referencing old table as removed new table as inserted
  for each statement execute function private.lead_stats_after_update();

-- Whatever leads exist already.
insert into public.lead_stats (account_id, status, month, lead_count)
select account_id, status, private.quote_month(created_at), count(*)
  from public.leads
 group by 1, 2, 3;

-- The leads screen's cards, from the rollup (same signature and meaning).
create or replace function public.lead_summary()
returns table (total_count bigint, new_this_week bigint, qualified_count bigint, conversion_rate integer)
language sql stable
security invoker
set search_path = ''
as $$
  with figures as (
    select coalesce(sum(s.lead_count), 0)::bigint as total,
           coalesce(sum(s.lead_count) filter (where s.status = 'qualified'), 0)::bigint as qualified
      from public.lead_stats s
     where s.account_id = public.current_account_id()
  )
  select f.total,
         (select count(*) from public.leads l
           where l.account_id = public.current_account_id()
             and l.created_at >= now() - interval '7 days')::bigint,
         f.qualified,
         coalesce(round(100.0 * f.qualified / nullif(f.total, 0)), 0)::integer
    from figures f
$$;

-- The dashboard, its lead counts from the rollup (otherwise as in 20261125200001).
create or replace function public.dashboard_overview() returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  with me as (
    select public.current_account_id() as account_id
  ), month as (
    select date_trunc('month', now() at time zone 'UTC')::date as start
  ), stats as (
    select s.* from public.quote_stats s, me where s.account_id = me.account_id
  ), lead_figures as (
    select s.* from public.lead_stats s, me where s.account_id = me.account_id
  )
  select jsonb_build_object(
    'active_leads', (select coalesce(sum(s.lead_count), 0) from lead_figures s where s.status <> 'lost'),
    'total_leads', (select coalesce(sum(s.lead_count), 0) from lead_figures s),
    'quote_count', (select coalesce(sum(s.quote_count), 0) from stats s),
    'quote_pipeline', coalesce((
           select jsonb_agg(jsonb_build_object('currency', g.currency, 'count', g.n, 'value', g.v, 'average', round(g.v / g.n))
                            order by g.n desc, g.currency)
             from (select s.currency, sum(s.quote_count) as n, sum(s.quote_value) as v
                     from stats s where s.status in ('draft', 'sent', 'viewed') group by s.currency having sum(s.quote_count) > 0) g), '[]'::jsonb),
    'monthly_revenue', (select coalesce(sum(am.monthly_price_applied), 0) from public.account_modules am, me
                         where am.account_id = me.account_id and am.status = 'active'),
    'active_modules', (select count(*) from public.account_modules am, me
                        where am.account_id = me.account_id and am.status = 'active'),
    'modules', coalesce((
       select jsonb_agg(jsonb_build_object('key', m.key, 'name', m.name, 'status', am.status) order by m.name)
         from public.account_modules am
         cross join me
         join public.modules m on m.id = am.module_id
        where am.account_id = me.account_id and am.status <> 'cancelled'), '[]'::jsonb),
    'account_status', (select a.subscription_status from public.accounts a, me where a.id = me.account_id),
    'trial_ends_at', (select a.trial_ends_at from public.accounts a, me where a.id = me.account_id),
    'first_visit', coalesce((select u.previous_login_at is null from public.users u
                              where u.auth_user_id = (select auth.uid())), false),
    'this_month', jsonb_build_object(
      'quotes', (select coalesce(sum(s.quote_count), 0) from stats s, month where s.month = month.start),
      'quote_value', coalesce((
           select jsonb_agg(jsonb_build_object('currency', g.currency, 'count', g.n, 'value', g.v, 'average', round(g.v / g.n))
                            order by g.n desc, g.currency)
             from (select s.currency, sum(s.quote_count) as n, sum(s.quote_value) as v
                     from stats s, month where s.month = month.start group by s.currency having sum(s.quote_count) > 0) g), '[]'::jsonb),
      'leads', (select coalesce(sum(s.lead_count), 0) from lead_figures s, month where s.month = month.start)
    ),
    'recent_quotes', coalesce((
      select jsonb_agg(r order by r.created_at desc) from (
        select q.id, q.quote_number, q.total, q.currency, q.status, q.created_at, c.name as contact_name
          from public.quotes q
          cross join me
          left join public.contacts c on c.id = q.contact_id
         where q.account_id = me.account_id
         order by q.created_at desc, q.id desc
         limit 3) r), '[]'::jsonb),
    'recent_leads', coalesce((
      select jsonb_agg(r order by r.created_at desc) from (
        select l.id, l.name, l.company, l.status, l.created_at
          from public.leads l, me
         where l.account_id = me.account_id
         order by l.created_at desc, l.id desc
         limit 2) r), '[]'::jsonb),
    'getting_started', jsonb_build_object(
      'has_lead', exists (select 1 from public.leads l, me where l.account_id = me.account_id),
      'has_quote', exists (select 1 from public.quotes q, me where q.account_id = me.account_id),
      'has_client', exists (select 1 from public.contacts c, me where c.account_id = me.account_id)
    )
  )
$$;
revoke all on function public.dashboard_overview() from public, anon;
grant execute on function public.dashboard_overview() to authenticated;
