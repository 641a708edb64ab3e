-- From auth.users to public.users: sign-up creates an account (or joins an
-- invitation's account), sign-in keeps last_login_at current, and
-- deactivation locks the user out of GoTrue.

-- A plain sign-up: a new trial account whose first user is its admin.
create or replace function private.create_account_for_new_user(p_auth_user_id uuid, p_email text, p_meta jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_first_name text := nullif(btrim(p_meta ->> 'first_name'), '');
  v_last_name text := nullif(btrim(p_meta ->> 'last_name'), '');
  v_owner text := coalesce(nullif(concat_ws(' ', v_first_name, v_last_name), ''), split_part(p_email, '@', 1));
  v_account_id uuid;
begin
  insert into public.accounts (name, billing_email, subscription_status, trial_ends_at, default_currency, timezone)
  values (v_owner || '''s Account', lower(p_email), 'trial', now() + interval '14 days', 'USD', 'UTC')
  returning id into v_account_id;

  insert into public.users (account_id, auth_user_id, email, first_name, last_name, role)
  values (v_account_id, p_auth_user_id, lower(p_email), v_first_name, v_last_name, 'admin');
end;
$$;

-- Accept-invitation: claims the invitation in the same transaction as the
-- auth user's insert. The update only matches an unaccepted, unexpired
-- invitation, and a second concurrent claim waits on the row lock and then
-- matches nothing, so a token works exactly once.
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
   where i.token = p_token
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

-- After insert on auth.users. app_metadata can only be set with the service
-- role (the accept-invitation function), never by a plain sign-up.
create or replace function private.handle_new_auth_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_token text := new.raw_app_meta_data ->> 'invitation_token';
begin
  if v_token is not null then
    perform private.claim_invitation(v_token, new.id, new.email, coalesce(new.raw_user_meta_data, '{}'));
  else
    perform private.create_account_for_new_user(new.id, new.email, coalesce(new.raw_user_meta_data, '{}'));
  end if;
  return null;
end;
$$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_auth_user();

-- Hosted GoTrue's admin createUser inserts the user first and writes
-- app_metadata in a later update of the same transaction, so the insert
-- trigger above has already given it a fresh account. Swap that account for
-- the invitation's, still inside the one transaction.
create or replace function private.handle_invitation_token_added() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_existing public.users;
begin
  select * into v_existing from public.users u where u.auth_user_id = new.id;
  if found then
    -- now() is the transaction's start: equal only for rows made in this transaction.
    if v_existing.created_at <> now()
       or exists (select 1 from public.users u where u.account_id = v_existing.account_id and u.id <> v_existing.id) then
      raise exception 'An existing user cannot accept an invitation.' using errcode = 'P0001';
    end if;
    delete from public.accounts a where a.id = v_existing.account_id and a.created_at = now();
  end if;
  perform private.claim_invitation(new.raw_app_meta_data ->> 'invitation_token', new.id, new.email,
                                   coalesce(new.raw_user_meta_data, '{}'));
  return null;
end;
$$;

create trigger on_auth_user_invitation_token after update of raw_app_meta_data on auth.users
  for each row
  when (new.raw_app_meta_data ->> 'invitation_token' is not null
        and new.raw_app_meta_data ->> 'invitation_token' is distinct from old.raw_app_meta_data ->> 'invitation_token')
  execute function private.handle_invitation_token_added();

-- Sign-in (GoTrue updates last_sign_in_at) and e-mail changes flow into public.users.
create or replace function private.sync_auth_user_changes() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.users u
     set last_login_at = case when new.last_sign_in_at is distinct from old.last_sign_in_at
                              then new.last_sign_in_at else u.last_login_at end,
         email = case when new.email is distinct from old.email and new.email is not null
                      then lower(new.email) else u.email end
   where u.auth_user_id = new.id;
  return null;
end;
$$;

create trigger on_auth_user_signed_in after update of last_sign_in_at, email on auth.users
  for each row
  when (new.last_sign_in_at is distinct from old.last_sign_in_at or new.email is distinct from old.email)
  execute function private.sync_auth_user_changes();

-- Users may edit their own names; only an admin of the same account changes
-- roles or activation, never their own; nobody moves a user to another account.
create or replace function private.guard_user_changes() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.is_end_user_request() then
    return new;
  end if;
  if new.account_id is distinct from old.account_id
     or new.auth_user_id is distinct from old.auth_user_id
     or new.email is distinct from old.email then
    raise exception 'A user''s account and email cannot be changed' using errcode = '42501';
  end if;
  if new.role is distinct from old.role or new.is_active is distinct from old.is_active then
    if not public.is_account_admin() or public.current_account_id() is distinct from old.account_id then
      raise exception 'Only administrators can change roles or activate users' using errcode = '42501';
    end if;
    if old.auth_user_id = auth.uid() then
      raise exception 'You cannot change your own role or status' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;

create trigger users_guard_changes before update on public.users
  for each row execute function private.guard_user_changes();

-- Deactivation locks the user out: GoTrue refuses a banned user's sign-in and
-- refresh, and a token whose session is gone. Reactivation lifts the ban.
-- A far-future date rather than 'infinity', which not every GoTrue client can scan.
create or replace function private.apply_user_activation() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.is_active then
    update auth.users set banned_until = null where id = new.auth_user_id;
  else
    update auth.users set banned_until = now() + interval '100 years' where id = new.auth_user_id;
    delete from auth.sessions where user_id = new.auth_user_id;
  end if;
  return null;
end;
$$;

create trigger users_apply_activation after update of is_active on public.users
  for each row
  when (old.is_active is distinct from new.is_active)
  execute function private.apply_user_activation();
