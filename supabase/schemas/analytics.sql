-- The analytics screen's figures over a date range, read across features.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── private.lead_day_stats ──

create table private.lead_day_stats (
  account_id uuid not null,
  day date not null,
  source text not null,
  status text not null,
  lead_count bigint default 0 not null,
  constraint lead_day_stats_pkey primary key (account_id, day, source, status),
  constraint lead_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.lead_day_stats enable row level security;

revoke all on table private.lead_day_stats from public, anon, authenticated, service_role;

-- ── private.contact_day_stats ──

create table private.contact_day_stats (
  account_id uuid not null,
  day date not null,
  contact_count bigint default 0 not null,
  constraint contact_day_stats_pkey primary key (account_id, day),
  constraint contact_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.contact_day_stats enable row level security;

revoke all on table private.contact_day_stats from public, anon, authenticated, service_role;

-- ── private.conversation_day_stats ──

create table private.conversation_day_stats (
  account_id uuid not null,
  day date not null,
  conversation_count bigint default 0 not null,
  constraint conversation_day_stats_pkey primary key (account_id, day),
  constraint conversation_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.conversation_day_stats enable row level security;

revoke all on table private.conversation_day_stats from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function public.analytics_activity(p_start timestamp with time zone, p_end timestamp with time zone)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  -- First UTC midnight at or after the start; last UTC midnight at or before the end.
  v_d0 date := (p_start at time zone 'UTC')::date
               + case when (p_start at time zone 'UTC')::time = '00:00' then 0 else 1 end;
  v_d1 date := (p_end at time zone 'UTC')::date;
  v_mid_start timestamptz;
  v_mid_end timestamptz;
  v_result jsonb;
begin
  if v_account is null or not public.is_account_staff() then
    raise exception 'analytics are for the account''s staff' using errcode = '42501';
  end if;
  if v_d1 < v_d0 then
    -- Less than a whole UTC day: no middle, all of it is edge.
    v_d1 := v_d0;
    v_mid_start := p_end;
    v_mid_end := p_end;
  else
    v_mid_start := v_d0::timestamp at time zone 'UTC';
    v_mid_end := v_d1::timestamp at time zone 'UTC';
  end if;

  with leads as (
    select s.source, s.status, s.lead_count as n
      from private.lead_day_stats s
     where s.account_id = v_account and s.day >= v_d0 and s.day < v_d1 and s.lead_count <> 0
    union all
    select l.source, l.status, count(*)
      from public.leads l
     where l.account_id = v_account
       and ((l.created_at >= p_start and l.created_at < least(v_mid_start, p_end))
         or (l.created_at >= greatest(v_mid_end, p_start) and l.created_at < p_end))
     group by 1, 2
  )
  select jsonb_build_object(
    'leads', jsonb_build_object(
      'total', (select coalesce(sum(n), 0) from leads),
      'by_source', coalesce((select jsonb_object_agg(x.source, x.n)
                               from (select source, sum(n) as n from leads group by 1 having sum(n) <> 0) x), '{}'::jsonb),
      'by_status', coalesce((select jsonb_object_agg(x.status, x.n)
                               from (select status, sum(n) as n from leads group by 1 having sum(n) <> 0) x), '{}'::jsonb)),
    'new_clients',
      (select coalesce(sum(s.contact_count), 0) from private.contact_day_stats s
        where s.account_id = v_account and s.day >= v_d0 and s.day < v_d1)
      + (select count(*) from public.contacts c
          where c.account_id = v_account
            and ((c.created_at >= p_start and c.created_at < least(v_mid_start, p_end))
              or (c.created_at >= greatest(v_mid_end, p_start) and c.created_at < p_end))),
    'conversations',
      (select coalesce(sum(s.conversation_count), 0) from private.conversation_day_stats s
        where s.account_id = v_account and s.day >= v_d0 and s.day < v_d1)
      + (select count(*) from public.conversations c
          where c.account_id = v_account
            and ((c.created_at >= p_start and c.created_at < least(v_mid_start, p_end))
              or (c.created_at >= greatest(v_mid_end, p_start) and c.created_at < p_end))),
    -- Overdue now, per currency: from private.invoice_totals (per currency
    -- and status, kept by the invoices' trigger), not every overdue invoice.
    'overdue', coalesce((
      select jsonb_agg(jsonb_build_object('currency', t.currency, 'overdue_count', t.invoice_count,
                                          'overdue', t.total_sum - t.paid_sum) order by t.currency)
        from private.invoice_totals t
       where t.account_id = v_account and t.status = 'overdue' and t.invoice_count <> 0), '[]'::jsonb)
  ) into v_result;
  return v_result;
end;
$function$;
revoke all on function public.analytics_activity(p_start timestamp with time zone, p_end timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.analytics_activity(p_start timestamp with time zone, p_end timestamp with time zone) to authenticated, service_role;

create or replace function public.analytics_figures(p_from date, p_to date)
 returns jsonb
 language plpgsql
 stable
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_tz text;
  v_start timestamptz;
  v_end timestamptz;
  v_result jsonb;
  v_activity jsonb;
begin
  if v_account is null or not public.is_account_staff() then
    raise exception 'analytics are for the account''s staff' using errcode = '42501';
  end if;
  if p_from is null or p_to is null or p_to < p_from then
    raise exception 'the range must end on or after its start' using errcode = '22023';
  end if;
  if p_to - p_from > 3660 then
    raise exception 'the range is at most ten years' using errcode = '22023';
  end if;
  select coalesce(a.timezone, 'UTC') into v_tz from public.accounts a where a.id = v_account;
  v_start := p_from::timestamp at time zone v_tz;
  v_end := (p_to + 1)::timestamp at time zone v_tz;
  v_activity := public.analytics_activity(v_start, v_end);

  select jsonb_build_object(
    'from', p_from,
    'to', p_to,
    'timezone', v_tz,
    -- Sales: quotes made in the range, per currency; conversion is signed ÷
    -- sent among them (decision 018).
    'sales', coalesce((
      select jsonb_agg(jsonb_build_object(
               'currency', q.currency,
               'quotes', q.quotes,
               'value', q.value,
               'sent', q.sent,
               'signed', q.signed,
               'signed_value', q.signed_value,
               'pipeline_value', q.pipeline_value) order by q.currency)
        from (select qu.currency,
                     count(*) as quotes,
                     coalesce(sum(qu.total), 0) as value,
                     count(*) filter (where qu.sent_at is not null) as sent,
                     count(*) filter (where qu.status = 'signed') as signed,
                     coalesce(sum(qu.total) filter (where qu.status = 'signed'), 0) as signed_value,
                     coalesce(sum(qu.total) filter (where qu.status in ('sent', 'viewed')), 0) as pipeline_value
                from public.quotes qu
               where qu.account_id = v_account and qu.created_at >= v_start and qu.created_at < v_end
               group by qu.currency) q), '[]'::jsonb),
    -- Cash: invoiced (issued, not void) in the range, collected (payments
    -- dated in the range, in their invoice's currency), overdue now, and the
    -- average days from sending to full payment of the range's invoices.
    'cash', coalesce((
      select jsonb_agg(jsonb_build_object(
               'currency', c.currency,
               'invoiced', coalesce(i.invoiced, 0),
               'invoices', coalesce(i.invoices, 0),
               'collected', coalesce(p.collected, 0),
               'overdue', coalesce(o.overdue, 0),
               'overdue_count', coalesce(o.overdue_count, 0),
               'days_to_pay', i.days_to_pay) order by c.currency)
        from (select unnest(array['USD', 'EUR', 'GBP']) as currency) c
        left join (select iv.currency, count(*) as invoices, sum(iv.total) as invoiced,
                          round(avg(extract(epoch from iv.paid_at - iv.sent_at) / 86400)
                                filter (where iv.paid_at is not null and iv.sent_at is not null), 1) as days_to_pay
                     from public.invoices iv
                    where iv.account_id = v_account and iv.created_at >= v_start and iv.created_at < v_end
                      and iv.status not in ('draft', 'void')
                    group by iv.currency) i on i.currency = c.currency
        left join (select iv.currency, sum(pa.amount) as collected
                     from public.payments pa
                     join public.invoices iv on iv.id = pa.invoice_id and iv.account_id = pa.account_id
                    where pa.account_id = v_account and pa.paid_on between p_from and p_to
                    group by iv.currency) p on p.currency = c.currency
        left join (select x.currency, x.overdue_count, x.overdue
                     from jsonb_to_recordset(v_activity -> 'overdue') as x(currency text, overdue_count bigint, overdue numeric)
                  ) o on o.currency = c.currency
       where i.currency is not null or p.currency is not null or o.currency is not null), '[]'::jsonb),
    -- Leads by source and status, new clients and conversations: from the
    -- per-day rollups (analytics_activity, 20261204510001).
    'leads', v_activity -> 'leads',
    'clients', jsonb_build_object('new_clients', v_activity -> 'new_clients'),
    'helpdesk', jsonb_build_object('conversations', v_activity -> 'conversations')
  ) into v_result;
  return v_result;
end;
$function$;
revoke all on function public.analytics_figures(p_from date, p_to date) from public, anon, authenticated, service_role;
grant execute on function public.analytics_figures(p_from date, p_to date) to authenticated, service_role;

create or replace function public.analytics_page(p_range text, p_from date default null::date, p_to date default null::date)
 returns jsonb
 language plpgsql
 stable
 set search_path to ''
as $function$
declare
  v_today date;
  v_from date;
  v_to date;
  v_days integer;
begin
  select (now() at time zone coalesce(a.timezone, 'UTC'))::date into v_today
    from public.accounts a where a.id = public.current_account_id();
  v_today := coalesce(v_today, (now() at time zone 'UTC')::date);
  case p_range
    when 'last_7_days' then v_from := v_today - 6; v_to := v_today;
    when 'last_30_days' then v_from := v_today - 29; v_to := v_today;
    when 'last_quarter' then
      v_to := (date_trunc('quarter', v_today::timestamp))::date - 1;
      v_from := (date_trunc('quarter', v_to::timestamp))::date;
    when 'last_year' then v_from := v_today - 364; v_to := v_today;
    when 'custom' then v_from := p_from; v_to := p_to;
    else raise exception 'unknown range %', p_range using errcode = '22023';
  end case;
  if v_from is null or v_to is null or v_to < v_from then
    raise exception 'the range must end on or after its start' using errcode = '22023';
  end if;
  v_days := v_to - v_from + 1;
  return jsonb_build_object(
    'range', p_range,
    'current', public.analytics_figures(v_from, v_to),
    'previous', public.analytics_figures(v_from - v_days, v_from - 1));
end;
$function$;
revoke all on function public.analytics_page(p_range text, p_from date, p_to date) from public, anon, authenticated, service_role;
grant execute on function public.analytics_page(p_range text, p_from date, p_to date) to authenticated, service_role;
