-- Histories name who acted (issue 31). An audit row written with no user of
-- the account behind it used to read 'by a former user': a client signing
-- through the public link, the jobs runner marking an invoice overdue or a
-- document extracted. Each row now says at write time what kind of actor it
-- was (decision 047):
--   user    a person of the account (user_id names them; their name is read
--           at display time, so a deleted user still reads 'a former user');
--   client  someone outside the account: the public link's caller (anon, or a
--           signed-in user of another account), or a user whose role is
--           client. The name and email are kept on the row, as the action gave
--           them (the signer's) or else the quote's or invoice's client;
--   system  the service role (the jobs runner) or the database itself.
-- The columns are new and nullable: rows from before keep null (see
-- record_history for how they read).

alter table public.audit_logs
  add column actor_kind text check (actor_kind in ('user', 'client', 'system')),
  add column actor_name text check (length(actor_name) <= 200),
  add column actor_email text check (length(actor_email) <= 320);

-- Who is acting, for one audit row. p_user_id: the user the caller names, else
-- the one of this request.
create or replace function private.audit_actor(
  p_account_id uuid, p_resource_type text, p_resource_id uuid, p_new_values jsonb, p_user_id uuid,
  out kind text, out name text, out email text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users;
begin
  select * into v_user from public.users u where u.id = p_user_id;
  if found and v_user.account_id = p_account_id and v_user.role <> 'client' then
    kind := 'user';
    return;
  end if;
  if not found and coalesce(auth.role(), '') not in ('anon', 'authenticated') then
    kind := 'system';
    return;
  end if;
  kind := 'client';
  if found and v_user.account_id = p_account_id then
    -- A client's own account (the client portal): the user is the client.
    name := nullif(btrim(concat_ws(' ', v_user.first_name, v_user.last_name)), '');
    email := v_user.email;
  elsif p_new_values ? 'signer_name' then
    -- Signing names its signer: the person who signed, as they typed it.
    name := p_new_values ->> 'signer_name';
    email := p_new_values ->> 'signer_email';
  elsif p_resource_type = 'quote' then
    select c.name, c.email into name, email
      from public.quotes q join public.contacts c on c.id = q.contact_id
     where q.id = p_resource_id;
  elsif p_resource_type = 'invoice' then
    select i.client_name, i.client_email into name, email from public.invoices i where i.id = p_resource_id;
  end if;
  name := left(nullif(btrim(name), ''), 200);
  email := left(nullif(btrim(email), ''), 320);
end;
$$;
revoke all on function private.audit_actor(uuid, text, uuid, jsonb, uuid) from public;

-- As 20261124300003 left it, plus the actor's kind, name and email.
create or replace function private.write_audit(
  p_account_id uuid,
  p_action text,
  p_resource_type text,
  p_resource_id uuid,
  p_old_values jsonb,
  p_new_values jsonb,
  p_user_id uuid default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_client record;
  v_user uuid := coalesce(p_user_id, private.acting_user_id());
  v_actor record;
begin
  select * into v_client from private.request_client();
  select * into v_actor from private.audit_actor(p_account_id, p_resource_type, p_resource_id, p_new_values, v_user);
  insert into public.audit_logs (account_id, user_id, action, resource_type, resource_id, old_values, new_values,
                                 ip_address, user_agent, actor_kind, actor_name, actor_email)
  values (
    p_account_id,
    v_user,
    p_action,
    p_resource_type,
    p_resource_id,
    private.cap_audit_snapshot(p_old_values),
    private.cap_audit_snapshot(p_new_values),
    v_client.ip_address,
    v_client.user_agent,
    v_actor.kind,
    v_actor.name,
    v_actor.email
  );
end;
$$;
revoke all on function private.write_audit(uuid, text, text, uuid, jsonb, jsonb, uuid) from public;

-- A record's history (as 20261127500001 left it) with who acted: actor_kind
-- 'user' (actor_name the user's name, null once the user is deleted),
-- 'client' (the name and email kept on the row) or 'system' ('System').
-- Rows from before the actor columns: a row with no user whose action only the
-- public link writes reads as the client; one only the runner writes, as the
-- system; anything else with no user stays a former user.
drop function public.record_history(text, uuid);
create function public.record_history(p_resource_type text, p_resource_id uuid)
returns table (id uuid, action text, created_at timestamptz, actor_name text, actor_kind text, actor_email text,
               old_values jsonb, new_values jsonb)
language sql stable
security definer
set search_path = ''
as $$
  select a.id, a.action, a.created_at,
         case k.kind
           when 'system' then 'System'
           when 'client' then coalesce(a.actor_name, a.new_values ->> 'signer_name', contact.name)
           else coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email)
         end,
         k.kind,
         case when k.kind = 'client' then coalesce(a.actor_email, a.new_values ->> 'signer_email', contact.email) end,
         a.old_values, a.new_values
    from public.audit_logs a
    left join public.users u on u.id = a.user_id
    cross join lateral (
      select coalesce(a.actor_kind,
                      case when a.user_id is not null then 'user'
                           when a.action in ('quote_viewed', 'quote_signed', 'quote_declined') then 'client'
                           when a.action in ('quote_expired', 'invoice_overdue', 'document_extracted',
                                             'document_extraction_failed', 'document_needs_text') then 'system'
                      end) as kind
    ) k
    left join lateral (
      select c.name, c.email
        from public.quotes q join public.contacts c on c.id = q.contact_id
       where k.kind = 'client' and a.actor_kind is null and a.resource_type = 'quote' and q.id = a.resource_id
    ) contact on true
   where a.account_id = public.current_account_id()
     and public.is_account_staff()
     and exists (select 1 from private.record_types t where t.type = p_resource_type and t.has_history)
     and a.resource_type = p_resource_type
     and a.resource_id = p_resource_id
   order by a.created_at desc, a.id desc
   limit 100
$$;
revoke all on function public.record_history(text, uuid) from public, anon;
grant execute on function public.record_history(text, uuid) to authenticated;
