-- Who is asking: small security definer helpers the row-level security
-- policies are written with. They read public.users with the definer's rights
-- (so policies on users do not recurse) and answer only about the caller.
-- An inactive user has no account, no role and is nobody's admin, so RLS
-- gives them nothing.

create or replace function public.current_user_id() returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select u.id from public.users u where u.auth_user_id = auth.uid() and u.is_active
$$;

create or replace function public.current_account_id() returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select u.account_id from public.users u where u.auth_user_id = auth.uid() and u.is_active
$$;

create or replace function public.current_user_role() returns text
language sql stable
security definer
set search_path = ''
as $$
  select u.role from public.users u where u.auth_user_id = auth.uid() and u.is_active
$$;

create or replace function public.is_account_admin() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role = 'admin' from public.users u where u.auth_user_id = auth.uid() and u.is_active),
    false)
$$;

-- The master account is the earliest created one (ties broken by id).
create or replace function public.is_master_account(p_account_id uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(
    p_account_id = (select a.id from public.accounts a order by a.created_at, a.id limit 1),
    false)
$$;

revoke all on function public.current_user_id() from public, anon;
revoke all on function public.current_account_id() from public, anon;
revoke all on function public.current_user_role() from public, anon;
revoke all on function public.is_account_admin() from public, anon;
revoke all on function public.is_master_account(uuid) from public, anon;
grant execute on function public.current_user_id() to authenticated, service_role;
grant execute on function public.current_account_id() to authenticated, service_role;
grant execute on function public.current_user_role() to authenticated, service_role;
grant execute on function public.is_account_admin() to authenticated, service_role;
grant execute on function public.is_master_account(uuid) to authenticated, service_role;

-- created_by defaults to the acting user, so clients need not send it.
create or replace function private.default_created_by() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.created_by is null then
    new.created_by := public.current_user_id();
  end if;
  return new;
end;
$$;

create trigger quotes_default_created_by before insert on public.quotes
  for each row execute function private.default_created_by();
create trigger templates_default_created_by before insert on public.templates
  for each row execute function private.default_created_by();
create trigger integrations_default_created_by before insert on public.integrations
  for each row execute function private.default_created_by();

-- invited_by likewise defaults to the inviting admin.
create or replace function private.default_invited_by() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.invited_by is null then
    new.invited_by := public.current_user_id();
  end if;
  return new;
end;
$$;

create trigger user_invitations_default_invited_by before insert on public.user_invitations
  for each row execute function private.default_invited_by();
