-- The money rollups' rebuild (for rows written with triggers off) also
-- rebuilds their month rows from the day rows it wrote: with triggers off
-- in the caller's transaction (session_replication_role = replica, as tests
-- and the bench write), the day tables' month triggers do not run either.
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
$$;
revoke all on function private.rebuild_analytics_money_rollups(uuid) from public, anon, authenticated, service_role;
