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

create or replace function private.roll_lead_month_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into private.lead_month_stats as m (account_id, month, source, status, lead_count)
  values (new.account_id, date_trunc('month', new.day)::date, new.source, new.status,
          new.lead_count - case when tg_op = 'UPDATE' then old.lead_count else 0 end)
  on conflict (account_id, month, source, status) do update set lead_count = m.lead_count + excluded.lead_count;
  return null;
end;
$function$;
revoke all on function private.roll_lead_month_stats() from public, anon, authenticated, service_role;

create trigger lead_day_stats_roll_month after insert or update on private.lead_day_stats for each row execute function private.roll_lead_month_stats();

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

create or replace function private.roll_contact_month_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into private.contact_month_stats as m (account_id, month, contact_count)
  values (new.account_id, date_trunc('month', new.day)::date,
          new.contact_count - case when tg_op = 'UPDATE' then old.contact_count else 0 end)
  on conflict (account_id, month) do update set contact_count = m.contact_count + excluded.contact_count;
  return null;
end;
$function$;
revoke all on function private.roll_contact_month_stats() from public, anon, authenticated, service_role;

create trigger contact_day_stats_roll_month after insert or update on private.contact_day_stats for each row execute function private.roll_contact_month_stats();

-- ── private.conversation_day_stats ──

create table private.conversation_day_stats (
  account_id uuid not null,
  day date not null,
  conversation_count bigint default 0 not null,
  responded_count bigint default 0 not null,
  response_seconds numeric default 0 not null,
  constraint conversation_day_stats_pkey primary key (account_id, day),
  constraint conversation_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.conversation_day_stats enable row level security;

revoke all on table private.conversation_day_stats from public, anon, authenticated, service_role;

create or replace function private.roll_conversation_month_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into private.conversation_month_stats as m (account_id, month, conversation_count, responded_count, response_seconds)
  values (new.account_id, date_trunc('month', new.day)::date,
          new.conversation_count - case when tg_op = 'UPDATE' then old.conversation_count else 0 end,
          new.responded_count - case when tg_op = 'UPDATE' then old.responded_count else 0 end,
          new.response_seconds - case when tg_op = 'UPDATE' then old.response_seconds else 0 end)
  on conflict (account_id, month) do update
    set conversation_count = m.conversation_count + excluded.conversation_count,
        responded_count = m.responded_count + excluded.responded_count,
        response_seconds = m.response_seconds + excluded.response_seconds;
  return null;
end;
$function$;
revoke all on function private.roll_conversation_month_stats() from public, anon, authenticated, service_role;

create trigger conversation_day_stats_roll_month after insert or update on private.conversation_day_stats for each row execute function private.roll_conversation_month_stats();

-- ── private.invoice_day_stats ──

create table private.invoice_day_stats (
  account_id uuid not null,
  day date not null,
  currency text not null,
  invoice_count bigint default 0 not null,
  total_sum numeric default 0 not null,
  paid_count bigint default 0 not null,
  pay_seconds numeric default 0 not null,
  constraint invoice_day_stats_pkey primary key (account_id, day, currency),
  constraint invoice_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.invoice_day_stats enable row level security;

revoke all on table private.invoice_day_stats from public, anon, authenticated, service_role;

create or replace function private.roll_invoice_month_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into private.invoice_month_stats as m (account_id, month, currency, invoice_count, total_sum, paid_count, pay_seconds)
  values (new.account_id, date_trunc('month', new.day)::date, new.currency,
          new.invoice_count - case when tg_op = 'UPDATE' then old.invoice_count else 0 end,
          new.total_sum - case when tg_op = 'UPDATE' then old.total_sum else 0 end,
          new.paid_count - case when tg_op = 'UPDATE' then old.paid_count else 0 end,
          new.pay_seconds - case when tg_op = 'UPDATE' then old.pay_seconds else 0 end)
  on conflict (account_id, month, currency) do update
    set invoice_count = m.invoice_count + excluded.invoice_count, total_sum = m.total_sum + excluded.total_sum,
        paid_count = m.paid_count + excluded.paid_count, pay_seconds = m.pay_seconds + excluded.pay_seconds;
  return null;
end;
$function$;
revoke all on function private.roll_invoice_month_stats() from public, anon, authenticated, service_role;

create trigger invoice_day_stats_roll_month after insert or update on private.invoice_day_stats for each row execute function private.roll_invoice_month_stats();

-- ── private.quote_day_stats ──

create table private.quote_day_stats (
  account_id uuid not null,
  day date not null,
  currency text not null,
  status text not null,
  sent boolean not null,
  quote_count bigint default 0 not null,
  total_sum numeric default 0 not null,
  constraint quote_day_stats_pkey primary key (account_id, day, currency, status, sent),
  constraint quote_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.quote_day_stats enable row level security;

revoke all on table private.quote_day_stats from public, anon, authenticated, service_role;

create or replace function private.roll_quote_month_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into private.quote_month_stats as m (account_id, month, currency, status, sent, quote_count, total_sum)
  values (new.account_id, date_trunc('month', new.day)::date, new.currency, new.status, new.sent,
          new.quote_count - case when tg_op = 'UPDATE' then old.quote_count else 0 end,
          new.total_sum - case when tg_op = 'UPDATE' then old.total_sum else 0 end)
  on conflict (account_id, month, currency, status, sent) do update
    set quote_count = m.quote_count + excluded.quote_count, total_sum = m.total_sum + excluded.total_sum;
  return null;
end;
$function$;
revoke all on function private.roll_quote_month_stats() from public, anon, authenticated, service_role;

create trigger quote_day_stats_roll_month after insert or update on private.quote_day_stats for each row execute function private.roll_quote_month_stats();

-- ── private.payment_day_stats ──

create table private.payment_day_stats (
  account_id uuid not null,
  day date not null,
  currency text not null,
  amount_sum numeric default 0 not null,
  constraint payment_day_stats_pkey primary key (account_id, day, currency),
  constraint payment_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.payment_day_stats enable row level security;

revoke all on table private.payment_day_stats from public, anon, authenticated, service_role;

create or replace function private.roll_payment_month_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into private.payment_month_stats as m (account_id, month, currency, amount_sum)
  values (new.account_id, date_trunc('month', new.day)::date, new.currency,
          new.amount_sum - case when tg_op = 'UPDATE' then old.amount_sum else 0 end)
  on conflict (account_id, month, currency) do update set amount_sum = m.amount_sum + excluded.amount_sum;
  return null;
end;
$function$;
revoke all on function private.roll_payment_month_stats() from public, anon, authenticated, service_role;

create trigger payment_day_stats_roll_month after insert or update on private.payment_day_stats for each row execute function private.roll_payment_month_stats();

-- ── private.lead_month_stats ──

create table private.lead_month_stats (
  account_id uuid not null,
  month date not null,
  source text not null,
  status text not null,
  lead_count bigint default 0 not null,
  constraint lead_month_stats_pkey primary key (account_id, month, source, status),
  constraint lead_month_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.lead_month_stats enable row level security;

revoke all on table private.lead_month_stats from public, anon, authenticated, service_role;

-- ── private.contact_month_stats ──

create table private.contact_month_stats (
  account_id uuid not null,
  month date not null,
  contact_count bigint default 0 not null,
  constraint contact_month_stats_pkey primary key (account_id, month),
  constraint contact_month_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.contact_month_stats enable row level security;

revoke all on table private.contact_month_stats from public, anon, authenticated, service_role;

-- ── private.conversation_month_stats ──

create table private.conversation_month_stats (
  account_id uuid not null,
  month date not null,
  conversation_count bigint default 0 not null,
  responded_count bigint default 0 not null,
  response_seconds numeric default 0 not null,
  constraint conversation_month_stats_pkey primary key (account_id, month),
  constraint conversation_month_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.conversation_month_stats enable row level security;

revoke all on table private.conversation_month_stats from public, anon, authenticated, service_role;

-- ── private.invoice_month_stats ──

create table private.invoice_month_stats (
  account_id uuid not null,
  month date not null,
  currency text not null,
  invoice_count bigint default 0 not null,
  total_sum numeric default 0 not null,
  paid_count bigint default 0 not null,
  pay_seconds numeric default 0 not null,
  constraint invoice_month_stats_pkey primary key (account_id, month, currency),
  constraint invoice_month_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.invoice_month_stats enable row level security;

revoke all on table private.invoice_month_stats from public, anon, authenticated, service_role;

-- ── private.quote_month_stats ──

create table private.quote_month_stats (
  account_id uuid not null,
  month date not null,
  currency text not null,
  status text not null,
  sent boolean not null,
  quote_count bigint default 0 not null,
  total_sum numeric default 0 not null,
  constraint quote_month_stats_pkey primary key (account_id, month, currency, status, sent),
  constraint quote_month_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.quote_month_stats enable row level security;

revoke all on table private.quote_month_stats from public, anon, authenticated, service_role;

-- ── private.payment_month_stats ──

create table private.payment_month_stats (
  account_id uuid not null,
  month date not null,
  currency text not null,
  amount_sum numeric default 0 not null,
  constraint payment_month_stats_pkey primary key (account_id, month, currency),
  constraint payment_month_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.payment_month_stats enable row level security;

revoke all on table private.payment_month_stats from public, anon, authenticated, service_role;

-- ── private.shipment_day_stats ──

create table private.shipment_day_stats (
  account_id uuid not null,
  day date not null,
  delivered_count bigint default 0 not null,
  with_estimate_count bigint default 0 not null,
  on_time_count bigint default 0 not null,
  constraint shipment_day_stats_pkey primary key (account_id, day),
  constraint shipment_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.shipment_day_stats enable row level security;

revoke all on table private.shipment_day_stats from public, anon, authenticated, service_role;

-- ── private.helpdesk_day_stats ──

create table private.helpdesk_day_stats (
  account_id uuid not null,
  day date not null,
  sla_met_count bigint default 0 not null,
  sla_missed_count bigint default 0 not null,
  csat_count bigint default 0 not null,
  csat_sum bigint default 0 not null,
  constraint helpdesk_day_stats_pkey primary key (account_id, day),
  constraint helpdesk_day_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.helpdesk_day_stats enable row level security;

revoke all on table private.helpdesk_day_stats from public, anon, authenticated, service_role;

create or replace function private.bump_helpdesk_day_stats(p_account uuid, p_at timestamp with time zone, p_met integer, p_missed integer, p_csat integer, p_score integer)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.bump_helpdesk_day_stats(p_account uuid, p_at timestamp with time zone, p_met integer, p_missed integer, p_csat integer, p_score integer) from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function private.rebuild_analytics_helpdesk_rollup(p_account uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.rebuild_analytics_helpdesk_rollup(p_account uuid) from public, anon, authenticated, service_role;

create or replace function private.rebuild_analytics_money_rollups(p_account uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  delete from private.invoice_day_stats where account_id = p_account;
  delete from private.quote_day_stats where account_id = p_account;
  delete from private.payment_day_stats where account_id = p_account;
  insert into private.invoice_day_stats (account_id, day, currency, invoice_count, total_sum, paid_count, pay_seconds)
  select i.account_id, (i.created_at at time zone 'UTC')::date, i.currency, count(*), sum(i.total),
         count(*) filter (where i.paid_at is not null and i.sent_at is not null),
         coalesce(sum(extract(epoch from i.paid_at - i.sent_at)), 0)
    from public.invoices i
   where i.account_id = p_account and i.status not in ('draft', 'void')
   group by 1, 2, 3;
  insert into private.quote_day_stats (account_id, day, currency, status, sent, quote_count, total_sum)
  select q.account_id, (q.created_at at time zone 'UTC')::date, q.currency, q.status, q.sent_at is not null,
         count(*), coalesce(sum(q.total), 0)
    from public.quotes q
   where q.account_id = p_account
   group by 1, 2, 3, 4, 5;
  insert into private.payment_day_stats (account_id, day, currency, amount_sum)
  select p.account_id, p.paid_on, i.currency, sum(p.amount)
    from public.payments p join public.invoices i on i.id = p.invoice_id
   where p.account_id = p_account
   group by 1, 2, 3;
  -- The months from the days just written, whether or not their triggers ran.
  delete from private.invoice_month_stats where account_id = p_account;
  delete from private.quote_month_stats where account_id = p_account;
  delete from private.payment_month_stats where account_id = p_account;
  insert into private.invoice_month_stats (account_id, month, currency, invoice_count, total_sum, paid_count, pay_seconds)
  select account_id, date_trunc('month', day)::date, currency, sum(invoice_count), sum(total_sum), sum(paid_count), sum(pay_seconds)
    from private.invoice_day_stats where account_id = p_account group by 1, 2, 3;
  insert into private.quote_month_stats (account_id, month, currency, status, sent, quote_count, total_sum)
  select account_id, date_trunc('month', day)::date, currency, status, sent, sum(quote_count), sum(total_sum)
    from private.quote_day_stats where account_id = p_account group by 1, 2, 3, 4, 5;
  insert into private.payment_month_stats (account_id, month, currency, amount_sum)
  select account_id, date_trunc('month', day)::date, currency, sum(amount_sum)
    from private.payment_day_stats where account_id = p_account group by 1, 2, 3;
end;
$function$;
revoke all on function private.rebuild_analytics_money_rollups(p_account uuid) from public, anon, authenticated, service_role;

create or replace function public.analytics_activity(p_start timestamp with time zone, p_end timestamp with time zone, p_from date default null::date, p_to date default null::date)
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
$function$;
revoke all on function public.analytics_activity(p_start timestamp with time zone, p_end timestamp with time zone, p_from date, p_to date) from public, anon, authenticated, service_role;
grant execute on function public.analytics_activity(p_start timestamp with time zone, p_end timestamp with time zone, p_from date, p_to date) to authenticated, service_role;

create or replace function public.analytics_export_request(p_report_type text, p_format text, p_date_range text, p_from date, p_to date, p_include_charts boolean, p_include_summary boolean, p_direct_rows integer, p_max_rows integer default null::integer)
 returns jsonb
 language plpgsql
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_tz text;
  v_today date;
  v_from date;
  v_to date;
  v_start timestamptz;
  v_end timestamptz;
  v_rows bigint := 0;
  v_job uuid;
begin
  if v_account is null or not public.is_account_staff() then
    raise exception 'Reports are for the account''s team' using errcode = '42501';
  end if;
  if p_direct_rows is null or p_direct_rows < 1 or p_direct_rows > 1000000 then
    raise exception 'the direct-download limit is between 1 and 1,000,000 rows' using errcode = '22023';
  end if;
  if p_report_type is null or p_report_type not in ('sales', 'financial', 'leads', 'clients', 'compliance', 'comprehensive') then
    raise exception 'Choose a report type' using errcode = '22023';
  end if;
  select coalesce(a.timezone, 'UTC') into v_tz from public.accounts a where a.id = v_account;
  v_today := (now() at time zone v_tz)::date;
  -- The same days as analytics_page's 'current' period.
  case p_date_range
    when 'last_7_days' then v_from := v_today - 6; v_to := v_today;
    when 'last_30_days' then v_from := v_today - 29; v_to := v_today;
    when 'last_quarter' then
      v_to := (date_trunc('quarter', v_today::timestamp))::date - 1;
      v_from := (date_trunc('quarter', v_to::timestamp))::date;
    when 'last_year' then v_from := v_today - 364; v_to := v_today;
    when 'custom' then v_from := p_from; v_to := p_to;
    else raise exception 'Choose a date range' using errcode = '22023';
  end case;
  if v_from is null or v_to is null or v_to < v_from or v_to - v_from > 3660 then
    raise exception 'Enter a start and an end date for a custom range' using errcode = '22023';
  end if;
  v_start := v_from::timestamp at time zone v_tz;
  v_end := (v_to + 1)::timestamp at time zone v_tz;
  -- The report's tables (app/features/analytics/export/report.ts REPORT_TABLES).
  if p_report_type in ('sales', 'comprehensive') then
    v_rows := v_rows + (select count(*) from public.quotes q
                         where q.account_id = v_account and q.created_at >= v_start and q.created_at < v_end);
  end if;
  if p_report_type in ('financial', 'comprehensive') then
    v_rows := v_rows + (select count(*) from public.invoices i
                         where i.account_id = v_account and i.created_at >= v_start and i.created_at < v_end);
  end if;
  if p_report_type in ('leads', 'comprehensive') then
    v_rows := v_rows + (select count(*) from public.leads l
                         where l.account_id = v_account and l.created_at >= v_start and l.created_at < v_end);
  end if;
  if p_report_type in ('clients', 'comprehensive') then
    v_rows := v_rows + (select count(*) from public.contacts c
                         where c.account_id = v_account and c.created_at >= v_start and c.created_at < v_end);
  end if;
  -- Over the format's most (a PDF's, PDF_MAX_ROWS): nothing is queued; the caller says so under Format.
  if v_rows > p_direct_rows and (p_max_rows is null or v_rows <= p_max_rows) then
    v_job := public.queue_report_export(p_report_type, p_format, p_date_range, p_from, p_to, p_include_charts, p_include_summary);
  end if;
  return jsonb_build_object('from', v_from, 'to', v_to, 'timezone', v_tz, 'rows', v_rows, 'queued_job_id', v_job);
end;
$function$;
revoke all on function public.analytics_export_request(p_report_type text, p_format text, p_date_range text, p_from date, p_to date, p_include_charts boolean, p_include_summary boolean, p_direct_rows integer, p_max_rows integer) from public, anon, authenticated, service_role;
grant execute on function public.analytics_export_request(p_report_type text, p_format text, p_date_range text, p_from date, p_to date, p_include_charts boolean, p_include_summary boolean, p_direct_rows integer, p_max_rows integer) to authenticated, service_role;

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
  v_goals jsonb;
  v_month jsonb;
begin
  select (now() at time zone coalesce(a.timezone, 'UTC'))::date, a.analytics_goals into v_today, v_goals
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
  if v_goals is not null and v_goals <> '{}'::jsonb then
    v_month := public.analytics_figures(date_trunc('month', v_today::timestamp)::date, v_today);
  end if;
  return jsonb_build_object(
    'range', p_range,
    'current', public.analytics_figures(v_from, v_to),
    'previous', public.analytics_figures(v_from - v_days, v_from - 1),
    'goals', jsonb_build_object(
      'targets', coalesce(v_goals, '{}'::jsonb),
      'month_from', date_trunc('month', v_today::timestamp)::date,
      'month_to', v_today,
      'actual', case when v_month is null then null else jsonb_build_object(
        'revenue', coalesce((select jsonb_object_agg(c ->> 'currency', (c ->> 'collected')::numeric)
                               from jsonb_array_elements(v_month -> 'cash') c), '{}'::jsonb),
        'new_leads', (v_month -> 'leads' ->> 'total')::bigint,
        'new_clients', (v_month -> 'clients' ->> 'new_clients')::bigint,
        'signed_quotes', coalesce((select sum((s ->> 'signed')::bigint) from jsonb_array_elements(v_month -> 'sales') s), 0)
      ) end));
end;
$function$;
revoke all on function public.analytics_page(p_range text, p_from date, p_to date) from public, anon, authenticated, service_role;
grant execute on function public.analytics_page(p_range text, p_from date, p_to date) to authenticated, service_role;

create or replace function public.analytics_page_for_user(p_account_id uuid, p_user_id uuid, p_range text, p_from date default null::date, p_to date default null::date)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_auth uuid;
begin
  select u.auth_user_id into v_auth
    from public.users u
   where u.id = p_user_id and u.account_id = p_account_id and u.is_active and u.role in ('admin', 'member', 'auditor');
  if v_auth is null then
    raise exception 'The report''s recipient is not on the account''s team' using errcode = '42501';
  end if;
  -- For the rest of this transaction (one RPC call) the caller is the recipient.
  perform set_config('request.jwt.claims', jsonb_build_object('sub', v_auth, 'role', 'authenticated')::text, true);
  perform set_config('request.jwt.claim.sub', v_auth::text, true);
  return public.analytics_page(p_range, p_from, p_to);
end;
$function$;
revoke all on function public.analytics_page_for_user(p_account_id uuid, p_user_id uuid, p_range text, p_from date, p_to date) from public, anon, authenticated, service_role;
grant execute on function public.analytics_page_for_user(p_account_id uuid, p_user_id uuid, p_range text, p_from date, p_to date) to service_role;

create or replace function public.queue_report_export(p_report_type text, p_format text, p_date_range text, p_from date, p_to date, p_include_charts boolean, p_include_summary boolean)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_user uuid := public.current_user_id();
  v_payload jsonb;
  v_id uuid;
begin
  if v_account is null or v_user is null or not public.is_account_staff() then
    raise exception 'Reports are for the account''s team' using errcode = '42501';
  end if;
  if p_report_type is null or p_report_type not in ('sales', 'financial', 'leads', 'clients', 'compliance', 'comprehensive') then
    raise exception 'Choose a report type' using errcode = '22023';
  end if;
  if p_format is null or p_format not in ('csv', 'xlsx', 'pdf') then
    raise exception 'Choose a format' using errcode = '22023';
  end if;
  if p_date_range is null or p_date_range not in ('last_7_days', 'last_30_days', 'last_quarter', 'last_year', 'custom') then
    raise exception 'Choose a date range' using errcode = '22023';
  end if;
  if p_date_range = 'custom' and (p_from is null or p_to is null or p_to < p_from or p_to - p_from > 3660) then
    raise exception 'Enter a start and an end date for a custom range' using errcode = '22023';
  end if;
  if (select count(*) from public.jobs j
       where j.account_id = v_account and j.created_at > now() - interval '1 day'
         and j.kind = 'analytics.export_report' and j.status in ('queued', 'running')) >= 5 then
    raise exception 'Five reports are being prepared already: wait for them to be emailed' using errcode = '54000';
  end if;
  v_payload := jsonb_build_object(
    'report_type', p_report_type, 'format', p_format, 'date_range', p_date_range,
    'from', case when p_date_range = 'custom' then p_from end,
    'to', case when p_date_range = 'custom' then p_to end,
    'include_charts', coalesce(p_include_charts, false), 'include_summary', coalesce(p_include_summary, false),
    'recipient_user_id', v_user);
  v_id := private.enqueue_job('analytics.export_report', v_account, v_payload,
    'analytics.export_report:' || md5(v_user::text || v_payload::text || date_trunc('minute', now())::text), v_user);
  return v_id;
end;
$function$;
revoke all on function public.queue_report_export(p_report_type text, p_format text, p_date_range text, p_from date, p_to date, p_include_charts boolean, p_include_summary boolean) from public, anon, authenticated, service_role;
grant execute on function public.queue_report_export(p_report_type text, p_format text, p_date_range text, p_from date, p_to date, p_include_charts boolean, p_include_summary boolean) to authenticated, service_role;
