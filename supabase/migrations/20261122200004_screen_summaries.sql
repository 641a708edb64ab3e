-- The summary figures of the dashboard, /leads and /clients, each one RPC
-- (one round trip, one snapshot), computed by SQL aggregates as the caller
-- (security invoker), so RLS scopes every figure to the caller's account.
-- Quote figures come from public.quote_stats (see 20261122200001).

-- Everything the dashboard shows from data, as one JSON object:
--   active_leads      leads not lost
--   quote_pipeline    value (cents) of open quotes: draft, sent, viewed
--   monthly_revenue   sum of monthly_price_applied over active subscriptions
--   account_status    the account's subscription_status, trial_ends_at
--   this_month        quotes created (count, value) and leads created, this UTC month
--   recent_quotes     the 3 newest quotes; recent_leads the 2 newest leads
--   getting_started   whether a lead, a quote and a client exist yet
create or replace function public.dashboard_overview() returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  with me as (
    select public.current_account_id() as account_id
  ), month as (
    select date_trunc('month', now() at time zone 'UTC')::date as start
  )
  select jsonb_build_object(
    'active_leads', (select count(*) from public.leads l, me
                      where l.account_id = me.account_id and l.status <> 'lost'),
    'total_leads', (select count(*) from public.leads l, me where l.account_id = me.account_id),
    'quote_count', (select coalesce(sum(s.quote_count), 0) from public.quote_stats s, me
                     where s.account_id = me.account_id),
    'quote_pipeline', (select coalesce(sum(s.quote_value), 0) from public.quote_stats s, me
                        where s.account_id = me.account_id and s.status in ('draft', 'sent', 'viewed')),
    'monthly_revenue', (select coalesce(sum(am.monthly_price_applied), 0) from public.account_modules am, me
                         where am.account_id = me.account_id and am.status = 'active'),
    'active_modules', (select count(*) from public.account_modules am, me
                        where am.account_id = me.account_id and am.status = 'active'),
    'account_status', (select a.subscription_status from public.accounts a, me where a.id = me.account_id),
    'trial_ends_at', (select a.trial_ends_at from public.accounts a, me where a.id = me.account_id),
    'this_month', jsonb_build_object(
      'quotes', (select coalesce(sum(s.quote_count), 0) from public.quote_stats s, me, month
                  where s.account_id = me.account_id and s.month = month.start),
      'quote_value', (select coalesce(sum(s.quote_value), 0) from public.quote_stats s, me, month
                       where s.account_id = me.account_id and s.month = month.start),
      'leads', (select count(*) from public.leads l, me, month
                 where l.account_id = me.account_id and l.created_at >= (month.start::timestamp at time zone 'UTC'))
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

-- The four cards of /leads. Conversion rate: the share of leads qualified,
-- as a whole percentage.
create or replace function public.lead_summary()
returns table (total_count bigint, new_this_week bigint, qualified_count bigint, conversion_rate integer)
language sql stable
security invoker
set search_path = ''
as $$
  select count(*)::bigint,
         (count(*) filter (where l.created_at >= now() - interval '7 days'))::bigint,
         (count(*) filter (where l.status = 'qualified'))::bigint,
         coalesce(round(100.0 * count(*) filter (where l.status = 'qualified') / nullif(count(*), 0)), 0)::integer
  from public.leads l
  where l.account_id = public.current_account_id()
$$;

-- The four cards of /clients.
create or replace function public.client_summary()
returns table (total_count bigint, active_count bigint, prospect_count bigint, new_this_month bigint)
language sql stable
security invoker
set search_path = ''
as $$
  select count(*)::bigint,
         (count(*) filter (where c.status = 'active'))::bigint,
         (count(*) filter (where c.status = 'prospect'))::bigint,
         (count(*) filter (where c.created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'))::bigint
  from public.contacts c
  where c.account_id = public.current_account_id()
$$;

revoke all on function public.dashboard_overview() from public, anon;
revoke all on function public.lead_summary() from public, anon;
revoke all on function public.client_summary() from public, anon;
grant execute on function public.dashboard_overview() to authenticated;
grant execute on function public.lead_summary() to authenticated;
grant execute on function public.client_summary() to authenticated;
