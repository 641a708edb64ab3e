-- Accounts, their people and roles, invitations and signing in: the tables every policy asks "whose
-- is this row, and what may this person do" of.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.accounts ──

-- A customer of OpsHub: every business row carries its account_id, and every
-- policy asks whether the caller belongs to that account. The seller's details
-- printed on documents live here too (decision 045).
create table public.accounts (
  id uuid default gen_random_uuid() not null,
  name text not null,
  billing_email text,
  description text,
  default_currency text default 'USD'::text not null,
  timezone text default 'UTC'::text not null,
  country text,
  subscription_status text default 'trial'::text not null,
  trial_ends_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  address_line1 text,
  address_line2 text,
  postal_code text,
  city text,
  region text,
  tax_id text,
  company_registration text,
  iban text,
  bic text,
  bank_details text,
  payment_terms text,
  logo_path text,
  accent_color text,
  analytics_goals jsonb default '{}'::jsonb not null,
  constraint accounts_pkey primary key (id),
  constraint accounts_accent_color_hex check ((accent_color ~ '^#[0-9a-f]{6}$'::text)),
  constraint accounts_address_line1_text check ((((length(address_line1) >= 1) and (length(address_line1) <= 200)) and (address_line1 !~ '[\u0001-\u001f\u007f]'::text))),
  constraint accounts_address_line2_text check ((((length(address_line2) >= 1) and (length(address_line2) <= 200)) and (address_line2 !~ '[\u0001-\u001f\u007f]'::text))),
  constraint accounts_bank_details_text check ((((length(bank_details) >= 1) and (length(bank_details) <= 500)) and (bank_details !~ '[\u0001-\u0009\u000b\u000c\u000e-\u001f\u007f]'::text))),
  constraint accounts_bic_shape check ((bic ~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$'::text)),
  constraint accounts_billing_email_no_control_chars check ((billing_email !~ '[\x01-\x1f\x7f]'::text)),
  constraint accounts_city_text check ((((length(city) >= 1) and (length(city) <= 100)) and (city !~ '[\u0001-\u001f\u007f]'::text))),
  constraint accounts_company_registration_text check ((((length(company_registration) >= 1) and (length(company_registration) <= 100)) and (company_registration !~ '[\u0001-\u001f\u007f]'::text))),
  constraint accounts_country_code check ((country ~ '^[A-Z]{2}$'::text)),
  constraint accounts_default_currency_check check (public.is_currency(default_currency)),
  constraint accounts_iban_shape check ((iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'::text)),
  constraint accounts_logo_path_own check (((logo_path = ((id)::text || '/logo.png'::text)) or (logo_path = ((id)::text || '/logo.jpg'::text)))),
  constraint accounts_name_check check ((length(btrim(name)) > 0)),
  constraint accounts_name_no_control_chars check ((name !~ '[\x01-\x1f\x7f]'::text)),
  constraint accounts_payment_terms_text check ((((length(payment_terms) >= 1) and (length(payment_terms) <= 500)) and (payment_terms !~ '[\u0001-\u0009\u000b\u000c\u000e-\u001f\u007f]'::text))),
  constraint accounts_postal_code_text check ((((length(postal_code) >= 1) and (length(postal_code) <= 20)) and (postal_code !~ '[\u0001-\u001f\u007f]'::text))),
  constraint accounts_region_text check ((((length(region) >= 1) and (length(region) <= 100)) and (region !~ '[\u0001-\u001f\u007f]'::text))),
  constraint accounts_subscription_status_check check ((subscription_status = any (array['active'::text, 'trial'::text, 'expired'::text, 'cancelled'::text]))),
  constraint accounts_tax_id_text check ((((length(tax_id) >= 1) and (length(tax_id) <= 50)) and (tax_id !~ '[\u0001-\u001f\u007f]'::text)))
);
alter table public.accounts enable row level security;

create index accounts_created_at_idx on public.accounts using btree (created_at, id);

revoke all on table public.accounts from public, anon, authenticated, service_role;
grant all on table public.accounts to authenticated;
revoke delete, insert, truncate, update on table public.accounts from authenticated;
grant all on table public.accounts to service_role;
grant update (name, billing_email, description, default_currency, timezone, country, updated_at, address_line1, address_line2, postal_code, city, region, tax_id, company_registration, iban, bic, bank_details, payment_terms, logo_path, accent_color, analytics_goals) on table public.accounts to authenticated;

create or replace function private.account_seller(p_account_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object(
    'name', a.name, 'address_line1', a.address_line1, 'address_line2', a.address_line2,
    'postal_code', a.postal_code, 'city', a.city, 'region', a.region, 'country', a.country,
    'tax_id', a.tax_id, 'company_registration', a.company_registration,
    'iban', a.iban, 'bic', a.bic, 'bank_details', a.bank_details, 'payment_terms', a.payment_terms,
    'logo_path', a.logo_path, 'accent_color', a.accent_color)
  from public.accounts a
  where a.id = p_account_id
$function$;
revoke all on function private.account_seller(p_account_id uuid) from public, anon, authenticated, service_role;

create or replace function private.audit_account_settings()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.audit_account_settings() from public, anon, authenticated, service_role;
grant execute on function private.audit_account_settings() to public;

create or replace function private.check_account_iban()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if not private.iban_valid(new.iban) then
    raise exception 'The IBAN is not valid (its check digits do not match)' using errcode = '23514';
  end if;
  return new;
end;
$function$;
revoke all on function private.check_account_iban() from public, anon, authenticated, service_role;

create or replace function private.check_analytics_goals()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_goals jsonb := new.analytics_goals;
  v_key text;
  v_value jsonb;
begin
  if jsonb_typeof(v_goals) <> 'object' then
    raise exception 'Goals must be an object' using errcode = '22023';
  end if;
  for v_key, v_value in select * from jsonb_each(v_goals) loop
    if v_key in ('new_leads', 'new_clients', 'signed_quotes') then
      if jsonb_typeof(v_value) <> 'number' or v_value::numeric <> trunc(v_value::numeric)
         or v_value::numeric < 1 or v_value::numeric > 1000000000 then
        raise exception 'A goal is a whole number from 1 to 1,000,000,000' using errcode = '22023';
      end if;
    elsif v_key = 'revenue' then
      if jsonb_typeof(v_value) <> 'object' then
        raise exception 'The revenue goal is per currency' using errcode = '22023';
      end if;
      if exists (select 1 from jsonb_each(v_value) c
                  where c.key not in ('USD', 'EUR', 'GBP') or jsonb_typeof(c.value) <> 'number'
                     or c.value::numeric <> trunc(c.value::numeric) or c.value::numeric < 1
                     or c.value::numeric > 1000000000000000) then
        raise exception 'A revenue goal is an amount above zero in USD, EUR or GBP' using errcode = '22023';
      end if;
    else
      raise exception 'Unknown goal %', v_key using errcode = '22023';
    end if;
  end loop;
  return new;
end;
$function$;
revoke all on function private.check_analytics_goals() from public, anon, authenticated, service_role;

create or replace function private.create_account_for_new_user(p_auth_user_id uuid, p_email text, p_meta jsonb)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_first_name text := nullif(btrim(p_meta ->> 'first_name'), '');
  v_last_name text := nullif(btrim(p_meta ->> 'last_name'), '');
  -- At most as long as the account name the settings screen accepts.
  v_company text := left(nullif(btrim(p_meta ->> 'company_name'), ''), 200);
  v_owner text := coalesce(nullif(concat_ws(' ', v_first_name, v_last_name), ''), split_part(p_email, '@', 1));
  v_account_id uuid;
begin
  insert into public.accounts (name, billing_email, subscription_status, trial_ends_at, default_currency, timezone)
  values (coalesce(v_company, v_owner || '''s Account'), lower(p_email), 'trial', now() + interval '14 days', 'USD', 'UTC')
  returning id into v_account_id;

  insert into public.users (account_id, auth_user_id, email, first_name, last_name, role)
  values (v_account_id, p_auth_user_id, lower(p_email), v_first_name, v_last_name, 'admin');
end;
$function$;
revoke all on function private.create_account_for_new_user(p_auth_user_id uuid, p_email text, p_meta jsonb) from public, anon, authenticated, service_role;
grant execute on function private.create_account_for_new_user(p_auth_user_id uuid, p_email text, p_meta jsonb) to public;

create or replace function private.guard_website_settings()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if private.is_end_user_request()
     and new.description is distinct from old.description
     and not (public.is_account_admin() and public.is_master_account(old.id)) then
    raise exception 'Only the master account admin can update website settings' using errcode = '42501';
  end if;
  return new;
end;
$function$;
revoke all on function private.guard_website_settings() from public, anon, authenticated, service_role;
grant execute on function private.guard_website_settings() to public;

create or replace function public.is_account_admin()
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(public.current_user_role() = 'admin', false)
$function$;
revoke all on function public.is_account_admin() from public, anon, authenticated, service_role;
grant execute on function public.is_account_admin() to authenticated, service_role;

create or replace function public.is_account_staff()
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(public.current_user_role() in ('admin', 'member', 'auditor'), false)
$function$;
revoke all on function public.is_account_staff() from public, anon, authenticated, service_role;
grant execute on function public.is_account_staff() to authenticated, service_role;

create or replace function public.is_master_account(p_account_id uuid)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(
    p_account_id = (select a.id from public.accounts a order by a.created_at, a.id limit 1),
    false)
$function$;
revoke all on function public.is_master_account(p_account_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.is_master_account(p_account_id uuid) to authenticated, service_role;

create trigger accounts_audit_settings after update on public.accounts for each row execute function private.audit_account_settings();
create trigger accounts_check_analytics_goals before insert or update of analytics_goals on public.accounts for each row execute function private.check_analytics_goals();
create trigger accounts_check_iban before insert or update of iban on public.accounts for each row execute function private.check_account_iban();
create trigger accounts_guard_website_settings before update on public.accounts for each row execute function private.guard_website_settings();
create trigger accounts_set_updated_at before update on public.accounts for each row execute function private.set_updated_at();

create policy "admins update their own account" on public.accounts
  for update
  to authenticated
  using (((id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)))
  with check ((id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their own account" on public.accounts
  for select
  to authenticated
  using (((id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

create policy "helpdesk attachments: staff read" on storage.objects
  for select
  to authenticated
  using (((bucket_id = 'helpdesk'::text) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.users ──

-- A person in an account and their role (admin, member, auditor, client, supplier:
-- decision 012). Made by the sign-up and invitation triggers on auth.users, never by the API.
create table public.users (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  auth_user_id uuid not null,
  email text not null,
  first_name text,
  last_name text,
  avatar_url text,
  role text default 'client'::text not null,
  is_active boolean default true not null,
  last_login_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  previous_login_at timestamp with time zone,
  constraint users_pkey primary key (id),
  constraint users_auth_user_id_key unique (auth_user_id),
  constraint users_id_account_id_key unique (id, account_id),
  constraint users_email_no_control_chars check ((email !~ '[\x01-\x1f\x7f]'::text)),
  constraint users_first_name_no_control_chars check ((first_name !~ '[\x01-\x1f\x7f]'::text)),
  constraint users_last_name_no_control_chars check ((last_name !~ '[\x01-\x1f\x7f]'::text)),
  constraint users_role_check check ((role = any (array['admin'::text, 'member'::text, 'auditor'::text, 'supplier'::text, 'client'::text]))),
  constraint users_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint users_auth_user_id_fkey foreign key (auth_user_id) references auth.users(id) on delete cascade
);
alter table public.users enable row level security;

create index users_account_id_created_at_id_idx on public.users using btree (account_id, created_at, id);
create index users_account_id_created_at_idx on public.users using btree (account_id, created_at desc);
create index users_account_id_email_id_idx on public.users using btree (account_id, email, id);
create index users_account_id_email_idx on public.users using btree (account_id, email);

revoke all on table public.users from public, anon, authenticated, service_role;
grant all on table public.users to authenticated;
revoke delete, insert, truncate, update on table public.users from authenticated;
grant all on table public.users to service_role;
grant update (first_name, last_name, avatar_url, role, is_active, updated_at) on table public.users to authenticated;

create or replace function private.acting_user_id()
 returns uuid
 language sql
 stable security definer
 set search_path to ''
as $function$
  select u.id from public.users u where u.auth_user_id = auth.uid()
$function$;
revoke all on function private.acting_user_id() from public, anon, authenticated, service_role;
grant execute on function private.acting_user_id() to public;

create or replace function private.apply_user_activation()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.is_active then
    update auth.users set banned_until = null where id = new.auth_user_id;
  else
    update auth.users set banned_until = now() + interval '100 years' where id = new.auth_user_id;
    delete from auth.sessions where user_id = new.auth_user_id;
  end if;
  return null;
end;
$function$;
revoke all on function private.apply_user_activation() from public, anon, authenticated, service_role;
grant execute on function private.apply_user_activation() to public;

create or replace function private.audit_user_changes()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.audit_user_changes() from public, anon, authenticated, service_role;
grant execute on function private.audit_user_changes() to public;

create or replace function private.forget_caller()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform set_config('ops.caller_identity', '', true);
  return null;
end;
$function$;
revoke all on function private.forget_caller() from public, anon, authenticated, service_role;

create or replace function private.guard_user_changes()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.guard_user_changes() from public, anon, authenticated, service_role;
grant execute on function private.guard_user_changes() to public;

create or replace function private.handle_new_auth_user()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.handle_new_auth_user() from public, anon, authenticated, service_role;
grant execute on function private.handle_new_auth_user() to public;

create or replace function private.link_supplier_orders()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  update public.purchase_orders p set supplier_user_id = new.id
   where p.account_id = new.account_id and p.supplier_user_id is null
     and p.supplier_email is not null and lower(p.supplier_email) = lower(new.email);
  return null;
end;
$function$;
revoke all on function private.link_supplier_orders() from public, anon, authenticated, service_role;

create or replace function private.sync_auth_user_changes()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  update public.users u
     set previous_login_at = case when new.last_sign_in_at is distinct from old.last_sign_in_at
                                  then u.last_login_at else u.previous_login_at end,
         last_login_at = case when new.last_sign_in_at is distinct from old.last_sign_in_at
                              then new.last_sign_in_at else u.last_login_at end,
         email = case when new.email is distinct from old.email and new.email is not null
                      then lower(new.email) else u.email end
   where u.auth_user_id = new.id;
  return null;
end;
$function$;
revoke all on function private.sync_auth_user_changes() from public, anon, authenticated, service_role;
grant execute on function private.sync_auth_user_changes() to public;

create trigger users_apply_activation after update of is_active on public.users for each row when (old.is_active is distinct from new.is_active) execute function private.apply_user_activation();
create trigger users_audit_changes after update of role, is_active on public.users for each row execute function private.audit_user_changes();
create trigger users_forget_caller after insert or delete or update or truncate on public.users for each statement execute function private.forget_caller();
create trigger users_guard_changes before update on public.users for each row execute function private.guard_user_changes();
create trigger users_link_supplier_orders after insert or update of role, email, is_active on public.users for each row when (new.role = 'supplier'::text and new.is_active) execute function private.link_supplier_orders();
create trigger users_set_updated_at before update on public.users for each row execute function private.set_updated_at();

create policy "admins and the user themselves update a user" on public.users
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (( select public.is_account_admin() as is_account_admin) or (auth_user_id = ( select public.session_user_id() as session_user_id)))))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's users, everyone themselves" on public.users
  for select
  to authenticated
  using (((auth_user_id = ( select public.session_user_id() as session_user_id)) or ((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff))));

-- ── public.user_invitations ──

-- An invitation waiting to be accepted: only the hash of its token is kept.
create table public.user_invitations (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  email text not null,
  role text default 'member'::text not null,
  first_name text,
  last_name text,
  invited_by uuid,
  expires_at timestamp with time zone default (now() + '7 days'::interval) not null,
  accepted_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  token_hash text not null,
  constraint user_invitations_pkey primary key (id),
  constraint user_invitations_token_hash_key unique (token_hash),
  constraint user_invitations_email_check check (((email = lower(email)) and (email ~~ '%_@_%'::text))),
  constraint user_invitations_email_no_control_chars check ((email !~ '[\x01-\x1f\x7f]'::text)),
  constraint user_invitations_first_name_no_control_chars check ((first_name !~ '[\x01-\x1f\x7f]'::text)),
  constraint user_invitations_last_name_no_control_chars check ((last_name !~ '[\x01-\x1f\x7f]'::text)),
  constraint user_invitations_role_check check ((role = any (array['admin'::text, 'member'::text, 'auditor'::text, 'supplier'::text, 'client'::text]))),
  constraint user_invitations_token_hash_is_sha256 check ((token_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint user_invitations_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint user_invitations_invited_by_account_id_fkey foreign key (invited_by, account_id) references public.users(id, account_id) on delete set null (invited_by)
);
alter table public.user_invitations enable row level security;

create index user_invitations_account_id_created_at_idx on public.user_invitations using btree (account_id, created_at desc);
create index user_invitations_account_id_email_idx on public.user_invitations using btree (account_id, email);
create index user_invitations_invited_by_idx on public.user_invitations using btree (invited_by);

revoke all on table public.user_invitations from public, anon, authenticated, service_role;
grant all on table public.user_invitations to authenticated;
revoke select, truncate, update on table public.user_invitations from authenticated;
grant all on table public.user_invitations to service_role;
grant select (id, account_id, email, role, first_name, last_name, invited_by, expires_at, accepted_at, created_at, updated_at) on table public.user_invitations to authenticated;

create or replace function private.audit_user_invited()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.write_audit(new.account_id, 'user_invited', 'user_invitation', new.id, null,
                              to_jsonb(new) - 'token_hash');
  return null;
end;
$function$;
revoke all on function private.audit_user_invited() from public, anon, authenticated, service_role;
grant execute on function private.audit_user_invited() to public;

create or replace function private.default_invited_by()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.invited_by is null then
    new.invited_by := public.current_user_id();
  end if;
  return new;
end;
$function$;
revoke all on function private.default_invited_by() from public, anon, authenticated, service_role;
grant execute on function private.default_invited_by() to public;

create trigger user_invitations_audit_invited after insert on public.user_invitations for each row execute function private.audit_user_invited();
create trigger user_invitations_default_invited_by before insert on public.user_invitations for each row execute function private.default_invited_by();
create trigger user_invitations_set_updated_at before update on public.user_invitations for each row execute function private.set_updated_at();

create policy "admins invite into their account" on public.user_invitations
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin) and (accepted_at is null)));

create policy "admins read their account's invitations" on public.user_invitations
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

create policy "admins withdraw their account's invitations" on public.user_invitations
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

-- ── private.failed_sign_ins ──

-- Failed sign-ins per hashed e-mail address: the lockout's memory.
create table private.failed_sign_ins (
  id bigint generated always as identity not null,
  email_hash text not null,
  failed_at timestamp with time zone default now() not null,
  constraint failed_sign_ins_pkey primary key (id)
);
alter table private.failed_sign_ins enable row level security;

create index failed_sign_ins_email_hash_failed_at_idx on private.failed_sign_ins using btree (email_hash, failed_at desc);
create index failed_sign_ins_failed_at_idx on private.failed_sign_ins using btree (failed_at);

revoke all on table private.failed_sign_ins from public, anon, authenticated, service_role;

create or replace function public.clear_failed_sign_ins()
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  delete from private.failed_sign_ins
   where email_hash = private.sign_in_email_hash(coalesce(auth.jwt() ->> 'email', ''))
     and auth.uid() is not null
$function$;
revoke all on function public.clear_failed_sign_ins() from public, anon, authenticated, service_role;
grant execute on function public.clear_failed_sign_ins() to authenticated, service_role;

create or replace function public.record_failed_sign_in(p_email text)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_hash text;
begin
  if p_email is null or length(p_email) > 254 then
    return 0;
  end if;
  v_hash := private.sign_in_email_hash(p_email);
  -- What no longer counts is dropped as new failures come in, so the table stays small.
  delete from private.failed_sign_ins where failed_at < now() - interval '15 minutes';
  insert into private.failed_sign_ins (email_hash) values (v_hash);
  return private.sign_in_lockout_seconds(v_hash);
end;
$function$;
revoke all on function public.record_failed_sign_in(p_email text) from public, anon, authenticated, service_role;
grant execute on function public.record_failed_sign_in(p_email text) to anon, authenticated, service_role;

-- ── functions ──

create or replace function private.claim_invitation(p_token text, p_auth_user_id uuid, p_email text, p_meta jsonb)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.claim_invitation(p_token text, p_auth_user_id uuid, p_email text, p_meta jsonb) from public, anon, authenticated, service_role;
grant execute on function private.claim_invitation(p_token text, p_auth_user_id uuid, p_email text, p_meta jsonb) to public;

create or replace function private.handle_invitation_token_added()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function private.handle_invitation_token_added() from public, anon, authenticated, service_role;
grant execute on function private.handle_invitation_token_added() to public;

create or replace function private.iban_valid(p_iban text)
 returns boolean
 language plpgsql
 immutable
 set search_path to ''
as $function$
declare
  v_text text;
  v_digits text := '';
  v_rest integer := 0;
  i integer;
begin
  if p_iban is null then
    return true;
  end if;
  if p_iban !~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' then
    return false;
  end if;
  v_text := substr(p_iban, 5) || substr(p_iban, 1, 4);
  for i in 1..length(v_text) loop
    v_digits := v_digits || case when substr(v_text, i, 1) ~ '[0-9]' then substr(v_text, i, 1)
                                 else (ascii(substr(v_text, i, 1)) - 55)::text end;
  end loop;
  for i in 1..length(v_digits) loop
    v_rest := (v_rest * 10 + substr(v_digits, i, 1)::integer) % 97;
  end loop;
  return v_rest = 1;
end;
$function$;
revoke all on function private.iban_valid(p_iban text) from public, anon, authenticated, service_role;

create or replace function private.invitation_token_hash(p_token text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select encode(extensions.digest(p_token, 'sha256'), 'hex')
$function$;
revoke all on function private.invitation_token_hash(p_token text) from public, anon, authenticated, service_role;
grant execute on function private.invitation_token_hash(p_token text) to public;

create or replace function private.sign_in_email_hash(p_email text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select encode(extensions.digest(lower(btrim(p_email)), 'sha256'), 'hex')
$function$;
revoke all on function private.sign_in_email_hash(p_email text) from public, anon, authenticated, service_role;
grant execute on function private.sign_in_email_hash(p_email text) to public;

create or replace function private.sign_in_lockout_seconds(p_email_hash text)
 returns integer
 language sql
 stable
 set search_path to ''
as $function$
  select coalesce(
    (select greatest(0, ceil(extract(epoch from (f.failed_at + interval '15 minutes' - now()))))::integer
       from private.failed_sign_ins f
      where f.email_hash = p_email_hash and f.failed_at > now() - interval '15 minutes'
      order by f.failed_at desc
      offset 9 limit 1),
    0)
$function$;
revoke all on function private.sign_in_lockout_seconds(p_email_hash text) from public, anon, authenticated, service_role;
grant execute on function private.sign_in_lockout_seconds(p_email_hash text) to public;

create or replace function public.can_read_settings()
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(public.current_user_role() in ('admin', 'auditor'), false)
$function$;
revoke all on function public.can_read_settings() from public, anon, authenticated, service_role;
grant execute on function public.can_read_settings() to authenticated, service_role;

create or replace function public.can_write_business()
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(public.current_user_role() in ('admin', 'member'), false)
$function$;
revoke all on function public.can_write_business() from public, anon, authenticated, service_role;
grant execute on function public.can_write_business() to authenticated, service_role;

create or replace function public.get_open_invitation(p_token text)
 returns table(email text, role text, expires_at timestamp with time zone, account_name text)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select i.email, i.role, i.expires_at, a.name
  from public.user_invitations i
  join public.accounts a on a.id = i.account_id
  where i.token_hash = private.invitation_token_hash(p_token)
    and i.accepted_at is null
    and i.expires_at > now()
$function$;
revoke all on function public.get_open_invitation(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.get_open_invitation(p_token text) to anon, authenticated, service_role;

create or replace function public.renew_invitation(p_invitation_id uuid, p_token_hash text)
 returns table(id uuid, email text, role text, first_name text, last_name text, expires_at timestamp with time zone)
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.renew_invitation(p_invitation_id uuid, p_token_hash text) from public, anon, authenticated, service_role;
grant execute on function public.renew_invitation(p_invitation_id uuid, p_token_hash text) to authenticated, service_role;

create or replace function public.sign_in_lockout(p_email text)
 returns integer
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case when length(p_email) > 254 then 0
              else private.sign_in_lockout_seconds(private.sign_in_email_hash(p_email)) end
$function$;
revoke all on function public.sign_in_lockout(p_email text) from public, anon, authenticated, service_role;
grant execute on function public.sign_in_lockout(p_email text) to anon, authenticated, service_role;

create trigger sessions_forget_caller after insert or delete or update or truncate on auth.sessions for each statement execute function private.forget_caller();
create trigger on_auth_user_created after insert on auth.users for each row execute function private.handle_new_auth_user();
create trigger on_auth_user_invitation_token after update of raw_app_meta_data on auth.users for each row when ((new.raw_app_meta_data ->> 'invitation_token'::text) is not null and (new.raw_app_meta_data ->> 'invitation_token'::text) is distinct from (old.raw_app_meta_data ->> 'invitation_token'::text)) execute function private.handle_invitation_token_added();
create trigger on_auth_user_signed_in after update of last_sign_in_at, email on auth.users for each row when (new.last_sign_in_at is distinct from old.last_sign_in_at or new.email::text is distinct from old.email::text) execute function private.sync_auth_user_changes();
