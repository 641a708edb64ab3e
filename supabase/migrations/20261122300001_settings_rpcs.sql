-- The settings screens' database side: the rules the UI shows are also the
-- database's (docs/product-guide.md), so a form posted directly is refused here too.
--
-- update_website_settings: the master account's admin alone saves the website
--   settings (name, contact e-mail, description, timezone, currency). The
--   accounts update policy lets any admin update their own account, and the
--   description guard only fires when the description changes; this function
--   makes the whole website save master-admin only, with the spec's messages.
-- list_audit_logs / audit_log_actions: the audit screen's search (action,
--   resource type or the acting user's name) and action filter, server-side,
--   admins only.
-- All are security invoker: row-level security still applies underneath.

create or replace function public.update_website_settings(
  p_company_name text,
  p_contact_email text,
  p_description text,
  p_timezone text,
  p_default_currency text
) returns public.accounts
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_account public.accounts;
begin
  if not public.is_account_admin() then
    raise exception 'Only administrators can manage website settings' using errcode = '42501';
  end if;
  if not public.is_master_account(v_account_id) then
    raise exception 'Only the master account admin can update website settings' using errcode = '42501';
  end if;
  if p_company_name is null or length(btrim(p_company_name)) = 0 then
    raise exception 'Company name is required' using errcode = '22023';
  end if;
  if p_contact_email is null or p_contact_email !~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$' then
    raise exception 'Contact email must be a valid email address' using errcode = '22023';
  end if;
  if p_timezone not in ('UTC', 'America/New_York', 'America/Los_Angeles', 'Europe/London', 'Europe/Paris',
                        'Asia/Tokyo', 'Asia/Dubai', 'Australia/Sydney') then
    raise exception 'Unsupported timezone' using errcode = '22023';
  end if;

  update public.accounts a
     set name = btrim(p_company_name),
         billing_email = lower(btrim(p_contact_email)),
         description = nullif(btrim(p_description), ''),
         timezone = p_timezone,
         default_currency = p_default_currency,
         updated_at = now()
   where a.id = v_account_id
  returning * into v_account;

  if not found then
    raise exception 'Only the master account admin can update website settings' using errcode = '42501';
  end if;
  return v_account;
end;
$$;

revoke all on function public.update_website_settings(text, text, text, text, text) from public, anon;
grant execute on function public.update_website_settings(text, text, text, text, text) to authenticated, service_role;

-- Up to 100 entries of the caller's account, newest first, with the acting
-- user's e-mail and names. p_search matches the action (with or without
-- underscores), the resource type or the user's name, case-insensitively and
-- literally (no LIKE wildcards); p_action is an exact action.
create or replace function public.list_audit_logs(
  p_search text default null,
  p_action text default null,
  p_limit integer default 100
) returns table (
  id uuid,
  action text,
  resource_type text,
  resource_id uuid,
  old_values jsonb,
  new_values jsonb,
  ip_address text,
  user_agent text,
  created_at timestamptz,
  user_email text,
  user_first_name text,
  user_last_name text
)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_search text := lower(replace(btrim(coalesce(p_search, '')), '_', ' '));
  v_action text := nullif(btrim(coalesce(p_action, '')), '');
begin
  if not public.is_account_admin() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  return query
    select l.id, l.action, l.resource_type, l.resource_id, l.old_values, l.new_values,
           l.ip_address, l.user_agent, l.created_at, u.email, u.first_name, u.last_name
      from public.audit_logs l
      left join public.users u on u.id = l.user_id
     where l.account_id = public.current_account_id()
       and (v_action is null or l.action = v_action)
       and (v_search = ''
            or strpos(replace(lower(l.action), '_', ' '), v_search) > 0
            or strpos(replace(lower(l.resource_type), '_', ' '), v_search) > 0
            or strpos(lower(concat_ws(' ', u.first_name, u.last_name)), v_search) > 0)
     order by l.created_at desc, l.id desc
     limit least(greatest(coalesce(p_limit, 100), 1), 100);
end;
$$;

revoke all on function public.list_audit_logs(text, text, integer) from public, anon;
grant execute on function public.list_audit_logs(text, text, integer) to authenticated, service_role;

-- The actions the filter offers: those the account's log holds.
create or replace function public.audit_log_actions()
returns table (action text)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if not public.is_account_admin() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  return query
    select distinct l.action
      from public.audit_logs l
     where l.account_id = public.current_account_id()
     order by l.action;
end;
$$;

revoke all on function public.audit_log_actions() from public, anon;
grant execute on function public.audit_log_actions() to authenticated, service_role;
