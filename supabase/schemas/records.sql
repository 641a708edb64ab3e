-- What every business record shares: the list of record types and the one rule for who reads a row.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── private.record_types ──

-- The one list of business record types (decision 035): the table of each, how
-- to name a row, and whether it keeps a history. private.reads_business_row()
-- reads it for the one read rule.
create table private.record_types (
  type text not null,
  table_name regclass not null,
  name_sql text,
  snapshot_key text,
  has_history boolean default false not null,
  constraint record_types_pkey primary key (type)
);
alter table private.record_types enable row level security;

revoke all on table private.record_types from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function private.default_created_by()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.created_by is null then
    new.created_by := public.current_user_id();
  end if;
  return new;
end;
$function$;
revoke all on function private.default_created_by() from public, anon, authenticated, service_role;
grant execute on function private.default_created_by() to public;

create or replace function private.reads_business_row(p_account_id uuid, p_contact_id uuid)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(auth.role(), '') = 'service_role'
      or coalesce(p_account_id = public.current_account_id()
                  and (public.is_account_staff() or p_contact_id in (select public.client_contact_ids())), false)
$function$;
revoke all on function private.reads_business_row(p_account_id uuid, p_contact_id uuid) from public, anon, authenticated, service_role;
