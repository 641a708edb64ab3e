-- Deadline reminder mails of the RFP module (issue 38; decision 079): 7, 3 and 1 days before a bid's
-- deadline, each once, to its owner (else whoever created it), for a bid still Active (not yet submitted).
-- The jobs runner calls this every minute (rfp.reminders); each reminder is queued as one 'mail.send' job
-- whose idempotency key names the bid, the days and the deadline, so it is sent once, and again only for a
-- deadline that moved. Returns what it queued now.

create function public.rfp_deadline_reminders(p_today date)
returns table (rfp_id uuid, days integer, recipient text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row record;
begin
  for v_row in
    select r.id, r.account_id, r.title, r.company, r.deadline, (r.deadline - p_today) as days_left, u.email
      from public.rfps r
      join public.users u on u.id = coalesce(r.owner_id, r.created_by) and u.account_id = r.account_id and u.is_active
     where r.status = 'Active' and r.deadline in (p_today + 7, p_today + 3, p_today + 1)
  loop
    if private.enqueue_job('mail.send', v_row.account_id,
         jsonb_build_object(
           'to', v_row.email,
           'subject', 'RFP deadline in ' || v_row.days_left || case when v_row.days_left = 1 then ' day: ' else ' days: ' end || v_row.title,
           'text', 'Hello,' || chr(10) || chr(10) || 'The response "' || v_row.title || '" for ' || v_row.company || ' is due on '
                   || to_char(v_row.deadline, 'YYYY-MM-DD') || ', in ' || v_row.days_left
                   || case when v_row.days_left = 1 then ' day.' else ' days.' end || chr(10) || chr(10)
                   || 'Open it in OpsHub under RFP Radar to finish and submit it.'),
         'rfp_reminder:' || v_row.id || ':' || v_row.days_left || ':' || v_row.deadline, v_row.id) is not null then
      rfp_id := v_row.id;
      days := v_row.days_left;
      recipient := v_row.email;
      return next;
    end if;
  end loop;
end;
$$;
revoke all on function public.rfp_deadline_reminders(date) from public, anon, authenticated;
grant execute on function public.rfp_deadline_reminders(date) to service_role;
