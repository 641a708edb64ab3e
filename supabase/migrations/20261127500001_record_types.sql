-- One table of the record types the audit log speaks of, read by the two
-- functions that used to list them each in their own way: list_audit_logs
-- (how an entry's record is named) and record_history (whose history a
-- record's page shows). A new module adds its row here instead of restating
-- either function. Outputs are as 20261126700002 and 20261126800001 left them.

create table private.record_types (
  -- audit_logs.resource_type
  type text primary key,
  table_name regclass not null,
  -- The record's name while it exists: an SQL expression over its row `r`,
  -- read through row-level security. Null: named only from its snapshot.
  -- Written by migrations only (no API role reaches this table).
  name_sql text,
  -- The field of its audit snapshot that names a deleted record, when it is
  -- not one every record type shares (name, a person's names, email, module).
  snapshot_key text,
  -- A business record with a page of its own, whose history its page shows
  -- to the account's staff (settings records' history is the audit screen's).
  has_history boolean not null default false
);
revoke all on private.record_types from public;
alter table private.record_types enable row level security;

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('lead', 'public.leads', 'r.name', null, true),
  ('contact', 'public.contacts', 'r.name', null, true),
  ('quote', 'public.quotes', 'r.quote_number', 'quote_number', true),
  ('invoice', 'public.invoices', 'r.invoice_number', 'invoice_number', true),
  ('document', 'public.documents', null, null, true),
  ('template', 'public.templates', 'r.name', null, false),
  ('integration', 'public.integrations', 'r.name', null, false),
  ('user', 'public.users', $$coalesce(nullif(concat_ws(' ', r.first_name, r.last_name), ''), r.email)$$, null, false),
  ('user_invitation', 'public.user_invitations', 'r.email', null, false),
  ('account_module', 'public.account_modules', '(select m.name from public.modules m where m.id = r.module_id)', null, false),
  ('account', 'public.accounts', 'r.name', null, false);

-- How each type is named, for list_audit_logs: it runs as its caller (its
-- lookups read through row-level security), who has no use of the private
-- schema. Only to those who may read the audit log.
create function public.audit_record_naming()
returns table (type text, table_name text, name_sql text, snapshot_key text)
language sql stable
security definer
set search_path = ''
as $$
  select t.type, t.table_name::text, t.name_sql, t.snapshot_key
    from private.record_types t
   where public.can_read_settings()
   order by t.type
$$;
revoke all on function public.audit_record_naming() from public, anon;
grant execute on function public.audit_record_naming() to authenticated, service_role;

-- The same query as before, its two per-type lists (the record's name while it
-- exists, its snapshot's number field) written from private.record_types.
create or replace function public.list_audit_logs(
  p_search text default null,
  p_action text default null,
  p_limit integer default 100,
  p_offset integer default 0
) returns table (
  id uuid,
  action text,
  resource_type text,
  resource_id uuid,
  record_name text,
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
  v_current_name text;
  v_snapshot_name text;
begin
  if not public.can_read_settings() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  select coalesce(string_agg(format('when %L then (select (%s)::text from %s r where r.id = p.resource_id)',
                                    n.type, n.name_sql, n.table_name), ' ')
                    filter (where n.name_sql is not null), ''),
         coalesce(string_agg(format('when %L then case when jsonb_typeof(p.snap -> %2$L) = ''string'' then nullif(btrim(p.snap ->> %2$L), '''') end',
                                    n.type, n.snapshot_key), ' ')
                    filter (where n.snapshot_key is not null), '')
    into v_current_name, v_snapshot_name
    from public.audit_record_naming() n;
  return query execute format($q$
    with page as (
      select l.*, u.email as u_email, u.first_name as u_first_name, u.last_name as u_last_name,
             (case when jsonb_typeof(l.old_values) = 'object' then l.old_values else '{}'::jsonb end)
               || (case when jsonb_typeof(l.new_values) = 'object' then l.new_values else '{}'::jsonb end) as snap
        from public.audit_logs l
        left join public.users u on u.id = l.user_id
       where l.account_id = public.current_account_id()
         and ($1 is null or l.action = $1)
         and ($2 = ''
              or strpos(replace(lower(l.action), '_', ' '), $2) > 0
              or strpos(replace(lower(l.resource_type), '_', ' '), $2) > 0
              or strpos(lower(concat_ws(' ', u.first_name, u.last_name)), $2) > 0)
       order by l.created_at desc, l.id desc
       limit least(greatest(coalesce($3, 100), 1), 100)
      -- Deep offsets are slow and no one pages that far by hand: 500 pages.
      offset least(greatest(coalesce($4, 0), 0), 50000)
    )
    select p.id, p.action, p.resource_type, p.resource_id,
           coalesce(
             case p.resource_type %s end,
             -- A deleted record, named from its snapshot (the newer values win).
             case when jsonb_typeof(p.snap -> 'name') = 'string' then nullif(btrim(p.snap ->> 'name'), '') end,
             case p.resource_type %s end,
             nullif(btrim(concat_ws(' ', case when jsonb_typeof(p.snap -> 'first_name') = 'string' then nullif(btrim(p.snap ->> 'first_name'), '') end, case when jsonb_typeof(p.snap -> 'last_name') = 'string' then nullif(btrim(p.snap ->> 'last_name'), '') end)), ''),
             case when jsonb_typeof(p.snap -> 'email') = 'string' then nullif(btrim(p.snap ->> 'email'), '') end,
             case when jsonb_typeof(p.snap -> 'module') = 'string' then nullif(btrim(p.snap ->> 'module'), '') end
           ),
           p.old_values, p.new_values, p.ip_address, p.user_agent, p.created_at,
           p.u_email, p.u_first_name, p.u_last_name
      from page p
     order by p.created_at desc, p.id desc
  $q$,
    -- A CASE needs one WHEN at least: a type no entry has keeps it valid.
    v_current_name || ' when '''' then null',
    v_snapshot_name || ' when '''' then null')
  using v_action, v_search, p_limit, p_offset;
end;
$$;

revoke all on function public.list_audit_logs(text, text, integer, integer) from public, anon;
grant execute on function public.list_audit_logs(text, text, integer, integer) to authenticated, service_role;

create or replace function public.record_history(p_resource_type text, p_resource_id uuid)
returns table (id uuid, action text, created_at timestamptz, actor_name text, old_values jsonb, new_values jsonb)
language sql stable
security definer
set search_path = ''
as $$
  select a.id, a.action, a.created_at,
         coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email),
         a.old_values, a.new_values
    from public.audit_logs a
    left join public.users u on u.id = a.user_id
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
