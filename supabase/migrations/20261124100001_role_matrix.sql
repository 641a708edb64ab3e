-- The role matrix inside an account, decided by the database:
--   admin     everything;
--   member    the company's own staff: every business record (contacts,
--             quotes and their items, leads), no settings, billing, member
--             administration or audit log; the default role of an invitation;
--   auditor   reads what an admin reads, audit log included, writes nothing;
--   client    someone outside the company: only the quotes (and their items)
--             whose contact email is their own, that contact row, and their
--             own users row;
--   supplier  outside the company too: nothing yet (purchase orders and
--             shipments once logistics exists).
-- Until now every user of an account read and wrote every business and
-- settings table, integrations' secrets included; the UI only hid it.
-- Everyone may still edit their own name (users_guard_changes keeps the rest).

-- The new role ------------------------------------------------------------
alter table public.users drop constraint users_role_check;
alter table public.users add constraint users_role_check
  check (role in ('admin', 'member', 'auditor', 'supplier', 'client'));
alter table public.user_invitations drop constraint user_invitations_role_check;
alter table public.user_invitations add constraint user_invitations_role_check
  check (role in ('admin', 'member', 'auditor', 'supplier', 'client'));
alter table public.user_invitations alter column role set default 'member';

-- Helpers (same shape as 20261122000007: definer rights, answer only about the caller) --

-- The company's own people: they read the account's business records.
create or replace function public.is_account_staff() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('admin', 'member', 'auditor'), false)
$$;

-- Who may create, change and delete business records.
create or replace function public.can_write_business() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('admin', 'member'), false)
$$;

-- Who may read settings (templates, integrations) and the audit log.
create or replace function public.can_read_settings() returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('admin', 'auditor'), false)
$$;

-- A client's own contact rows in their account: those whose email is the
-- client's user email (stored lower-cased; contacts' emails are typed in by
-- staff, so compared lower-cased). Empty for every other role.
create or replace function public.client_contact_ids() returns setof uuid
language sql stable
security definer
set search_path = ''
as $$
  select c.id
    from public.users u
    join public.contacts c on c.account_id = u.account_id and lower(c.email) = u.email
   where u.auth_user_id = auth.uid() and u.is_active and u.role = 'client'
$$;
create index contacts_account_id_lower_email_idx on public.contacts (account_id, lower(email));

revoke all on function public.is_account_staff() from public, anon;
revoke all on function public.can_write_business() from public, anon;
revoke all on function public.can_read_settings() from public, anon;
revoke all on function public.client_contact_ids() from public, anon;
grant execute on function public.is_account_staff() to authenticated, service_role;
grant execute on function public.can_write_business() to authenticated, service_role;
grant execute on function public.can_read_settings() to authenticated, service_role;
grant execute on function public.client_contact_ids() to authenticated, service_role;

-- accounts: staff read their account (the dashboard shows its subscription);
-- admins alone update it (20261122000009's update policy stays).
drop policy "members read their own account" on public.accounts;
create policy "staff read their own account" on public.accounts
  for select to authenticated
  using (id = (select public.current_account_id()) and (select public.is_account_staff()));

-- users: staff read their colleagues; an outsider only their own row.
drop policy "members read their account's users" on public.users;
create policy "staff read their account's users, others themselves" on public.users
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff()) or auth_user_id = (select auth.uid())));

-- user_invitations stay admins' alone (20261122000009), even to read: a row
-- holds its token, and whoever holds a token can accept the invitation.

-- contacts ---------------------------------------------------------------------
drop policy "members read their account's contacts" on public.contacts;
drop policy "members add contacts to their account" on public.contacts;
drop policy "members update their account's contacts" on public.contacts;
drop policy "members delete their account's contacts" on public.contacts;
create policy "staff read their account's contacts, a client itself" on public.contacts
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff()) or id in (select public.client_contact_ids())));
create policy "business writers add contacts" on public.contacts
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update contacts" on public.contacts
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete contacts" on public.contacts
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- quotes -----------------------------------------------------------------------
drop policy "members read their account's quotes" on public.quotes;
drop policy "members add quotes to their account" on public.quotes;
drop policy "members update their account's quotes" on public.quotes;
drop policy "members delete their account's quotes" on public.quotes;
create policy "staff read their account's quotes, a client those addressed to it" on public.quotes
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff()) or contact_id in (select public.client_contact_ids())));
create policy "business writers add quotes" on public.quotes
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update quotes" on public.quotes
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete quotes" on public.quotes
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- quote_items: whoever reads the quote reads its items (the quotes policy
-- applies inside the subquery); business writers write them.
drop policy "members read their account's quote items" on public.quote_items;
drop policy "members add items to their account's quotes" on public.quote_items;
drop policy "members update their account's quote items" on public.quote_items;
drop policy "members delete their account's quote items" on public.quote_items;
create policy "readers of a quote read its items" on public.quote_items
  for select to authenticated
  using (exists (select 1 from public.quotes q
                 where q.id = quote_id and q.account_id = (select public.current_account_id())));
create policy "business writers add quote items" on public.quote_items
  for insert to authenticated
  with check ((select public.can_write_business())
              and exists (select 1 from public.quotes q
                          where q.id = quote_id and q.account_id = (select public.current_account_id())));
create policy "business writers update quote items" on public.quote_items
  for update to authenticated
  using ((select public.can_write_business())
         and exists (select 1 from public.quotes q
                     where q.id = quote_id and q.account_id = (select public.current_account_id())))
  with check (exists (select 1 from public.quotes q
                      where q.id = quote_id and q.account_id = (select public.current_account_id())));
create policy "business writers delete quote items" on public.quote_items
  for delete to authenticated
  using ((select public.can_write_business())
         and exists (select 1 from public.quotes q
                     where q.id = quote_id and q.account_id = (select public.current_account_id())));

-- leads ------------------------------------------------------------------------
drop policy "members read their account's leads" on public.leads;
drop policy "members add leads to their account" on public.leads;
drop policy "members update their account's leads" on public.leads;
drop policy "members delete their account's leads" on public.leads;
create policy "staff read their account's leads" on public.leads
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add leads" on public.leads
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update leads" on public.leads
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete leads" on public.leads
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- templates and integrations: settings, read by admins and auditors, written by admins.
drop policy "members read their account's templates" on public.templates;
drop policy "members add templates to their account" on public.templates;
drop policy "members update their account's templates" on public.templates;
drop policy "members delete their account's templates" on public.templates;
create policy "admins and auditors read templates" on public.templates
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_read_settings()));
create policy "admins add templates" on public.templates
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.is_account_admin()));
create policy "admins update templates" on public.templates
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()))
  with check (account_id = (select public.current_account_id()));
create policy "admins delete templates" on public.templates
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));

drop policy "members read their account's integrations" on public.integrations;
drop policy "members add integrations to their account" on public.integrations;
drop policy "members update their account's integrations" on public.integrations;
drop policy "members delete their account's integrations" on public.integrations;
create policy "admins and auditors read integrations" on public.integrations
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_read_settings()));
create policy "admins add integrations" on public.integrations
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.is_account_admin()));
create policy "admins update integrations" on public.integrations
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()))
  with check (account_id = (select public.current_account_id()));
create policy "admins delete integrations" on public.integrations
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));

-- account_modules: billing. Staff read which modules the account has (the
-- dashboard's figures); admins alone subscribe, pause or cancel.
drop policy "members read their account's modules" on public.account_modules;
drop policy "members subscribe their account to modules" on public.account_modules;
drop policy "members update their account's modules" on public.account_modules;
drop policy "members remove their account's modules" on public.account_modules;
create policy "staff read their account's modules" on public.account_modules
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "admins subscribe their account to modules" on public.account_modules
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.is_account_admin()));
create policy "admins update their account's modules" on public.account_modules
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()))
  with check (account_id = (select public.current_account_id()));
create policy "admins remove their account's modules" on public.account_modules
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_admin()));

-- audit_logs: auditors read them as admins do.
drop policy "admins read their account's audit logs" on public.audit_logs;
create policy "admins and auditors read their account's audit logs" on public.audit_logs
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_read_settings()));

-- quote_stats: the pipeline's figures are staff's alone.
drop policy "members read their account's quote figures" on public.quote_stats;
create policy "staff read their account's quote figures" on public.quote_stats
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
