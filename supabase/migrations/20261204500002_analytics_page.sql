-- The analytics screen in one round trip: the range named in the URL (a
-- preset or custom dates), resolved against today in the account's timezone,
-- with the figures of the range and of the period of equal length just before
-- it (the comparison). Presets: last_7_days and last_30_days end today;
-- last_quarter is the previous calendar quarter; last_year the previous 365
-- days. Security invoker over analytics_figures: staff only, RLS applies.

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
$$;

revoke all on function public.analytics_page(text, date, date) from public, anon;
grant execute on function public.analytics_page(text, date, date) to authenticated;
