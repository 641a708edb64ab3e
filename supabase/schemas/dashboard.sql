-- The dashboard's figures, read across features.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── functions ──

create or replace function public.dashboard_overview()
 returns jsonb
 language sql
 stable
 set search_path to ''
as $function$
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
    -- My tasks (decision 080): the signed-in person's open tasks, newest first, ten at most, the tasks
    -- policies deciding (my_open_tasks is invoker's rights, as this function).
    'my_tasks', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title, 'created_at', t.created_at)
                       order by t.created_at desc, t.id desc)
        from public.my_open_tasks(10) t), '[]'::jsonb),
    'getting_started', jsonb_build_object(
      'has_lead', exists (select 1 from public.leads l, me where l.account_id = me.account_id),
      'has_quote', exists (select 1 from public.quotes q, me where q.account_id = me.account_id),
      'has_client', exists (select 1 from public.contacts c, me where c.account_id = me.account_id)
    ),
    'support_queue', (
      select jsonb_build_object(
        'open', count(*),
        'unassigned', count(*) filter (where v.assignee_id is null),
        -- Waiting on us: open (not pending on the customer), and no reply since its last message
        -- (a reply sets last_message_at to its own time; an internal note does not move it).
        'oldest_waiting_at', min(v.last_message_at) filter (
          where v.status = 'open'
            and not exists (select 1 from public.messages m
                             where m.conversation_id = v.id and m.account_id = v.account_id
                               and m.direction = 'outbound' and m.created_at >= v.last_message_at)))
        from public.conversations v, me
       where v.account_id = me.account_id and v.status <> 'resolved')
    -- Decision 083: the average first response (wall clock, as the SLA report's) and CSAT, both of the
    -- last 30 days, by the indexes on (account_id, first_responded_at) and (account_id, answered_at).
    || (select jsonb_build_object(
              'first_responses', count(*),
              'average_first_response_minutes',
                round((extract(epoch from avg(v.first_responded_at - v.created_at)) / 60)::numeric, 1))
          from public.conversations v, me
         where v.account_id = me.account_id and v.first_responded_at >= now() - interval '30 days'
           and v.merged_into_id is null)
    || (select jsonb_build_object('csat_count', count(*), 'csat_average', round(avg(r.score)::numeric, 1))
          from public.csat_responses r, me
         where r.account_id = me.account_id and r.answered_at >= now() - interval '30 days')
  )
$function$;
revoke all on function public.dashboard_overview() from public, anon, authenticated, service_role;
grant execute on function public.dashboard_overview() to authenticated, service_role;
