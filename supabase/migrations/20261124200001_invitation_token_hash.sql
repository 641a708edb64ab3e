-- Invitation tokens are credentials: whoever holds one creates the invited
-- person's account. The database keeps only their sha256, and no
-- browser-facing role can read even that, so an admin (or anyone who reads
-- the table) can no longer accept an invitation in the invitee's name. The raw
-- token exists only in the invitation mail; the server functions and the
-- lookup below hash what they are given and compare hashes.

alter table public.user_invitations add column token_hash text;
update public.user_invitations set token_hash = encode(extensions.digest(token, 'sha256'), 'hex');
alter table public.user_invitations
  alter column token_hash set not null,
  add constraint user_invitations_token_hash_key unique (token_hash),
  add constraint user_invitations_token_hash_is_sha256 check (token_hash ~ '^[0-9a-f]{64}$');
alter table public.user_invitations drop column token;

-- Column privileges: every column but the hash, for the roles the browser acts as.
revoke select on public.user_invitations from anon, authenticated;
grant select (id, account_id, email, role, first_name, last_name, invited_by, expires_at, accepted_at,
              created_at, updated_at)
  on public.user_invitations to authenticated;

create or replace function private.invitation_token_hash(p_token text) returns text
language sql immutable
set search_path = ''
as $$
  select encode(extensions.digest(p_token, 'sha256'), 'hex')
$$;

create or replace function public.get_open_invitation(p_token text)
returns table (email text, role text, expires_at timestamptz, account_name text)
language sql stable
security definer
set search_path = ''
as $$
  select i.email, i.role, i.expires_at, a.name
  from public.user_invitations i
  join public.accounts a on a.id = i.account_id
  where i.token_hash = private.invitation_token_hash(p_token)
    and i.accepted_at is null
    and i.expires_at > now()
$$;

revoke all on function public.get_open_invitation(text) from public;
grant execute on function public.get_open_invitation(text) to anon, authenticated, service_role;

-- As before (20261122000008), but matching the token's hash.
create or replace function private.claim_invitation(p_token text, p_auth_user_id uuid, p_email text, p_meta jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invitation public.user_invitations;
  v_user_id uuid;
begin
  update public.user_invitations i
     set accepted_at = now()
   where i.token_hash = private.invitation_token_hash(p_token)
     and i.accepted_at is null
     and i.expires_at > now()
  returning * into v_invitation;

  if not found then
    raise exception 'This invitation is invalid or has expired.' using errcode = 'P0001';
  end if;
  if v_invitation.email <> lower(p_email) then
    raise exception 'This invitation was sent to a different email address.' using errcode = 'P0001';
  end if;

  insert into public.users (account_id, auth_user_id, email, first_name, last_name, role)
  values (
    v_invitation.account_id,
    p_auth_user_id,
    lower(p_email),
    coalesce(nullif(btrim(p_meta ->> 'first_name'), ''), v_invitation.first_name),
    coalesce(nullif(btrim(p_meta ->> 'last_name'), ''), v_invitation.last_name),
    v_invitation.role)
  returning id into v_user_id;

  perform private.write_audit(
    v_invitation.account_id, 'invitation_accepted', 'user_invitation', v_invitation.id,
    jsonb_build_object('accepted_at', null),
    jsonb_build_object('email', v_invitation.email, 'role', v_invitation.role,
                       'user_id', v_user_id, 'accepted_at', v_invitation.accepted_at),
    v_user_id);

  -- The token has done its job; keep it out of the user's JWT.
  update auth.users set raw_app_meta_data = raw_app_meta_data - 'invitation_token' where id = p_auth_user_id;
end;
$$;

-- user_invited: the token's hash stays out of the log too.
create or replace function private.audit_user_invited() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.write_audit(new.account_id, 'user_invited', 'user_invitation', new.id, null,
                              to_jsonb(new) - 'token_hash');
  return null;
end;
$$;
