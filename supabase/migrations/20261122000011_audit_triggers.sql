-- Audit rows for every audited action, written by triggers so no client can
-- skip them. Actions are snake_case (the product guide's badge colours). Updates log
-- only the columns that changed; an update that changed nothing is not logged.

-- quote_created / quote_updated, lead_created, contact_created
create or replace function private.audit_record_created() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_resource text := tg_argv[0];
begin
  perform private.write_audit(new.account_id, v_resource || '_created', v_resource, new.id,
                              null, to_jsonb(new));
  return null;
end;
$$;

create or replace function private.audit_record_updated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_resource text := tg_argv[0];
  v_changes record;
begin
  select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(new.account_id, v_resource || '_updated', v_resource, new.id,
                                v_changes.old_values, v_changes.new_values);
  end if;
  return null;
end;
$$;

create trigger quotes_audit_created after insert on public.quotes
  for each row execute function private.audit_record_created('quote');
create trigger quotes_audit_updated after update on public.quotes
  for each row execute function private.audit_record_updated('quote');
create trigger leads_audit_created after insert on public.leads
  for each row execute function private.audit_record_created('lead');
create trigger contacts_audit_created after insert on public.contacts
  for each row execute function private.audit_record_created('contact');

-- template_* and integration_*: created, updated, deleted. Integration
-- configs are logged with their credentials redacted.
create or replace function private.audit_settings_record() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_resource text := tg_argv[0];
  v_old jsonb := case when tg_op <> 'INSERT' then private.redact_secrets(to_jsonb(old)) end;
  v_new jsonb := case when tg_op <> 'DELETE' then private.redact_secrets(to_jsonb(new)) end;
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_resource || '_created', v_resource, new.id, null, v_new);
  elsif tg_op = 'UPDATE' then
    select * into v_changes from private.changed_values(v_old, v_new);
    if v_changes.new_values <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_resource || '_updated', v_resource, new.id,
                                  v_changes.old_values, v_changes.new_values);
    end if;
  -- A delete cascading from the account's own deletion has nowhere to log.
  elsif exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, v_resource || '_deleted', v_resource, old.id, v_old, null);
  end if;
  return null;
end;
$$;

create trigger templates_audit after insert or update or delete on public.templates
  for each row execute function private.audit_settings_record('template');
create trigger integrations_audit after insert or update or delete on public.integrations
  for each row execute function private.audit_settings_record('integration');

-- user_invited: the token is a credential and stays out of the log.
create or replace function private.audit_user_invited() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.write_audit(new.account_id, 'user_invited', 'user_invitation', new.id, null,
                              to_jsonb(new) - 'token');
  return null;
end;
$$;

create trigger user_invitations_audit_invited after insert on public.user_invitations
  for each row execute function private.audit_user_invited();

-- user_role_updated, user_activated, user_deactivated
create or replace function private.audit_user_changes() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.role is distinct from old.role then
    perform private.write_audit(new.account_id, 'user_role_updated', 'user', new.id,
                                jsonb_build_object('role', old.role, 'email', old.email),
                                jsonb_build_object('role', new.role, 'email', new.email));
  end if;
  if new.is_active is distinct from old.is_active then
    perform private.write_audit(new.account_id,
                                case when new.is_active then 'user_activated' else 'user_deactivated' end,
                                'user', new.id,
                                jsonb_build_object('is_active', old.is_active, 'email', old.email),
                                jsonb_build_object('is_active', new.is_active, 'email', new.email));
  end if;
  return null;
end;
$$;

create trigger users_audit_changes after update of role, is_active on public.users
  for each row execute function private.audit_user_changes();

-- module_status_changed: a subscription starts or its status moves.
create or replace function private.audit_module_status() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_module_key text := (select m.key from public.modules m where m.id = new.module_id);
begin
  if tg_op = 'INSERT' or new.status is distinct from old.status then
    perform private.write_audit(new.account_id, 'module_status_changed', 'account_module', new.id,
      case when tg_op = 'UPDATE' then jsonb_build_object('module', v_module_key, 'status', old.status) end,
      jsonb_build_object('module', v_module_key, 'status', new.status));
  end if;
  return null;
end;
$$;

create trigger account_modules_audit_status after insert or update of status on public.account_modules
  for each row execute function private.audit_module_status();

-- account_settings_updated, or website_settings_updated when the landing
-- page's description changes (only the master account's admin can do that).
create or replace function private.audit_account_settings() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
begin
  select * into v_changes from private.changed_values(
    to_jsonb(old) - 'created_at', to_jsonb(new) - 'created_at');
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(new.id,
      case when new.description is distinct from old.description
           then 'website_settings_updated' else 'account_settings_updated' end,
      'account', new.id, v_changes.old_values, v_changes.new_values);
  end if;
  return null;
end;
$$;

create trigger accounts_audit_settings after update on public.accounts
  for each row execute function private.audit_account_settings();
