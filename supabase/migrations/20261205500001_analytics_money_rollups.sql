-- Flat cost for the analytics screen's money figures (issue 40, third part):
-- invoiced, average days to pay, collected and the sales figures were read
-- row by row from the range's invoices, payments and quotes (bench: 10.4x
-- slower for "last year" at 100,000 invoices). They now come from per-day
-- rollups kept by triggers, read by the one days-plus-edges reader,
-- analytics_activity (decision 070's pattern, decision 081):
--
--   private.invoice_day_stats  per account, UTC day of created_at, currency:
--     issued invoices (not draft or void), their total, and for those both
--     sent and paid the count and the sum of seconds from sending to payment.
--   private.quote_day_stats    per account, UTC day of created_at, currency,
--     status and whether sent: the count and the sum of totals.
--   private.payment_day_stats  per account, paid_on (a date already in the
--     account's days: no edges needed) and the invoice's currency: the sum.
--
-- Deletes only update, so the rows of an account being deleted stay gone.

create table private.invoice_day_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  day date not null,
  currency text not null,
  invoice_count bigint not null default 0,
  total_sum numeric not null default 0,
  paid_count bigint not null default 0,
  pay_seconds numeric not null default 0,
  primary key (account_id, day, currency)
);
create table private.quote_day_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  day date not null,
  currency text not null,
  status text not null,
  sent boolean not null,
  quote_count bigint not null default 0,
  total_sum numeric not null default 0,
  primary key (account_id, day, currency, status, sent)
);
create table private.payment_day_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  day date not null,
  currency text not null,
  amount_sum numeric not null default 0,
  primary key (account_id, day, currency)
);
alter table private.invoice_day_stats enable row level security;
alter table private.quote_day_stats enable row level security;
alter table private.payment_day_stats enable row level security;
revoke all on private.invoice_day_stats, private.quote_day_stats, private.payment_day_stats
  from public, anon, authenticated, service_role;

create or replace function private.roll_invoice_day_stats() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.currency, old.status, old.total, old.created_at, old.sent_at, old.paid_at)
         is not distinct from (new.account_id, new.currency, new.status, new.total, new.created_at, new.sent_at, new.paid_at) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.status not in ('draft', 'void') then
    update private.invoice_day_stats s
       set invoice_count = s.invoice_count - 1, total_sum = s.total_sum - old.total,
           paid_count = s.paid_count - case when old.paid_at is not null and old.sent_at is not null then 1 else 0 end,
           pay_seconds = s.pay_seconds - coalesce(extract(epoch from old.paid_at - old.sent_at), 0)
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date and s.currency = old.currency;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.status not in ('draft', 'void') then
    insert into private.invoice_day_stats as s (account_id, day, currency, invoice_count, total_sum, paid_count, pay_seconds)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, new.currency, 1, new.total,
            case when new.paid_at is not null and new.sent_at is not null then 1 else 0 end,
            coalesce(extract(epoch from new.paid_at - new.sent_at), 0))
    on conflict (account_id, day, currency) do update
      set invoice_count = s.invoice_count + 1, total_sum = s.total_sum + excluded.total_sum,
          paid_count = s.paid_count + excluded.paid_count, pay_seconds = s.pay_seconds + excluded.pay_seconds;
  end if;
  -- A payment is counted in its invoice's currency: if that changes, its
  -- payments move with it.
  if tg_op = 'UPDATE' and old.currency is distinct from new.currency then
    update private.payment_day_stats s set amount_sum = s.amount_sum - p.amount
      from (select pa.paid_on, sum(pa.amount) as amount from public.payments pa where pa.invoice_id = new.id group by 1) p
     where s.account_id = old.account_id and s.day = p.paid_on and s.currency = old.currency;
    insert into private.payment_day_stats as s (account_id, day, currency, amount_sum)
    select new.account_id, pa.paid_on, new.currency, sum(pa.amount) from public.payments pa where pa.invoice_id = new.id group by 2
    on conflict (account_id, day, currency) do update set amount_sum = s.amount_sum + excluded.amount_sum;
  end if;
  return null;
end;
$$;
create trigger invoices_roll_day_stats
  after insert or delete or update of account_id, currency, status, total, created_at, sent_at, paid_at
  on public.invoices for each row execute function private.roll_invoice_day_stats();

-- An invoice deleted with its payments: the payments' own trigger runs after
-- the invoice is gone and cannot find its currency, so they leave here.
create or replace function private.unroll_invoice_payments() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.payment_day_stats s set amount_sum = s.amount_sum - p.amount
    from (select pa.paid_on, sum(pa.amount) as amount from public.payments pa where pa.invoice_id = old.id group by 1) p
   where s.account_id = old.account_id and s.day = p.paid_on and s.currency = old.currency;
  return old;
end;
$$;
create trigger invoices_unroll_payment_day_stats before delete on public.invoices
  for each row execute function private.unroll_invoice_payments();

create or replace function private.roll_payment_day_stats() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_currency text;
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.invoice_id, old.amount, old.paid_on)
         is not distinct from (new.account_id, new.invoice_id, new.amount, new.paid_on) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    select i.currency into v_currency from public.invoices i where i.id = old.invoice_id;
    if v_currency is not null then
      update private.payment_day_stats s set amount_sum = s.amount_sum - old.amount
       where s.account_id = old.account_id and s.day = old.paid_on and s.currency = v_currency;
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    select i.currency into v_currency from public.invoices i where i.id = new.invoice_id;
    if v_currency is not null then
      insert into private.payment_day_stats as s (account_id, day, currency, amount_sum)
      values (new.account_id, new.paid_on, v_currency, new.amount)
      on conflict (account_id, day, currency) do update set amount_sum = s.amount_sum + excluded.amount_sum;
    end if;
  end if;
  return null;
end;
$$;
create trigger payments_roll_day_stats after insert or delete or update of account_id, invoice_id, amount, paid_on
  on public.payments for each row execute function private.roll_payment_day_stats();

create or replace function private.roll_quote_day_stats() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.currency, old.status, old.total, old.created_at, old.sent_at is null)
         is not distinct from (new.account_id, new.currency, new.status, new.total, new.created_at, new.sent_at is null) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update private.quote_day_stats s
       set quote_count = s.quote_count - 1, total_sum = s.total_sum - coalesce(old.total, 0)
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date
       and s.currency = old.currency and s.status = old.status and s.sent = (old.sent_at is not null);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.quote_day_stats as s (account_id, day, currency, status, sent, quote_count, total_sum)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, new.currency, new.status, new.sent_at is not null,
            1, coalesce(new.total, 0))
    on conflict (account_id, day, currency, status, sent) do update
      set quote_count = s.quote_count + 1, total_sum = s.total_sum + excluded.total_sum;
  end if;
  return null;
end;
$$;
create trigger quotes_roll_day_stats after insert or delete or update of account_id, currency, status, total, created_at, sent_at
  on public.quotes for each row execute function private.roll_quote_day_stats();

-- Rebuilds an account's money rollups from its rows: the migration's fill,
-- and for rows written with triggers off (tests, the bench).
create or replace function private.rebuild_analytics_money_rollups(p_account uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
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
end;
$$;
revoke all on function private.rebuild_analytics_money_rollups(uuid) from public, anon, authenticated, service_role;
revoke all on function private.roll_invoice_day_stats(), private.unroll_invoice_payments(),
  private.roll_payment_day_stats(), private.roll_quote_day_stats() from public, anon, authenticated, service_role;

select private.rebuild_analytics_money_rollups(a.id) from public.accounts a;
