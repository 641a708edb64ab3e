-- Resending an invitation, or copying its link: the database keeps only the
-- token's hash, so neither can show the link that was mailed. Both make a new
-- one instead: the invite-user function draws a new token, and this function
-- swaps the invitation's hash for the new one's and gives it seven more days.
-- The earlier link stops working at that moment.
--
-- Direct updates of user_invitations stay refused to every browser-facing role
-- (the role matrix: update NOBODY); this is the one change there is, for an
-- admin of the invitation's account, on an invitation not yet accepted. It is
-- audited as invitation_renewed, naming the admin.

create or replace function public.renew_invitation(p_invitation_id uuid, p_token_hash text)
returns table (id uuid, email text, role text, first_name text, last_name text, expires_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invitation public.user_invitations;
begin
  if not public.is_account_admin() then
    raise exception 'Only administrators can resend invitations' using errcode = '42501';
  end if;
  if p_token_hash is null or p_token_hash !~ '^[0-9a-f]{64}$' then
    raise exception 'Invalid invitation token' using errcode = '22023';
  end if;
  update public.user_invitations i
     set token_hash = p_token_hash,
         expires_at = now() + interval '7 days',
         updated_at = now()
   where i.id = p_invitation_id
     and i.account_id = public.current_account_id()
     and i.accepted_at is null
  returning * into v_invitation;
  if v_invitation.id is null then
    raise exception 'Invitation not found or already accepted' using errcode = 'P0002';
  end if;
  perform private.write_audit(v_invitation.account_id, 'invitation_renewed', 'user_invitation', v_invitation.id,
                              null, jsonb_build_object('email', v_invitation.email, 'role', v_invitation.role,
                                                       'expires_at', v_invitation.expires_at));
  return query select v_invitation.id, v_invitation.email, v_invitation.role, v_invitation.first_name,
                      v_invitation.last_name, v_invitation.expires_at;
end;
$$;

revoke all on function public.renew_invitation(uuid, text) from public, anon;
grant execute on function public.renew_invitation(uuid, text) to authenticated;
