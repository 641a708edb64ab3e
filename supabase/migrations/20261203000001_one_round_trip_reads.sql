-- Reads a settings page can start alongside the signed-in user's own row
-- (one backend round trip per page, issue 33): neither needs the account id
-- from the app, the database knows whose session it is.

-- Website settings: whether the caller's account is the master account.
create function public.current_account_is_master() returns boolean
language sql stable
security invoker
set search_path = ''
as $$
  select public.is_master_account(public.current_account_id())
$$;

revoke all on function public.current_account_is_master() from public, anon;
grant execute on function public.current_account_is_master() to authenticated, service_role;

-- Integrations: the account's mail route (decision 039) and its last test
-- mail, wherever the route sits in the paged list. Security invoker: the
-- caller's policies decide (staff read integrations; only admins read jobs,
-- so anyone else gets the route without its last test).
create function public.mail_route_status() returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'id', i.id,
    'name', i.name,
    'last_test', (
      select jsonb_build_object('status', j.status, 'last_error', j.last_error, 'created_at', j.created_at)
        from public.jobs j
       where j.subject_id = i.id and j.kind = 'mail.test'
       order by j.created_at desc
       limit 1))
    from public.integrations i
   where i.type = 'email' and i.is_active and i.is_default_mail_route
   limit 1
$$;

revoke all on function public.mail_route_status() from public, anon;
grant execute on function public.mail_route_status() to authenticated, service_role;
