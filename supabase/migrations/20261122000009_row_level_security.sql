-- Row-level security on every table. Members of an account read and write
-- only its rows; admin-only reads and writes are checked here, not just in
-- the UI. Helpers are wrapped in (select ...) so Postgres evaluates them once
-- per statement rather than once per row.

alter table public.accounts enable row level security;
alter table public.users enable row level security;
alter table public.user_invitations enable row level security;
alter table public.contacts enable row level security;
alter table public.quotes enable row level security;
alter table public.quote_items enable row level security;
alter table public.leads enable row level security;
alter table public.modules enable row level security;
alter table public.account_modules enable row level security;
alter table public.templates enable row level security;
alter table public.integrations enable row level security;
alter table public.audit_logs enable row level security;

-- The anonymous role reads nothing from tables; the landing page uses
-- public.get_public_site_info().
revoke all on all tables in schema public from anon;

-- accounts ---------------------------------------------------------------
create policy "members read their own account" on public.accounts
  for select to authenticated
  using (id = (select public.current_account_id()));
create policy "admins update their own account" on public.accounts
  for update to authenticated
  using (id = (select public.current_account_id()) and (select public.is_account_admin()))
  with check (id = (select public.current_account_id()));
-- Accounts are created by the sign-up trigger; billing fields belong to the service role.
revoke insert, update, delete, truncate on public.accounts from authenticated;
grant update (name, billing_email, description, default_currency, timezone, country, updated_at)
  on public.accounts to authenticated;

-- Website settings (the landing page's description) are the master account
-- admin's alone; other account settings are any admin's.
create or replace function private.guard_website_settings() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.is_end_user_request()
     and new.description is distinct from old.description
     and not (public.is_account_admin() and public.is_master_account(old.id)) then
    raise exception 'Only the master account admin can update website settings' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger accounts_guard_website_settings before update on public.accounts
  for each row execute function private.guard_website_settings();

-- users ------------------------------------------------------------------
create policy "members read their account's users" on public.users
  for select to authenticated
  using (account_id = (select public.current_account_id()));
-- Admins update their account's users; anyone updates their own profile.
-- Which columns may change, and by whom, is checked by users_guard_changes.
create policy "admins and the user themselves update a user" on public.users
  for update to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_admin()) or auth_user_id = (select auth.uid())))
  with check (account_id = (select public.current_account_id()));
revoke insert, update, delete, truncate on public.users from authenticated;
grant update (first_name, last_name, avatar_url, role, is_active, updated_at) on public.users to authenticated;

-- user_invitations ----------------------------------------------------------
-- Reading by token happens only inside the server functions (service role).
create policy "admins read their account's invitations" on public.user_invitations
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));
create policy "admins invite into their account" on public.user_invitations
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.is_account_admin())
              and accepted_at is null);
create policy "admins withdraw their account's invitations" on public.user_invitations
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));
revoke update, truncate on public.user_invitations from authenticated;

-- Account-scoped business and settings tables: members read and write their own.
create policy "members read their account's contacts" on public.contacts
  for select to authenticated using (account_id = (select public.current_account_id()));
create policy "members add contacts to their account" on public.contacts
  for insert to authenticated with check (account_id = (select public.current_account_id()));
create policy "members update their account's contacts" on public.contacts
  for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));
create policy "members delete their account's contacts" on public.contacts
  for delete to authenticated using (account_id = (select public.current_account_id()));

create policy "members read their account's quotes" on public.quotes
  for select to authenticated using (account_id = (select public.current_account_id()));
create policy "members add quotes to their account" on public.quotes
  for insert to authenticated with check (account_id = (select public.current_account_id()));
create policy "members update their account's quotes" on public.quotes
  for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));
create policy "members delete their account's quotes" on public.quotes
  for delete to authenticated using (account_id = (select public.current_account_id()));
-- The number is the database's to assign.
revoke update on public.quotes from authenticated;
grant update (contact_id, created_by, currency, subtotal, total, expires_at, notes, status, updated_at)
  on public.quotes to authenticated;

-- Line items belong to a quote; the quote's account decides.
create policy "members read their account's quote items" on public.quote_items
  for select to authenticated
  using (exists (select 1 from public.quotes q
                 where q.id = quote_id and q.account_id = (select public.current_account_id())));
create policy "members add items to their account's quotes" on public.quote_items
  for insert to authenticated
  with check (exists (select 1 from public.quotes q
                      where q.id = quote_id and q.account_id = (select public.current_account_id())));
create policy "members update their account's quote items" on public.quote_items
  for update to authenticated
  using (exists (select 1 from public.quotes q
                 where q.id = quote_id and q.account_id = (select public.current_account_id())))
  with check (exists (select 1 from public.quotes q
                      where q.id = quote_id and q.account_id = (select public.current_account_id())));
create policy "members delete their account's quote items" on public.quote_items
  for delete to authenticated
  using (exists (select 1 from public.quotes q
                 where q.id = quote_id and q.account_id = (select public.current_account_id())));

create policy "members read their account's leads" on public.leads
  for select to authenticated using (account_id = (select public.current_account_id()));
create policy "members add leads to their account" on public.leads
  for insert to authenticated with check (account_id = (select public.current_account_id()));
create policy "members update their account's leads" on public.leads
  for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));
create policy "members delete their account's leads" on public.leads
  for delete to authenticated using (account_id = (select public.current_account_id()));

create policy "members read their account's templates" on public.templates
  for select to authenticated using (account_id = (select public.current_account_id()));
create policy "members add templates to their account" on public.templates
  for insert to authenticated with check (account_id = (select public.current_account_id()));
create policy "members update their account's templates" on public.templates
  for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));
create policy "members delete their account's templates" on public.templates
  for delete to authenticated using (account_id = (select public.current_account_id()));

create policy "members read their account's integrations" on public.integrations
  for select to authenticated using (account_id = (select public.current_account_id()));
create policy "members add integrations to their account" on public.integrations
  for insert to authenticated with check (account_id = (select public.current_account_id()));
create policy "members update their account's integrations" on public.integrations
  for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));
create policy "members delete their account's integrations" on public.integrations
  for delete to authenticated using (account_id = (select public.current_account_id()));

create policy "members read their account's modules" on public.account_modules
  for select to authenticated using (account_id = (select public.current_account_id()));
create policy "members subscribe their account to modules" on public.account_modules
  for insert to authenticated with check (account_id = (select public.current_account_id()));
create policy "members update their account's modules" on public.account_modules
  for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));
create policy "members remove their account's modules" on public.account_modules
  for delete to authenticated using (account_id = (select public.current_account_id()));
-- The price applied is copied from the catalogue, never chosen by a member.
revoke insert, update on public.account_modules from authenticated;
grant insert (account_id, module_id, status, start_at, end_at) on public.account_modules to authenticated;
grant update (status, start_at, end_at, updated_at) on public.account_modules to authenticated;

-- modules catalogue: everyone signed in reads it; only the service role writes.
create policy "signed-in users read the module catalogue" on public.modules
  for select to authenticated using (true);
revoke insert, update, delete, truncate on public.modules from authenticated;

-- audit_logs: admins read their account's; nobody writes (see audit_logs_append_only).
create policy "admins read their account's audit logs" on public.audit_logs
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));
revoke insert, update, delete, truncate on public.audit_logs from authenticated;

revoke truncate on all tables in schema public from authenticated;
