-- A PDF report now holds up to 10,000 rows (PDF_MAX_ROWS): its table rows are
-- written straight into each page's content stream (app/features/
-- analytics/export/plain-text-layer.ts), so 10,000 rows no longer need ~180 MB. Above its most
-- a PDF is refused before anything is queued, which p_max_rows tells this
-- function (a format's most above its direct download would queue up to it).
drop function public.analytics_export_request(text, text, text, date, date, boolean, boolean, integer);

create function public.analytics_export_request(
  p_report_type text, p_format text, p_date_range text, p_from date, p_to date,
  p_include_charts boolean, p_include_summary boolean, p_direct_rows integer, p_max_rows integer default null)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
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
$$;
revoke all on function public.analytics_export_request(text, text, text, date, date, boolean, boolean, integer, integer) from public, anon;
grant execute on function public.analytics_export_request(text, text, text, date, date, boolean, boolean, integer, integer) to authenticated;
