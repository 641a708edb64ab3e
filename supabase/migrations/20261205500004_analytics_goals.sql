-- Monthly Goals (issue 40, spec: targets set by an admin on Settings →
-- Account): the account's targets for a calendar month in one column of
-- accounts, which only admins update (its update policy and a column
-- grant), staff read. Shape, checked by a trigger:
--   { "revenue": { "<currency>": cents, ... },   payments collected, per currency
--     "new_leads": n, "new_clients": n, "signed_quotes": n }
-- every value a whole number above zero; a target left out is no goal.
alter table public.accounts add column analytics_goals jsonb not null default '{}'::jsonb;
grant update (analytics_goals) on public.accounts to authenticated;

create or replace function private.check_analytics_goals() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_goals jsonb := new.analytics_goals;
  v_key text;
  v_value jsonb;
begin
  if jsonb_typeof(v_goals) <> 'object' then
    raise exception 'Goals must be an object' using errcode = '22023';
  end if;
  for v_key, v_value in select * from jsonb_each(v_goals) loop
    if v_key in ('new_leads', 'new_clients', 'signed_quotes') then
      if jsonb_typeof(v_value) <> 'number' or v_value::numeric <> trunc(v_value::numeric)
         or v_value::numeric < 1 or v_value::numeric > 1000000000 then
        raise exception 'A goal is a whole number from 1 to 1,000,000,000' using errcode = '22023';
      end if;
    elsif v_key = 'revenue' then
      if jsonb_typeof(v_value) <> 'object' then
        raise exception 'The revenue goal is per currency' using errcode = '22023';
      end if;
      if exists (select 1 from jsonb_each(v_value) c
                  where c.key not in ('USD', 'EUR', 'GBP') or jsonb_typeof(c.value) <> 'number'
                     or c.value::numeric <> trunc(c.value::numeric) or c.value::numeric < 1
                     or c.value::numeric > 1000000000000000) then
        raise exception 'A revenue goal is an amount above zero in USD, EUR or GBP' using errcode = '22023';
      end if;
    else
      raise exception 'Unknown goal %', v_key using errcode = '22023';
    end if;
  end loop;
  return new;
end;
$$;
revoke all on function private.check_analytics_goals() from public, anon, authenticated, service_role;
create trigger accounts_check_analytics_goals before insert or update of analytics_goals on public.accounts
  for each row execute function private.check_analytics_goals();

-- analytics_page answers the goals too: the targets and this calendar
-- month's figures so far (first of the month to today, account's timezone),
-- read only when the account has a goal. Otherwise as in 20261204500002.
create or replace function public.analytics_page(p_range text, p_from date default null, p_to date default null)
returns jsonb
language plpgsql stable
security invoker
set search_path = ''
as $$
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
$$;
