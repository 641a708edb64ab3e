-- The signed-in user's own users row, their account's name and whether their
-- session is still live, in one call: what the app reads on every page.
--
-- Read through PostgREST as users?select=*,account:accounts(name), the row
-- cost two tables' policies (each asking the session, the account and the
-- role through their helpers), and a missing row a second call to tell a
-- signed-out session from a user without a record. Here it is one statement
-- that asks the session once. It shows nothing the policies would not: a
-- user always reads their own row (deactivated or not), and the account only
-- while they are active staff ("staff read their own account").
create or replace function public.current_profile() returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'signed_in', me.auth_user_id is not null,
           'profile', (
             select to_jsonb(u) || jsonb_build_object(
                      'account',
                      (select jsonb_build_object('name', a.name)
                         from public.accounts a
                        where a.id = u.account_id
                          and u.is_active
                          and u.role in ('admin', 'member', 'auditor')))
               from public.users u
              where u.auth_user_id = me.auth_user_id))
    from (select public.session_user_id() as auth_user_id) me
$$;
revoke all on function public.current_profile() from public, anon;
grant execute on function public.current_profile() to authenticated;
