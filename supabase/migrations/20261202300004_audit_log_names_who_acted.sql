-- The audit log screen names who acted as the histories do (decision 047):
-- list_audit_logs (as 20261129100002 left it) also answers the row's actor_kind
-- ('user', 'client', 'system'; 'user' for older rows with a user, null for
-- older rows without one), and the client's name and email kept on the row.
-- The screen said 'System' for every row with no user, a deleted user's and a
-- client's signature included.
drop function public.list_audit_logs(text, text, integer, integer);
create function public.list_audit_logs(
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
  user_last_name text,
  actor_kind text,
  actor_name text,
  actor_email text
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
  v_actions text[];
  v_types text[];
  v_users uuid[];
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
  if v_search <> '' then
    -- What the words can match, from the short lists: the log's actions and
    -- record types (one index probe each, skipping through the log) and the
    -- account's users by name.
    select coalesce(array_agg(a.action), '{}') into v_actions
      from public.audit_log_actions() a
     where strpos(replace(lower(a.action), '_', ' '), v_search) > 0;
    with recursive found (resource_type) as (
      (select l.resource_type from public.audit_logs l
        where l.account_id = public.current_account_id()
        order by l.resource_type limit 1)
      union all
      select (select l.resource_type from public.audit_logs l
               where l.account_id = public.current_account_id() and l.resource_type > found.resource_type
               order by l.resource_type limit 1)
        from found
       where found.resource_type is not null
    )
    select coalesce(array_agg(found.resource_type), '{}') into v_types
      from found
     where found.resource_type is not null
       and strpos(replace(lower(found.resource_type), '_', ' '), v_search) > 0;
    select coalesce(array_agg(u.id), '{}') into v_users
      from public.users u
     where strpos(lower(concat_ws(' ', u.first_name, u.last_name)), v_search) > 0;
  end if;
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
              or l.action = any($5)
              or l.resource_type = any($6)
              or l.user_id = any($7))
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
           p.u_email, p.u_first_name, p.u_last_name,
           coalesce(p.actor_kind, case when p.user_id is not null then 'user' end),
           p.actor_name, p.actor_email
      from page p
     order by p.created_at desc, p.id desc
  $q$,
    -- A CASE needs one WHEN at least: a type no entry has keeps it valid.
    v_current_name || ' when '''' then null',
    v_snapshot_name || ' when '''' then null')
  using v_action, v_search, p_limit, p_offset, v_actions, v_types, v_users;
end;
$$;

revoke all on function public.list_audit_logs(text, text, integer, integer) from public, anon;
grant execute on function public.list_audit_logs(text, text, integer, integer) to authenticated, service_role;
