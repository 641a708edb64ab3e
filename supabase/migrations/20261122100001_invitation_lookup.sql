-- The invitation acceptance page (/invite/<token>) shows who is invited, to
-- which account, with which role and until when. Holding the token is the
-- capability: the page may read exactly that one invitation, and only while it
-- is open (unaccepted, unexpired). Nothing else of user_invitations is exposed.

create or replace function public.get_open_invitation(p_token text)
returns table (email text, role text, expires_at timestamptz, account_name text)
language sql stable
security definer
set search_path = ''
as $$
  select i.email, i.role, i.expires_at, a.name
  from public.user_invitations i
  join public.accounts a on a.id = i.account_id
  where i.token = p_token
    and i.accepted_at is null
    and i.expires_at > now()
$$;

revoke all on function public.get_open_invitation(text) from public;
grant execute on function public.get_open_invitation(text) to anon, authenticated, service_role;
