-- SLA met % and CSAT on /analytics (issue 40, decision 088), read flat as
-- the account grows like the other figures (decision 081): one per-UTC-day
-- rollup, private.helpdesk_day_stats, kept by triggers on the helpdesk's
-- tables (read only: nothing of the helpdesk's own changes), and the two
-- part-day edges from the rows through (account_id, deadline) indexes.
--  - SLA met %: of the first-response and resolution targets that fell due
--    in the range, those met. A target is counted on its deadline's day
--    (conversations.first_response_due_at, resolution_due_at): met when it
--    was done by the deadline (first_responded_at / resolved_at at or before
--    it; merged-away conversations left out, as the helpdesk's report does),
--    missed when the helpdesk recorded a breach of it (sla_breaches, by
--    due_at). 'Next response' targets are not counted: a met one leaves no
--    trace once answered.
--  - CSAT: the answers given in the range (csat_responses.answered_at): their
--    count and the sum of their scores (the mean is sum ÷ count).

create table private.helpdesk_day_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  day date not null,
  sla_met_count bigint not null default 0,
  sla_missed_count bigint not null default 0,
  csat_count bigint not null default 0,
  csat_sum bigint not null default 0,
  primary key (account_id, day)
);
alter table private.helpdesk_day_stats enable row level security;
revoke all on private.helpdesk_day_stats from public, anon, authenticated, service_role;

-- Adds a delta to one day's row (deletes only subtract, so an account's deletion leaves nothing behind).
create function private.bump_helpdesk_day_stats(p_account uuid, p_at timestamptz, p_met int, p_missed int, p_csat int, p_score int)
returns void
language plpgsql security definer set search_path = '' as $$
begin
  -- Each call's deltas share one sign: adding may make the row, subtracting only updates it.
  if p_met > 0 or p_missed > 0 or p_csat > 0 then
    insert into private.helpdesk_day_stats as s (account_id, day, sla_met_count, sla_missed_count, csat_count, csat_sum)
    values (p_account, (p_at at time zone 'UTC')::date, p_met, p_missed, p_csat, p_score)
    on conflict (account_id, day) do update
      set sla_met_count = s.sla_met_count + excluded.sla_met_count,
          sla_missed_count = s.sla_missed_count + excluded.sla_missed_count,
          csat_count = s.csat_count + excluded.csat_count,
          csat_sum = s.csat_sum + excluded.csat_sum;
  else
    update private.helpdesk_day_stats s
       set sla_met_count = s.sla_met_count + p_met, sla_missed_count = s.sla_missed_count + p_missed,
           csat_count = s.csat_count + p_csat, csat_sum = s.csat_sum + p_score
     where s.account_id = p_account and s.day = (p_at at time zone 'UTC')::date;
  end if;
end;
$$;

-- Met targets. No column list on the trigger: the deadlines and resolved_at
-- are set by the helpdesk's before triggers, which an 'update of' list does
-- not see.
create function private.roll_helpdesk_sla_day_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.first_response_due_at, old.first_responded_at, old.resolution_due_at, old.resolved_at, old.merged_into_id)
         is not distinct from
         (new.account_id, new.first_response_due_at, new.first_responded_at, new.resolution_due_at, new.resolved_at, new.merged_into_id) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.merged_into_id is null then
    if old.first_responded_at <= old.first_response_due_at then
      perform private.bump_helpdesk_day_stats(old.account_id, old.first_response_due_at, -1, 0, 0, 0);
    end if;
    if old.resolved_at <= old.resolution_due_at then
      perform private.bump_helpdesk_day_stats(old.account_id, old.resolution_due_at, -1, 0, 0, 0);
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.merged_into_id is null then
    if new.first_responded_at <= new.first_response_due_at then
      perform private.bump_helpdesk_day_stats(new.account_id, new.first_response_due_at, 1, 0, 0, 0);
    end if;
    if new.resolved_at <= new.resolution_due_at then
      perform private.bump_helpdesk_day_stats(new.account_id, new.resolution_due_at, 1, 0, 0, 0);
    end if;
  end if;
  return null;
end;
$$;
create trigger conversations_roll_helpdesk_day_stats after insert or delete or update
  on public.conversations for each row execute function private.roll_helpdesk_sla_day_stats();

-- Missed targets: the helpdesk's breach rows of first response and resolution.
create function private.roll_helpdesk_breach_day_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.target in ('first_response', 'resolution') then
    perform private.bump_helpdesk_day_stats(old.account_id, old.due_at, 0, -1, 0, 0);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.target in ('first_response', 'resolution') then
    perform private.bump_helpdesk_day_stats(new.account_id, new.due_at, 0, 1, 0, 0);
  end if;
  return null;
end;
$$;
create trigger sla_breaches_roll_helpdesk_day_stats after insert or delete or update of account_id, target, due_at
  on public.sla_breaches for each row execute function private.roll_helpdesk_breach_day_stats();

-- CSAT answers, by the day they were given.
create function private.roll_helpdesk_csat_day_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and (old.account_id, old.answered_at, old.score) is not distinct from (new.account_id, new.answered_at, new.score) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.answered_at is not null then
    perform private.bump_helpdesk_day_stats(old.account_id, old.answered_at, 0, 0, -1, -old.score);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.answered_at is not null then
    perform private.bump_helpdesk_day_stats(new.account_id, new.answered_at, 0, 0, 1, new.score);
  end if;
  return null;
end;
$$;
create trigger csat_responses_roll_helpdesk_day_stats after insert or delete or update of account_id, answered_at, score
  on public.csat_responses for each row execute function private.roll_helpdesk_csat_day_stats();

revoke all on function private.bump_helpdesk_day_stats(uuid, timestamptz, int, int, int, int), private.roll_helpdesk_sla_day_stats(),
  private.roll_helpdesk_breach_day_stats(), private.roll_helpdesk_csat_day_stats() from public, anon, authenticated, service_role;

-- The two part-day edges read the rows by deadline / due date (answered_at has its index already).
create index conversations_account_first_response_due_idx on public.conversations (account_id, first_response_due_at);
create index conversations_account_resolution_due_idx on public.conversations (account_id, resolution_due_at);
create index sla_breaches_account_due_idx on public.sla_breaches (account_id, due_at);

-- Rebuilds one account's helpdesk rollup from the rows (rows written with triggers off: tests, the bench), and fills it now.
create function private.rebuild_analytics_helpdesk_rollup(p_account uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  delete from private.helpdesk_day_stats where account_id = p_account;
  insert into private.helpdesk_day_stats (account_id, day, sla_met_count, sla_missed_count, csat_count, csat_sum)
  select p_account, x.day, sum(x.met), sum(x.missed), sum(x.n), sum(x.score)
    from (select (c.first_response_due_at at time zone 'UTC')::date as day, 1 as met, 0 as missed, 0 as n, 0 as score
            from public.conversations c
           where c.account_id = p_account and c.merged_into_id is null and c.first_responded_at <= c.first_response_due_at
          union all
          select (c.resolution_due_at at time zone 'UTC')::date, 1, 0, 0, 0
            from public.conversations c
           where c.account_id = p_account and c.merged_into_id is null and c.resolved_at <= c.resolution_due_at
          union all
          select (b.due_at at time zone 'UTC')::date, 0, 1, 0, 0
            from public.sla_breaches b
           where b.account_id = p_account and b.target in ('first_response', 'resolution')
          union all
          select (r.answered_at at time zone 'UTC')::date, 0, 0, 1, r.score
            from public.csat_responses r
           where r.account_id = p_account and r.answered_at is not null) x
   group by x.day;
end;
$$;
revoke all on function private.rebuild_analytics_helpdesk_rollup(uuid) from public, anon, authenticated, service_role;
select private.rebuild_analytics_helpdesk_rollup(a.id) from public.accounts a;

-- analytics_activity and analytics_figures as in 20261205500008, with 'sla' and 'csat'.
create or replace function public.analytics_activity(p_start timestamptz, p_end timestamptz, p_from date default null, p_to date default null)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  -- First UTC midnight at or after the start; last UTC midnight at or before the end.
  v_d0 date := (p_start at time zone 'UTC')::date
               + case when (p_start at time zone 'UTC')::time = '00:00' then 0 else 1 end;
  v_d1 date := (p_end at time zone 'UTC')::date;
  -- The two edges: [p_start, v_e0) and [v_e1, p_end).
  v_e0 timestamptz;
  v_e1 timestamptz;
  -- Whole UTC months [v_m0, v_m1) inside the whole days; the days [v_d0, v_m0) and [v_m1, v_d1) around them.
  v_m0 date;
  v_m1 date;
  -- The same for the payment dates [p_from, p_to]: months [v_p0, v_p1), days around them.
  v_p0 date;
  v_p1 date;
  v_result jsonb;
  v_today date;
begin
  if v_account is null or not public.is_account_staff() then
    raise exception 'analytics are for the account''s staff' using errcode = '42501';
  end if;
  select (now() at time zone coalesce(a.timezone, 'UTC'))::date into v_today from public.accounts a where a.id = v_account;
  if v_d1 < v_d0 then
    -- Less than a whole UTC day: no middle, all of it is one edge.
    v_d1 := v_d0;
    v_e0 := p_end;
    v_e1 := p_end;
  else
    v_e0 := least(v_d0::timestamp at time zone 'UTC', p_end);
    v_e1 := greatest(v_d1::timestamp at time zone 'UTC', p_start);
  end if;
  v_m0 := case when extract(day from v_d0) = 1 then v_d0 else (date_trunc('month', v_d0) + interval '1 month')::date end;
  v_m1 := date_trunc('month', v_d1)::date;
  if v_m1 <= v_m0 then
    v_m0 := v_d1;
    v_m1 := v_d1;
  end if;
  if p_from is not null and p_to is not null then
    v_p0 := case when extract(day from p_from) = 1 then p_from else (date_trunc('month', p_from) + interval '1 month')::date end;
    v_p1 := date_trunc('month', p_to + 1)::date;
    if v_p1 <= v_p0 then
      v_p0 := p_to + 1;
      v_p1 := p_to + 1;
    end if;
  end if;

  with leads as (
    select s.source, s.status, s.lead_count as n
      from private.lead_month_stats s
     where s.account_id = v_account and s.month >= v_m0 and s.month < v_m1 and s.lead_count <> 0
    union all
    select s.source, s.status, s.lead_count as n
      from private.lead_day_stats s
     where s.account_id = v_account and s.lead_count <> 0
       and ((s.day >= v_d0 and s.day < v_m0) or (s.day >= v_m1 and s.day < v_d1))
    union all
    select l.source, l.status, count(*)
      from public.leads l
     where l.account_id = v_account
       and ((l.created_at >= p_start and l.created_at < v_e0) or (l.created_at >= v_e1 and l.created_at < p_end))
     group by 1, 2
  ),
  invoiced as (
    select x.currency, sum(x.n) as n, sum(x.total) as total, sum(x.paid_n) as paid_n, sum(x.secs) as secs
      from (select s.currency, s.invoice_count as n, s.total_sum as total, s.paid_count as paid_n, s.pay_seconds as secs
              from private.invoice_month_stats s
             where s.account_id = v_account and s.month >= v_m0 and s.month < v_m1
            union all
            select s.currency, s.invoice_count, s.total_sum, s.paid_count, s.pay_seconds
              from private.invoice_day_stats s
             where s.account_id = v_account and ((s.day >= v_d0 and s.day < v_m0) or (s.day >= v_m1 and s.day < v_d1))
            union all
            select i.currency, 1, i.total,
                   case when i.paid_at is not null and i.sent_at is not null then 1 else 0 end,
                   coalesce(extract(epoch from i.paid_at - i.sent_at), 0)
              from public.invoices i
             where i.account_id = v_account and i.status not in ('draft', 'void')
               and ((i.created_at >= p_start and i.created_at < v_e0) or (i.created_at >= v_e1 and i.created_at < p_end))) x
     group by 1 having sum(x.n) <> 0
  ),
  convs as (
    select coalesce(sum(x.n), 0) as n, coalesce(sum(x.responded), 0) as responded, coalesce(sum(x.secs), 0) as secs
      from (select s.conversation_count as n, s.responded_count as responded, s.response_seconds as secs
              from private.conversation_month_stats s
             where s.account_id = v_account and s.month >= v_m0 and s.month < v_m1
            union all
            select s.conversation_count, s.responded_count, s.response_seconds
              from private.conversation_day_stats s
             where s.account_id = v_account and ((s.day >= v_d0 and s.day < v_m0) or (s.day >= v_m1 and s.day < v_d1))
            union all
            select 1, case when c.first_responded_at is not null then 1 else 0 end,
                   coalesce(extract(epoch from c.first_responded_at - c.created_at), 0)
              from public.conversations c
             where c.account_id = v_account
               and ((c.created_at >= p_start and c.created_at < v_e0) or (c.created_at >= v_e1 and c.created_at < p_end))) x
  ),
  -- SLA targets that fell due in the range (decision 088): met ones by their
  -- deadline's day (done by it), missed ones from the helpdesk's breach rows.
  sla as (
    select coalesce(sum(x.met), 0) as met, coalesce(sum(x.missed), 0) as missed
      from (select s.sla_met_count as met, s.sla_missed_count as missed
              from private.helpdesk_day_stats s
             where s.account_id = v_account and s.day >= v_d0 and s.day < v_d1
            union all
            select 1, 0 from public.conversations c
             where c.account_id = v_account and c.merged_into_id is null and c.first_responded_at <= c.first_response_due_at
               and ((c.first_response_due_at >= p_start and c.first_response_due_at < v_e0)
                 or (c.first_response_due_at >= v_e1 and c.first_response_due_at < p_end))
            union all
            select 1, 0 from public.conversations c
             where c.account_id = v_account and c.merged_into_id is null and c.resolved_at <= c.resolution_due_at
               and ((c.resolution_due_at >= p_start and c.resolution_due_at < v_e0)
                 or (c.resolution_due_at >= v_e1 and c.resolution_due_at < p_end))
            union all
            select 0, 1 from public.sla_breaches b
             where b.account_id = v_account and b.target in ('first_response', 'resolution')
               and ((b.due_at >= p_start and b.due_at < v_e0) or (b.due_at >= v_e1 and b.due_at < p_end))) x
  ),
  -- CSAT answers given in the range.
  csat as (
    select coalesce(sum(x.n), 0) as n, coalesce(sum(x.score), 0) as score
      from (select s.csat_count as n, s.csat_sum as score
              from private.helpdesk_day_stats s
             where s.account_id = v_account and s.day >= v_d0 and s.day < v_d1
            union all
            select 1, r.score from public.csat_responses r
             where r.account_id = v_account and r.answered_at is not null
               and ((r.answered_at >= p_start and r.answered_at < v_e0) or (r.answered_at >= v_e1 and r.answered_at < p_end))) x
  ),
  quotes as (
    select x.currency, sum(x.n) as n, sum(x.total) as total,
           sum(x.n) filter (where x.sent) as sent,
           sum(x.n) filter (where x.status = 'signed') as signed,
           sum(x.total) filter (where x.status = 'signed') as signed_total,
           sum(x.total) filter (where x.status in ('sent', 'viewed')) as pipeline
      from (select s.currency, s.status, s.sent, s.quote_count as n, s.total_sum as total
              from private.quote_month_stats s
             where s.account_id = v_account and s.month >= v_m0 and s.month < v_m1
            union all
            select s.currency, s.status, s.sent, s.quote_count, s.total_sum
              from private.quote_day_stats s
             where s.account_id = v_account and ((s.day >= v_d0 and s.day < v_m0) or (s.day >= v_m1 and s.day < v_d1))
            union all
            select q.currency, q.status, q.sent_at is not null, 1, q.total
              from public.quotes q
             where q.account_id = v_account
               and ((q.created_at >= p_start and q.created_at < v_e0) or (q.created_at >= v_e1 and q.created_at < p_end))) x
     group by 1 having sum(x.n) <> 0
  )
  select jsonb_build_object(
    'leads', jsonb_build_object(
      'total', (select coalesce(sum(n), 0) from leads),
      'by_source', coalesce((select jsonb_object_agg(x.source, x.n)
                               from (select source, sum(n) as n from leads group by 1 having sum(n) <> 0) x), '{}'::jsonb),
      'by_status', coalesce((select jsonb_object_agg(x.status, x.n)
                               from (select status, sum(n) as n from leads group by 1 having sum(n) <> 0) x), '{}'::jsonb)),
    'new_clients',
      (select coalesce(sum(s.contact_count), 0) from private.contact_month_stats s
        where s.account_id = v_account and s.month >= v_m0 and s.month < v_m1)
      + (select coalesce(sum(s.contact_count), 0) from private.contact_day_stats s
          where s.account_id = v_account and ((s.day >= v_d0 and s.day < v_m0) or (s.day >= v_m1 and s.day < v_d1)))
      + (select count(*) from public.contacts c
          where c.account_id = v_account
            and ((c.created_at >= p_start and c.created_at < v_e0) or (c.created_at >= v_e1 and c.created_at < p_end))),
    'conversations', (select n from convs),
    -- First response: the range's conversations answered, and the mean hours to their first answer.
    'first_response', (select jsonb_build_object('responded', responded,
                                                 'hours', case when responded > 0 then round(secs / responded / 3600, 1) end)
                         from convs),
    'sla', (select jsonb_build_object('met', met, 'missed', missed) from sla),
    'csat', (select jsonb_build_object('responses', n, 'average', case when n > 0 then round(score::numeric / n, 2) end) from csat),
    -- On-time delivery: shipments delivered in the range (UTC days from the rollup, edges from the rows).
    'shipments', (select jsonb_build_object('delivered', coalesce(sum(x.n), 0), 'with_estimate', coalesce(sum(x.est), 0),
                                            'on_time', coalesce(sum(x.ok), 0))
                    from (select s.delivered_count as n, s.with_estimate_count as est, s.on_time_count as ok
                            from private.shipment_day_stats s
                           where s.account_id = v_account and s.day >= v_d0 and s.day < v_d1
                          union all
                          select 1, case when sh.estimated_delivery is not null then 1 else 0 end,
                                 case when private.shipment_on_time(sh.account_id, sh.delivered_at, sh.estimated_delivery) then 1 else 0 end
                            from public.shipments sh
                           where sh.account_id = v_account and sh.delivered_at is not null
                             and ((sh.delivered_at >= p_start and sh.delivered_at < v_e0)
                               or (sh.delivered_at >= v_e1 and sh.delivered_at < p_end))) x),
    -- Compliance now (a state, not a period): coverage and overdue reviews (up to 1,000).
    'compliance', jsonb_build_object(
      'total', (select coalesce(sum(s.item_count), 0) from private.compliance_stats s where s.account_id = v_account),
      'compliant', (select coalesce(sum(s.item_count), 0) from private.compliance_stats s
                     where s.account_id = v_account and s.status = 'Compliant'),
      'overdue_reviews', (select count(*) from (select 1 from public.compliance_items i
                                                 where i.account_id = v_account and i.next_review_date < v_today
                                                 limit 1000) d)),
    'invoiced', coalesce((
      select jsonb_agg(jsonb_build_object('currency', i.currency, 'invoices', i.n, 'invoiced', i.total,
                                          'days_to_pay', case when i.paid_n > 0 then round(i.secs / i.paid_n / 86400, 1) end)
                       order by i.currency)
        from invoiced i), '[]'::jsonb),
    'sales', coalesce((
      select jsonb_agg(jsonb_build_object('currency', q.currency, 'quotes', q.n, 'value', q.total,
                                          'sent', coalesce(q.sent, 0), 'signed', coalesce(q.signed, 0),
                                          'signed_value', coalesce(q.signed_total, 0), 'pipeline_value', coalesce(q.pipeline, 0))
                       order by q.currency)
        from quotes q), '[]'::jsonb),
    -- Payments dated in [p_from, p_to], in their invoice's currency.
    'collected', coalesce((
      select jsonb_agg(jsonb_build_object('currency', p.currency, 'collected', p.amount) order by p.currency)
        from (select x.currency, sum(x.amount) as amount
                from (select s.currency, s.amount_sum as amount from private.payment_month_stats s
                       where s.account_id = v_account and s.month >= v_p0 and s.month < v_p1
                      union all
                      select s.currency, s.amount_sum from private.payment_day_stats s
                       where s.account_id = v_account
                         and ((s.day >= p_from and s.day < v_p0) or (s.day >= v_p1 and s.day <= p_to))) x
               group by 1 having sum(x.amount) <> 0) p), '[]'::jsonb),
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
$$;

create or replace function public.analytics_figures(p_from date, p_to date)
returns jsonb
language plpgsql stable
security invoker
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_tz text;
  v_start timestamptz;
  v_end timestamptz;
  v_a jsonb;
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
  v_a := public.analytics_activity(v_start, v_end, p_from, p_to);

  return jsonb_build_object(
    'from', p_from,
    'to', p_to,
    'timezone', v_tz,
    -- Sales: quotes made in the range, per currency; conversion is signed ÷
    -- sent among them (decision 018).
    'sales', v_a -> 'sales',
    -- Cash: invoiced (issued, not void) in the range, collected (payments
    -- dated in the range, in their invoice's currency), overdue now, and the
    -- average days from sending to full payment of the range's invoices;
    -- one entry per currency any of them has.
    'cash', coalesce((
      select jsonb_agg(jsonb_build_object(
               'currency', c.currency,
               'invoiced', coalesce(i.invoiced, 0),
               'invoices', coalesce(i.invoices, 0),
               'collected', coalesce(p.collected, 0),
               'overdue', coalesce(o.overdue, 0),
               'overdue_count', coalesce(o.overdue_count, 0),
               'days_to_pay', i.days_to_pay) order by c.currency)
        from (select x.currency from jsonb_to_recordset(v_a -> 'invoiced') as x(currency text)
              union select x.currency from jsonb_to_recordset(v_a -> 'collected') as x(currency text)
              union select x.currency from jsonb_to_recordset(v_a -> 'overdue') as x(currency text)) c
        left join jsonb_to_recordset(v_a -> 'invoiced') as i(currency text, invoices bigint, invoiced numeric, days_to_pay numeric)
          on i.currency = c.currency
        left join jsonb_to_recordset(v_a -> 'collected') as p(currency text, collected numeric) on p.currency = c.currency
        left join jsonb_to_recordset(v_a -> 'overdue') as o(currency text, overdue_count bigint, overdue numeric)
          on o.currency = c.currency), '[]'::jsonb),
    'leads', v_a -> 'leads',
    'clients', jsonb_build_object('new_clients', v_a -> 'new_clients'),
    'helpdesk', jsonb_build_object('conversations', v_a -> 'conversations',
                                   'responded', v_a -> 'first_response' -> 'responded',
                                   'first_response_hours', v_a -> 'first_response' -> 'hours',
                                   'sla_met', v_a -> 'sla' -> 'met',
                                   'sla_missed', v_a -> 'sla' -> 'missed',
                                   'csat_responses', v_a -> 'csat' -> 'responses',
                                   'csat_average', v_a -> 'csat' -> 'average'),
    'logistics', v_a -> 'shipments',
    'compliance', v_a -> 'compliance'
  );
end;
$$;
