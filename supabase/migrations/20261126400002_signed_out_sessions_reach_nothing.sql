-- A signed-out session reaches nothing. The app verifies access tokens from
-- their signature (decision 024), and so does PostgREST: a token stays valid
-- until it expires, even after its session was signed out (or ended by a
-- deactivation). Every token the auth server issues names its session
-- (`session_id`); here the caller counts as signed in only while that session
-- exists and has not passed its not_after. A token without a session_id (one
-- minted by hand with the project's secret) is trusted on its signature, as
-- before.
--
-- Every RLS helper and every policy that asked auth.uid() now asks
-- public.session_user_id(): the helpers are evaluated once per statement
-- (policies call them as (select ...)), so this is one primary-key lookup per
-- statement.

create or replace function public.session_user_id() returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select auth.uid()
   where case
           when nullif(auth.jwt() ->> 'session_id', '') is null then true
           when (auth.jwt() ->> 'session_id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then false
           else exists (select 1 from auth.sessions s
                         where s.id = (auth.jwt() ->> 'session_id')::uuid
                           and (s.not_after is null or s.not_after > now()))
         end
$$;
revoke all on function public.session_user_id() from public, anon;
grant execute on function public.session_user_id() to authenticated, service_role;

create or replace function public.current_user_id() returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select u.id from public.users u where u.auth_user_id = public.session_user_id() and u.is_active
$$;

create or replace function public.current_account_id() returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select u.account_id from public.users u where u.auth_user_id = public.session_user_id() and u.is_active
$$;

create or replace function public.current_user_role() returns text
language sql stable
security definer
set search_path = ''
as $$
  select u.role from public.users u where u.auth_user_id = public.session_user_id() and u.is_active
$$;

create or replace function public.is_account_admin() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role = 'admin' from public.users u where u.auth_user_id = public.session_user_id() and u.is_active),
    false)
$$;

create or replace function public.client_contact_ids() returns setof uuid
language sql stable
security definer
set search_path = ''
as $$
  select c.id
    from public.users u
    join public.contacts c on c.account_id = u.account_id and lower(c.email) = u.email
   where u.auth_user_id = public.session_user_id() and u.is_active and u.role = 'client'
$$;

drop policy "staff read their account's users, everyone themselves" on public.users;
create policy "staff read their account's users, everyone themselves" on public.users
  for select to authenticated
  using (auth_user_id = (select public.session_user_id())
         or (account_id = (select public.current_account_id()) and (select public.is_account_staff())));

drop policy "admins and the user themselves update a user" on public.users;
create policy "admins and the user themselves update a user" on public.users
  for update to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_admin()) or auth_user_id = (select public.session_user_id())))
  with check (account_id = (select public.current_account_id()));
