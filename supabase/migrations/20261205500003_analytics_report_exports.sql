-- Report exports over the direct-download limit (issue 40, decision 081):
-- the Export Report dialog queues the job analytics.export_report (the
-- payload agreed with the automations module's generate_report action), and
-- the job reads the figures as the person who will receive the file.

-- The dialog's queueing, for the account's staff: the payload is built here
-- from checked values, the recipient is the caller. A double submission in
-- the same minute queues once (the idempotency key); at most five exports of
-- an account wait at a time.
create or replace function public.queue_report_export(
  p_report_type text, p_format text, p_date_range text, p_from date, p_to date,
  p_include_charts boolean, p_include_summary boolean)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.queue_report_export(text, text, text, date, date, boolean, boolean) from public, anon;
grant execute on function public.queue_report_export(text, text, text, date, date, boolean, boolean) to authenticated;

-- The job's reading of the figures: as the recipient (an active staff member
-- of the job's account), so the file holds what they may read and nothing
-- else. For the runner (service role) only.
create or replace function public.analytics_page_for_user(
  p_account_id uuid, p_user_id uuid, p_range text, p_from date default null, p_to date default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.analytics_page_for_user(uuid, uuid, text, date, date) from public, anon, authenticated;
grant execute on function public.analytics_page_for_user(uuid, uuid, text, date, date) to service_role;
