-- analytics_figures reads leads, new clients and conversations from the
-- per-day rollups (20261204510001) instead of counting the range's rows,
-- and what is overdue now from private.invoice_totals.
-- Everything else is as in 20261204500001.

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
$$;

