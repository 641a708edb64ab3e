-- The account's mail route is explicit (issue 30, item 4; decision 039): an
-- admin makes one active `email` integration the route for all of the
-- account's mail (set_mail_route); without one, mail goes through the
-- platform's mail API. Before, the newest active email integration silently
-- became the route, so adding one re-routed every mail.
--
-- Send test mail is limited to 5 an hour per account and writes an audit row
-- each time (issue 30, item 10): the limit counts those audit rows, which no
-- one can delete, so it holds across Worker isolates and retries.

alter table public.integrations
  add column is_default_mail_route boolean not null default false,
  add constraint integrations_mail_route_is_email check (not is_default_mail_route or type = 'email');
create unique index integrations_one_mail_route_per_account on public.integrations (account_id)
  where is_default_mail_route;

-- Kept data: what carried each account's mail until now stays its route, now
-- shown and changeable (the newest active email integration, as the app chose it).
update public.integrations i set is_default_mail_route = true
 where i.id in (select distinct on (x.account_id) x.id
                  from public.integrations x
                 where x.type = 'email' and x.is_active
                 order by x.account_id, x.created_at desc, x.id);

-- An integration that stops being an email one stops being the route.
create or replace function private.integration_route_follows_type() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.type <> 'email' then
    new.is_default_mail_route := false;
  end if;
  return new;
end;
$$;
revoke all on function private.integration_route_follows_type() from public;
create trigger integrations_route_follows_type before insert or update of type on public.integrations
  for each row execute function private.integration_route_follows_type();

-- Makes the integration the account's mail route (null: the platform's mail API). Admins only.
create or replace function public.set_mail_route(p_integration_id uuid default null) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_before uuid;
begin
  if not coalesce(public.is_account_admin(), false) then
    raise exception 'Only an admin can choose the mail route' using errcode = '42501';
  end if;
  if p_integration_id is not null and not exists (
    select 1 from public.integrations i
     where i.id = p_integration_id and i.account_id = v_account_id and i.type = 'email' and i.is_active) then
    raise exception 'Not an active email integration of this account' using errcode = 'P0002';
  end if;
  select i.id into v_before from public.integrations i
   where i.account_id = v_account_id and i.is_default_mail_route;
  if v_before is not distinct from p_integration_id then
    return;
  end if;
  -- Two statements: the one-route index is checked row by row.
  update public.integrations set is_default_mail_route = false
   where account_id = v_account_id and is_default_mail_route;
  if p_integration_id is not null then
    update public.integrations set is_default_mail_route = true where id = p_integration_id;
  end if;
  perform private.write_audit(v_account_id, 'mail_route_changed', 'integration', p_integration_id,
    jsonb_build_object('integration_id', v_before), jsonb_build_object('integration_id', p_integration_id));
end;
$$;
revoke all on function public.set_mail_route(uuid) from public, anon;
grant execute on function public.set_mail_route(uuid) to authenticated;

-- Send test mail: 5 an hour per account, each one audited.
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
  -- One request of the account at a time, so two at once cannot both pass the count.
  perform pg_advisory_xact_lock(hashtextextended('request_test_mail:' || v_account_id::text, 0));
  if (select count(*) from public.audit_logs a
       where a.account_id = v_account_id and a.action = 'test_mail_requested'
         and a.created_at > now() - interval '1 hour') >= 5 then
    raise exception 'At most 5 test mails an hour: try again later' using errcode = '54000';
  end if;
  select u.email into v_email from public.users u where u.auth_user_id = auth.uid();
  perform private.write_audit(v_account_id, 'test_mail_requested', 'integration', p_integration_id,
    null, jsonb_build_object('to', v_email));
  return private.enqueue_job('mail.test', v_account_id,
    jsonb_build_object('integration_id', p_integration_id, 'to', v_email),
    'mail.test:' || gen_random_uuid(), p_integration_id, now(), 1);
end;
$$;
revoke all on function public.request_test_mail(uuid) from public, anon;
grant execute on function public.request_test_mail(uuid) to authenticated;
