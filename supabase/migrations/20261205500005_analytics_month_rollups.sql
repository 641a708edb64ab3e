-- "Last year" read about a thousand day rows per rollup and period (bench:
-- 2.1x of a small account at 100,000 invoices and leads). Whole UTC months
-- inside a range now come from per-month rollups, so a year is about twelve
-- month rows, the days before the first and after the last whole month from
-- the day rollups, and the two part-day edges from the rows (decision 081).
--
-- Each month rollup follows its day rollup: a trigger on the day table adds
-- every change of a day row (insert, or update: new minus old) to its month
-- row. Day rows are only deleted with their account, which takes the month
-- rows along, so nothing else is needed.

create table private.lead_month_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  month date not null, source text not null, status text not null,
  lead_count bigint not null default 0,
  primary key (account_id, month, source, status)
);
create table private.contact_month_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  month date not null,
  contact_count bigint not null default 0,
  primary key (account_id, month)
);
create table private.conversation_month_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  month date not null,
  conversation_count bigint not null default 0,
  primary key (account_id, month)
);
create table private.invoice_month_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  month date not null, currency text not null,
  invoice_count bigint not null default 0, total_sum numeric not null default 0,
  paid_count bigint not null default 0, pay_seconds numeric not null default 0,
  primary key (account_id, month, currency)
);
create table private.quote_month_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  month date not null, currency text not null, status text not null, sent boolean not null,
  quote_count bigint not null default 0, total_sum numeric not null default 0,
  primary key (account_id, month, currency, status, sent)
);
create table private.payment_month_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  month date not null, currency text not null,
  amount_sum numeric not null default 0,
  primary key (account_id, month, currency)
);
alter table private.lead_month_stats enable row level security;
alter table private.contact_month_stats enable row level security;
alter table private.conversation_month_stats enable row level security;
alter table private.invoice_month_stats enable row level security;
alter table private.quote_month_stats enable row level security;
alter table private.payment_month_stats enable row level security;
revoke all on private.lead_month_stats, private.contact_month_stats, private.conversation_month_stats,
  private.invoice_month_stats, private.quote_month_stats, private.payment_month_stats
  from public, anon, authenticated, service_role;

-- The months of the day rows already there.
insert into private.lead_month_stats (account_id, month, source, status, lead_count)
select account_id, date_trunc('month', day)::date, source, status, sum(lead_count) from private.lead_day_stats group by 1, 2, 3, 4;
insert into private.contact_month_stats (account_id, month, contact_count)
select account_id, date_trunc('month', day)::date, sum(contact_count) from private.contact_day_stats group by 1, 2;
insert into private.conversation_month_stats (account_id, month, conversation_count)
select account_id, date_trunc('month', day)::date, sum(conversation_count) from private.conversation_day_stats group by 1, 2;
insert into private.invoice_month_stats (account_id, month, currency, invoice_count, total_sum, paid_count, pay_seconds)
select account_id, date_trunc('month', day)::date, currency, sum(invoice_count), sum(total_sum), sum(paid_count), sum(pay_seconds)
  from private.invoice_day_stats group by 1, 2, 3;
insert into private.quote_month_stats (account_id, month, currency, status, sent, quote_count, total_sum)
select account_id, date_trunc('month', day)::date, currency, status, sent, sum(quote_count), sum(total_sum)
  from private.quote_day_stats group by 1, 2, 3, 4, 5;
insert into private.payment_month_stats (account_id, month, currency, amount_sum)
select account_id, date_trunc('month', day)::date, currency, sum(amount_sum) from private.payment_day_stats group by 1, 2, 3;

create or replace function private.roll_lead_month_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.lead_month_stats as m (account_id, month, source, status, lead_count)
  values (new.account_id, date_trunc('month', new.day)::date, new.source, new.status,
          new.lead_count - case when tg_op = 'UPDATE' then old.lead_count else 0 end)
  on conflict (account_id, month, source, status) do update set lead_count = m.lead_count + excluded.lead_count;
  return null;
end;
$$;
create trigger lead_day_stats_roll_month after insert or update on private.lead_day_stats
  for each row execute function private.roll_lead_month_stats();

create or replace function private.roll_contact_month_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.contact_month_stats as m (account_id, month, contact_count)
  values (new.account_id, date_trunc('month', new.day)::date,
          new.contact_count - case when tg_op = 'UPDATE' then old.contact_count else 0 end)
  on conflict (account_id, month) do update set contact_count = m.contact_count + excluded.contact_count;
  return null;
end;
$$;
create trigger contact_day_stats_roll_month after insert or update on private.contact_day_stats
  for each row execute function private.roll_contact_month_stats();

create or replace function private.roll_conversation_month_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.conversation_month_stats as m (account_id, month, conversation_count)
  values (new.account_id, date_trunc('month', new.day)::date,
          new.conversation_count - case when tg_op = 'UPDATE' then old.conversation_count else 0 end)
  on conflict (account_id, month) do update set conversation_count = m.conversation_count + excluded.conversation_count;
  return null;
end;
$$;
create trigger conversation_day_stats_roll_month after insert or update on private.conversation_day_stats
  for each row execute function private.roll_conversation_month_stats();

create or replace function private.roll_invoice_month_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
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
$$;
create trigger invoice_day_stats_roll_month after insert or update on private.invoice_day_stats
  for each row execute function private.roll_invoice_month_stats();

create or replace function private.roll_quote_month_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.quote_month_stats as m (account_id, month, currency, status, sent, quote_count, total_sum)
  values (new.account_id, date_trunc('month', new.day)::date, new.currency, new.status, new.sent,
          new.quote_count - case when tg_op = 'UPDATE' then old.quote_count else 0 end,
          new.total_sum - case when tg_op = 'UPDATE' then old.total_sum else 0 end)
  on conflict (account_id, month, currency, status, sent) do update
    set quote_count = m.quote_count + excluded.quote_count, total_sum = m.total_sum + excluded.total_sum;
  return null;
end;
$$;
create trigger quote_day_stats_roll_month after insert or update on private.quote_day_stats
  for each row execute function private.roll_quote_month_stats();

create or replace function private.roll_payment_month_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.payment_month_stats as m (account_id, month, currency, amount_sum)
  values (new.account_id, date_trunc('month', new.day)::date, new.currency,
          new.amount_sum - case when tg_op = 'UPDATE' then old.amount_sum else 0 end)
  on conflict (account_id, month, currency) do update set amount_sum = m.amount_sum + excluded.amount_sum;
  return null;
end;
$$;
create trigger payment_day_stats_roll_month after insert or update on private.payment_day_stats
  for each row execute function private.roll_payment_month_stats();

revoke all on function private.roll_lead_month_stats(), private.roll_contact_month_stats(),
  private.roll_conversation_month_stats(), private.roll_invoice_month_stats(), private.roll_quote_month_stats(),
  private.roll_payment_month_stats() from public, anon, authenticated, service_role;

-- The rebuild (rows written with triggers off) clears the money months too:
-- the day rows it inserts again add themselves to them.
create or replace function private.rebuild_analytics_money_rollups(p_account uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.invoice_day_stats where account_id = p_account;
  delete from private.quote_day_stats where account_id = p_account;
  delete from private.payment_day_stats where account_id = p_account;
  delete from private.invoice_month_stats where account_id = p_account;
  delete from private.quote_month_stats where account_id = p_account;
  delete from private.payment_month_stats where account_id = p_account;
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
end;
$$;
revoke all on function private.rebuild_analytics_money_rollups(uuid) from public, anon, authenticated, service_role;
