-- The RPCs under the role matrix (20261124100001).
--
-- Security invoker ones need nothing new: the policies decide under them.
-- create_quote's inserts are refused to auditors and outsiders; quote_summary,
-- dashboard_overview, lead_summary and client_summary read quote_stats, leads,
-- accounts and account_modules, which outsiders cannot read, so their figures
-- come out empty for them.
--
-- search_quotes is security definer (RLS is not consulted inside it, see
-- 20261124000001), so it states the matrix itself: staff search the whole
-- account, a client only the quotes addressed to it, a supplier nothing.
-- The audit log's search and action list open to auditors as the table does
-- (the refusal keeps the product's wording for everyone else).

create or replace function public.search_quotes(p_query text)
returns setof public.quote_list
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_pattern text := '%' || replace(replace(replace(p_query, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  -- null: every quote of the account; otherwise only quotes of these contacts.
  v_contacts uuid[] := case when public.is_account_staff() then null
                            else coalesce(array(select public.client_contact_ids()), '{}') end;
begin
  if v_account is null or p_query is null then
    return;
  end if;
  return query execute $sql$
    select l.*
      from (
        select q.id from public.quotes q where q.account_id = $1 and q.quote_number ilike $2
        union
        select q.id from public.quotes q where q.account_id = $1 and q.notes ilike $2
        union
        select q.id from public.contacts c join public.quotes q on q.contact_id = c.id and q.account_id = c.account_id
         where c.account_id = $1 and c.name ilike $2
        union
        select q.id from public.contacts c join public.quotes q on q.contact_id = c.id and q.account_id = c.account_id
         where c.account_id = $1 and c.company ilike $2
      ) matched
      join public.quote_list l on l.id = matched.id
     where l.account_id = $1
       and ($3::uuid[] is null
            or exists (select 1 from public.quotes q where q.id = l.id and q.contact_id = any ($3::uuid[])))
  $sql$ using v_account, v_pattern, v_contacts;
end;
$$;

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
  if not public.can_read_settings() then
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

create or replace function public.audit_log_actions()
returns table (action text)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if not public.can_read_settings() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  return query
    select distinct l.action
      from public.audit_logs l
     where l.account_id = public.current_account_id()
     order by l.action;
end;
$$;
