-- Contacts: clients and suppliers, and the figures shown beside them.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.contacts ──

-- A client or supplier of the account. (id, account_id) is unique so that
-- quotes and invoices can hold a key to a contact of their own account only.
create table public.contacts (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  name text not null,
  email text not null,
  phone text,
  company text,
  role text,
  notes text,
  is_primary boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  status text default 'active'::text not null,
  address text,
  country text,
  constraint contacts_pkey primary key (id),
  constraint contacts_id_account_id_key unique (id, account_id),
  constraint contacts_address_check check (((address is null) or (length(address) <= 500))),
  constraint contacts_company_no_control_chars check ((company !~ '[\x01-\x1f\x7f]'::text)),
  constraint contacts_country_code check ((country ~ '^[A-Z]{2}$'::text)),
  constraint contacts_email_format check ((email ~ '^[^][[:space:]@<>(),;:"\\]+@[^][[:space:]@<>(),;:"\\]+\.[^][[:space:]@<>(),;:"\\.]+$'::text)),
  constraint contacts_email_no_control_chars check ((email !~ '[\x01-\x1f\x7f]'::text)),
  constraint contacts_name_check check ((length(btrim(name)) > 0)),
  constraint contacts_name_no_control_chars check ((name !~ '[\x01-\x1f\x7f]'::text)),
  constraint contacts_status_check check ((status = any (array['active'::text, 'inactive'::text, 'prospect'::text]))),
  constraint contacts_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.contacts enable row level security;

create index contacts_account_company_trgm_idx on public.contacts using gin (account_id, company extensions.gin_trgm_ops);
create index contacts_account_email_trgm_idx on public.contacts using gin (account_id, email extensions.gin_trgm_ops);
create index contacts_account_id_company_id_idx on public.contacts using btree (account_id, company, id);
create index contacts_account_id_created_at_id_idx on public.contacts using btree (account_id, created_at desc, id desc);
create index contacts_account_id_lower_email_idx on public.contacts using btree (account_id, lower(email));
create index contacts_account_id_name_id_idx on public.contacts using btree (account_id, name, id);
create index contacts_account_id_status_created_at_idx on public.contacts using btree (account_id, status, created_at desc, id desc);
create index contacts_account_name_trgm_idx on public.contacts using gin (account_id, name extensions.gin_trgm_ops);
create index contacts_account_phone_digits_idx on public.contacts using btree (account_id, regexp_replace(phone, '\D'::text, ''::text, 'g'::text)) where (phone is not null);

-- Staff write through the policies below; never truncate, which row-level
-- security does not stop.
revoke all on table public.contacts from public, anon, authenticated, service_role;
grant all on table public.contacts to authenticated;
revoke truncate on table public.contacts from authenticated;
grant all on table public.contacts to service_role;

create or replace function private.readable_contacts()
 returns uuid[]
 language sql
 stable
 set search_path to ''
as $function$
  select case when public.is_account_staff() then null
              else coalesce(array(select public.client_contact_ids()), '{}') end
$function$;
revoke all on function private.readable_contacts() from public, anon, authenticated, service_role;

create or replace function private.roll_contact_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update private.contact_day_stats s set contact_count = s.contact_count - 1
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.contact_day_stats as s (account_id, day, contact_count)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, 1)
    on conflict (account_id, day) do update set contact_count = s.contact_count + 1;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_contact_day_stats() from public, anon, authenticated, service_role;
grant execute on function private.roll_contact_day_stats() to public;

create or replace function public.client_contact_ids()
 returns setof uuid
 language sql
 stable security definer
 set search_path to ''
as $function$
  select c.id
    from public.users u
    join public.contacts c on c.account_id = u.account_id and lower(c.email) = u.email
   where u.auth_user_id = public.session_user_id() and u.is_active and u.role = 'client'
$function$;
revoke all on function public.client_contact_ids() from public, anon, authenticated, service_role;
grant execute on function public.client_contact_ids() to authenticated, service_role;

create or replace function public.directory_figures(c public.contacts)
 returns jsonb
 language sql
 stable
 set search_path to ''
as $function$
  select jsonb_build_object('revenue', f.revenue, 'last_contact_at', f.last_contact_at)
    from public.client_directory_figures(array[c.id]) f
$function$;
revoke all on function public.directory_figures(c public.contacts) from public, anon, authenticated, service_role;
grant execute on function public.directory_figures(c public.contacts) to authenticated, service_role;

create or replace function public.search_contacts(p_query text)
 returns setof public.contacts
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null then
    return;
  end if;
  return query execute $sql$
    select c.* from public.contacts c
     where c.account_id = $1
       and (c.name ilike $2 or c.email ilike $2 or c.company ilike $2)
       and ($3::uuid[] is null or c.id = any ($3::uuid[]))
  $sql$ using v_account, private.contains_pattern(p_query), private.readable_contacts();
end;
$function$;
revoke all on function public.search_contacts(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_contacts(p_query text) to authenticated, service_role;

create trigger contacts_audit_created after insert on public.contacts for each row execute function private.audit_record_created('contact');
create trigger contacts_audit_deleted after delete on public.contacts for each row execute function private.audit_record_deleted('contact');
create trigger contacts_audit_updated after update on public.contacts for each row execute function private.audit_record_updated('contact');
create trigger contacts_event_registered after insert on public.contacts referencing new table as new_rows for each statement execute function private.events_on_insert('client_registered');
create trigger contacts_roll_day_stats after insert or delete or update of account_id, created_at on public.contacts for each row execute function private.roll_contact_day_stats();
create trigger contacts_set_updated_at before update on public.contacts for each row execute function private.set_updated_at();

create policy "business writers add contacts" on public.contacts
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete contacts" on public.contacts
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update contacts" on public.contacts
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's contacts, a client itself" on public.contacts
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (( select public.is_account_staff() as is_account_staff) or (id in ( select public.client_contact_ids() as client_contact_ids)))));

-- ── functions ──

create or replace function public.client_directory_figures(p_contact_ids uuid[])
 returns table(contact_id uuid, revenue jsonb, last_contact_at timestamp with time zone)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select c.id,
         coalesce((select jsonb_object_agg(r.currency, r.amount)
                     from (select q.currency, sum(q.total) as amount
                             from public.quotes q
                            where q.contact_id = c.id and q.account_id = c.account_id and q.status = 'signed'
                            group by q.currency) r), '{}'::jsonb),
         -- greatest() passes over a null: either lookup may find nothing.
         greatest(
           (select a.created_at
              from public.audit_logs a
             where a.account_id = c.account_id and a.resource_type = 'contact' and a.resource_id = c.id
             order by a.created_at desc
             limit 1),
           (select max(latest.created_at)
              from public.quotes q
              cross join lateral (
                select a.created_at
                  from public.audit_logs a
                 where a.account_id = c.account_id and a.resource_type = 'quote' and a.resource_id = q.id
                 order by a.created_at desc
                 limit 1) latest
             where q.contact_id = c.id))
    from public.contacts c
   where c.id = any (p_contact_ids[1:100])
     and c.account_id = public.current_account_id()
     and public.is_account_staff()
$function$;
revoke all on function public.client_directory_figures(p_contact_ids uuid[]) from public, anon, authenticated, service_role;
grant execute on function public.client_directory_figures(p_contact_ids uuid[]) to authenticated, service_role;

create or replace function public.client_summary()
 returns table(total_count bigint, active_count bigint, prospect_count bigint, new_this_month bigint)
 language sql
 stable
 set search_path to ''
as $function$
  select count(*)::bigint,
         (count(*) filter (where c.status = 'active'))::bigint,
         (count(*) filter (where c.status = 'prospect'))::bigint,
         (count(*) filter (where c.created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'))::bigint
  from public.contacts c
  where c.account_id = public.current_account_id()
$function$;
revoke all on function public.client_summary() from public, anon, authenticated, service_role;
grant execute on function public.client_summary() to authenticated, service_role;
