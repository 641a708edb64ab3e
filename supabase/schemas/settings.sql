-- settings: Templates, integrations and their write-only secrets: what an account sets up once.

set check_function_bodies = false;

-- ── public.templates ──

create table public.templates (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  name text not null,
  type text default 'email'::text not null,
  subject text,
  content text not null,
  variables jsonb,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint templates_pkey PRIMARY KEY (id),
  constraint templates_check CHECK (((type = 'email'::text) OR (subject IS NULL))),
  constraint templates_name_check CHECK ((length(btrim(name)) > 0)),
  constraint templates_type_check CHECK ((type = ANY (ARRAY['email'::text, 'quote'::text, 'invoice'::text, 'contract'::text]))),
  constraint templates_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE,
  constraint templates_created_by_account_id_fkey FOREIGN KEY (created_by, account_id) REFERENCES public.users(id, account_id) ON DELETE SET NULL (created_by)
);
alter table public.templates enable row level security;

CREATE INDEX templates_account_id_created_at_idx ON public.templates USING btree (account_id, created_at DESC);
CREATE INDEX templates_created_by_idx ON public.templates USING btree (created_by);

revoke all on table public.templates from public, anon, authenticated, service_role;
grant all on table public.templates to authenticated;
revoke truncate on table public.templates from authenticated;
grant all on table public.templates to service_role;

CREATE OR REPLACE FUNCTION private.audit_settings_record()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
revoke all on function private.audit_settings_record() from public, anon, authenticated, service_role;
grant execute on function private.audit_settings_record() to public;

CREATE TRIGGER templates_audit AFTER INSERT OR DELETE OR UPDATE ON public.templates FOR EACH ROW EXECUTE FUNCTION private.audit_settings_record('template');
CREATE TRIGGER templates_default_created_by BEFORE INSERT ON public.templates FOR EACH ROW EXECUTE FUNCTION private.default_created_by();
CREATE TRIGGER templates_set_updated_at BEFORE UPDATE ON public.templates FOR EACH ROW EXECUTE FUNCTION private.set_updated_at();

create policy "admins add templates" on public.templates
  for insert
  to authenticated
  with check (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "admins and auditors read templates" on public.templates
  for select
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.can_read_settings() AS can_read_settings)));

create policy "admins delete templates" on public.templates
  for delete
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "admins update templates" on public.templates
  for update
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)))
  with check ((account_id = ( SELECT public.current_account_id() AS current_account_id)));

-- ── public.integrations ──

create table public.integrations (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  name text not null,
  type text not null,
  config jsonb default '{}'::jsonb not null,
  is_active boolean default true not null,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  secrets_set jsonb default '{}'::jsonb not null,
  is_default_mail_route boolean default false not null,
  constraint integrations_pkey PRIMARY KEY (id),
  constraint integrations_config_check CHECK ((jsonb_typeof(config) = 'object'::text)),
  constraint integrations_from_email_no_control_chars CHECK ((COALESCE((config ->> 'from_email'::text), ''::text) !~ '[\x01-\x1f\x7f]'::text)),
  constraint integrations_mail_route_is_email CHECK (((NOT is_default_mail_route) OR (type = 'email'::text))),
  constraint integrations_name_check CHECK ((length(btrim(name)) > 0)),
  constraint integrations_name_no_control_chars CHECK ((name !~ '[\x01-\x1f\x7f]'::text)),
  constraint integrations_secrets_set_check CHECK ((jsonb_typeof(secrets_set) = 'object'::text)),
  constraint integrations_type_check CHECK ((type = ANY (ARRAY['email'::text, 'payment'::text, 'crm'::text, 'storage'::text]))),
  constraint integrations_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE,
  constraint integrations_created_by_account_id_fkey FOREIGN KEY (created_by, account_id) REFERENCES public.users(id, account_id) ON DELETE SET NULL (created_by)
);
alter table public.integrations enable row level security;

CREATE INDEX integrations_account_id_created_at_idx ON public.integrations USING btree (account_id, created_at DESC);
CREATE INDEX integrations_created_by_idx ON public.integrations USING btree (created_by);
CREATE UNIQUE INDEX integrations_one_mail_route_per_account ON public.integrations USING btree (account_id) WHERE is_default_mail_route;

revoke all on table public.integrations from public, anon, authenticated, service_role;
grant all on table public.integrations to authenticated;
revoke insert, truncate, update on table public.integrations from authenticated;
grant all on table public.integrations to service_role;
grant insert (id, account_id, name, type, config, is_active, created_by) on table public.integrations to authenticated;
grant update (name, type, config, is_active, updated_at) on table public.integrations to authenticated;

CREATE OR REPLACE FUNCTION private.integration_route_follows_type()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if new.type <> 'email' then
    new.is_default_mail_route := false;
  end if;
  return new;
end;
$function$;
revoke all on function private.integration_route_follows_type() from public, anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION private.keep_integration_secrets_apart()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_stored jsonb;
  v_split record;
begin
  if tg_op = 'UPDATE' and new.id is distinct from old.id then
    raise exception 'An integration keeps its id' using errcode = '42501';
  end if;
  select s.secrets into v_stored from private.integration_secrets s where s.integration_id = new.id;
  select * into v_split from private.split_integration_config(new.config, v_stored);
  new.config := v_split.config;
  new.secrets_set := private.secrets_shape(v_split.secrets);
  if v_split.secrets = '{}'::jsonb then
    delete from private.integration_secrets s where s.integration_id = new.id;
  else
    insert into private.integration_secrets as s (integration_id, secrets)
    values (new.id, v_split.secrets)
    on conflict (integration_id) do update
      set secrets = excluded.secrets, updated_at = now()
      where s.secrets is distinct from excluded.secrets;
  end if;
  return new;
end;
$function$;
revoke all on function private.keep_integration_secrets_apart() from public, anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION private.split_integration_config(p_config jsonb, p_stored jsonb, OUT config jsonb, OUT secrets jsonb)
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_entry record;
  v_stored jsonb;
  v_nested record;
begin
  config := '{}'::jsonb;
  secrets := '{}'::jsonb;
  for v_entry in select e.key, e.value from jsonb_each(p_config) e loop
    v_stored := case when jsonb_typeof(p_stored) = 'object' then p_stored -> v_entry.key end;
    if private.is_secret_key(v_entry.key) then
      config := config || jsonb_build_object(v_entry.key, '');
      if v_entry.value not in ('null'::jsonb, '""'::jsonb) then
        secrets := secrets || jsonb_build_object(v_entry.key, v_entry.value);
      elsif v_stored is not null then
        secrets := secrets || jsonb_build_object(v_entry.key, v_stored);
      end if;
    elsif jsonb_typeof(v_entry.value) = 'object' then
      select * into v_nested from private.split_integration_config(v_entry.value, v_stored);
      config := config || jsonb_build_object(v_entry.key, v_nested.config);
      if v_nested.secrets <> '{}'::jsonb then
        secrets := secrets || jsonb_build_object(v_entry.key, v_nested.secrets);
      end if;
    elsif private.holds_secret(v_entry.value) then
      -- A list has no stable place to keep a secret across edits.
      raise exception 'Secrets inside lists are not supported: put them in an object' using errcode = '22023';
    else
      config := config || jsonb_build_object(v_entry.key, v_entry.value);
    end if;
  end loop;
end;
$function$;
revoke all on function private.split_integration_config(p_config jsonb, p_stored jsonb, OUT config jsonb, OUT secrets jsonb) from public, anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION public.integration_credentials(p_integration_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select private.jsonb_deep_merge(i.config, coalesce(s.secrets, '{}'::jsonb))
    from public.integrations i
    left join private.integration_secrets s on s.integration_id = i.id
   where i.id = p_integration_id
$function$;
revoke all on function public.integration_credentials(p_integration_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.integration_credentials(p_integration_id uuid) to service_role;

CREATE TRIGGER integrations_audit AFTER INSERT OR DELETE OR UPDATE ON public.integrations FOR EACH ROW EXECUTE FUNCTION private.audit_settings_record('integration');
CREATE TRIGGER integrations_default_created_by BEFORE INSERT ON public.integrations FOR EACH ROW EXECUTE FUNCTION private.default_created_by();
CREATE TRIGGER integrations_keep_secrets_apart BEFORE INSERT OR UPDATE ON public.integrations FOR EACH ROW EXECUTE FUNCTION private.keep_integration_secrets_apart();
CREATE TRIGGER integrations_route_follows_type BEFORE INSERT OR UPDATE OF type ON public.integrations FOR EACH ROW EXECUTE FUNCTION private.integration_route_follows_type();
CREATE TRIGGER integrations_set_updated_at BEFORE UPDATE ON public.integrations FOR EACH ROW EXECUTE FUNCTION private.set_updated_at();

create policy "admins add integrations" on public.integrations
  for insert
  to authenticated
  with check (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "admins and auditors read integrations" on public.integrations
  for select
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.can_read_settings() AS can_read_settings)));

create policy "admins delete integrations" on public.integrations
  for delete
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "admins update integrations" on public.integrations
  for update
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)))
  with check ((account_id = ( SELECT public.current_account_id() AS current_account_id)));

-- ── private.integration_secrets ──

create table private.integration_secrets (
  integration_id uuid not null,
  secrets jsonb default '{}'::jsonb not null,
  updated_at timestamp with time zone default now() not null,
  constraint integration_secrets_pkey PRIMARY KEY (integration_id),
  constraint integration_secrets_secrets_check CHECK ((jsonb_typeof(secrets) = 'object'::text)),
  constraint integration_secrets_integration_id_fkey FOREIGN KEY (integration_id) REFERENCES public.integrations(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);
alter table private.integration_secrets enable row level security;

revoke all on table private.integration_secrets from public, anon, authenticated, service_role;

-- ── functions ──

CREATE OR REPLACE FUNCTION private.holds_secret(p_value jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select case jsonb_typeof(p_value)
    when 'object' then exists (
      select 1 from jsonb_each(p_value) e
       where (private.is_secret_key(e.key) and e.value not in ('null'::jsonb, '""'::jsonb))
          or private.holds_secret(e.value))
    when 'array' then exists (select 1 from jsonb_array_elements(p_value) a where private.holds_secret(a.value))
    else false
  end
$function$;
revoke all on function private.holds_secret(p_value jsonb) from public, anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION private.is_secret_key(p_key text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(
    lower(regexp_replace(regexp_replace(p_key, '([a-z0-9])([A-Z])', '\1_\2', 'g'), '[^a-zA-Z0-9]+', '_', 'g'))
      ~ '(^|_)(pass|passwd|password|passphrase|pwd|secret|token|authorization|credential|credentials|apikey|api_key|accesskey|access_key|privatekey|private_key|signingkey|signing_key)(_|$)',
    false)
$function$;
revoke all on function private.is_secret_key(p_key text) from public, anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION private.secrets_shape(p_secrets jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(jsonb_object_agg(e.key,
           case when private.is_secret_key(e.key) then 'true'::jsonb else private.secrets_shape(e.value) end),
         '{}'::jsonb)
    from jsonb_each(p_secrets) e
$function$;
revoke all on function private.secrets_shape(p_secrets jsonb) from public, anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION public.get_public_site_info()
 RETURNS TABLE(name text, contact_email text, description text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select a.name, a.billing_email, a.description
  from public.accounts a
  order by a.created_at, a.id
  limit 1
$function$;
revoke all on function public.get_public_site_info() from public, anon, authenticated, service_role;
grant execute on function public.get_public_site_info() to anon;
grant execute on function public.get_public_site_info() to authenticated;
grant execute on function public.get_public_site_info() to service_role;

CREATE OR REPLACE FUNCTION public.request_test_mail(p_integration_id uuid)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_account_id uuid := public.current_account_id();
  v_email text;
begin
  if not coalesce(public.is_account_admin(), false) then
    raise exception 'Only an admin can send a test mail' using errcode = '42501';
  end if;
  if not exists (select 1 from public.integrations i
                  where i.id = p_integration_id and i.account_id = v_account_id and i.type = 'email' and i.is_active) then
    raise exception 'Not an active email integration of this account' using errcode = 'P0002';
  end if;
  -- One request of the account at a time, so two at once cannot both pass the count.
  perform pg_advisory_xact_lock(hashtextextended('request_test_mail:' || v_account_id::text, 0));
  if (select count(*) from public.audit_logs a
       where a.account_id = v_account_id and a.action = 'test_mail_requested'
         and a.created_at > now() - interval '1 hour') >= 5 then
    raise exception 'At most 5 test mails an hour: try again later' using errcode = '54000';
  end if;
  select u.email into v_email from public.users u where u.auth_user_id = auth.uid();
  perform private.write_audit(v_account_id, 'test_mail_requested', 'integration', p_integration_id,
    null, jsonb_build_object('to', v_email));
  return private.enqueue_job('mail.test', v_account_id,
    jsonb_build_object('integration_id', p_integration_id, 'to', v_email),
    'mail.test:' || gen_random_uuid(), p_integration_id, now(), 1);
end;
$function$;
revoke all on function public.request_test_mail(p_integration_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.request_test_mail(p_integration_id uuid) to authenticated;
grant execute on function public.request_test_mail(p_integration_id uuid) to service_role;

CREATE OR REPLACE FUNCTION public.set_mail_route(p_integration_id uuid DEFAULT NULL::uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_account_id uuid := public.current_account_id();
  v_before uuid;
begin
  if not coalesce(public.is_account_admin(), false) then
    raise exception 'Only an admin can choose the mail route' using errcode = '42501';
  end if;
  if p_integration_id is not null and not exists (
    select 1 from public.integrations i
     where i.id = p_integration_id and i.account_id = v_account_id and i.type = 'email' and i.is_active) then
    raise exception 'Not an active email integration of this account' using errcode = 'P0002';
  end if;
  select i.id into v_before from public.integrations i
   where i.account_id = v_account_id and i.is_default_mail_route;
  if v_before is not distinct from p_integration_id then
    return;
  end if;
  -- Two statements: the one-route index is checked row by row.
  update public.integrations set is_default_mail_route = false
   where account_id = v_account_id and is_default_mail_route;
  if p_integration_id is not null then
    update public.integrations set is_default_mail_route = true where id = p_integration_id;
  end if;
  perform private.write_audit(v_account_id, 'mail_route_changed', 'integration', p_integration_id,
    jsonb_build_object('integration_id', v_before), jsonb_build_object('integration_id', p_integration_id));
end;
$function$;
revoke all on function public.set_mail_route(p_integration_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.set_mail_route(p_integration_id uuid) to authenticated;
grant execute on function public.set_mail_route(p_integration_id uuid) to service_role;

CREATE OR REPLACE FUNCTION public.update_website_settings(p_company_name text, p_contact_email text, p_description text, p_timezone text, p_default_currency text)
 RETURNS public.accounts
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$;
revoke all on function public.update_website_settings(p_company_name text, p_contact_email text, p_description text, p_timezone text, p_default_currency text) from public, anon, authenticated, service_role;
grant execute on function public.update_website_settings(p_company_name text, p_contact_email text, p_description text, p_timezone text, p_default_currency text) to authenticated;
grant execute on function public.update_website_settings(p_company_name text, p_contact_email text, p_description text, p_timezone text, p_default_currency text) to service_role;

create policy "branding: admins add" on storage.objects
  for insert
  to authenticated
  with check (((bucket_id = 'branding'::text) AND ((storage.foldername(name))[1] = (( SELECT public.current_account_id() AS current_account_id))::text) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "branding: admins change" on storage.objects
  for update
  to authenticated
  using (((bucket_id = 'branding'::text) AND ((storage.foldername(name))[1] = (( SELECT public.current_account_id() AS current_account_id))::text) AND ( SELECT public.is_account_admin() AS is_account_admin)))
  with check (((bucket_id = 'branding'::text) AND ((storage.foldername(name))[1] = (( SELECT public.current_account_id() AS current_account_id))::text) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "branding: admins remove" on storage.objects
  for delete
  to authenticated
  using (((bucket_id = 'branding'::text) AND ((storage.foldername(name))[1] = (( SELECT public.current_account_id() AS current_account_id))::text) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "branding: staff read" on storage.objects
  for select
  to authenticated
  using (((bucket_id = 'branding'::text) AND ((storage.foldername(name))[1] = (( SELECT public.current_account_id() AS current_account_id))::text) AND ( SELECT public.is_account_staff() AS is_account_staff)));
