-- Send test mail (the Integrations screen; decision 022): an admin queues a
-- mail through one of the account's email integrations, addressed to
-- themselves. The jobs runner sends it; the job (subject: the integration)
-- says how it went.
create or replace function public.request_test_mail(p_integration_id uuid) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_email text;
begin
  if not coalesce(public.is_account_admin(), false) then
    raise exception 'Only an admin can send a test mail' using errcode = '42501';
  end if;
  if not exists (select 1 from public.integrations i
                  where i.id = p_integration_id and i.account_id = v_account_id and i.type = 'email' and i.is_active) then
    raise exception 'Not an active email integration of this account' using errcode = 'P0002';
  end if;
  select u.email into v_email from public.users u where u.auth_user_id = auth.uid();
  return private.enqueue_job('mail.test', v_account_id,
    jsonb_build_object('integration_id', p_integration_id, 'to', v_email),
    'mail.test:' || gen_random_uuid(), p_integration_id, now(), 1);
end;
$$;
revoke all on function public.request_test_mail(uuid) from public, anon;
grant execute on function public.request_test_mail(uuid) to authenticated;
