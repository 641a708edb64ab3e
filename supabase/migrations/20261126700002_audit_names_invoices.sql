-- The audit screen names an invoice's entries (its own and its payments') by the
-- invoice number. Otherwise list_audit_logs as 20261125400001 left it.

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
begin
  if not public.can_read_settings() then
    raise exception 'Only administrators can view audit logs' using errcode = '42501';
  end if;
  return query
    with page as (
      select l.*, u.email as u_email, u.first_name as u_first_name, u.last_name as u_last_name,
             (case when jsonb_typeof(l.old_values) = 'object' then l.old_values else '{}'::jsonb end)
               || (case when jsonb_typeof(l.new_values) = 'object' then l.new_values else '{}'::jsonb end) as snap
        from public.audit_logs l
        left join public.users u on u.id = l.user_id
       where l.account_id = public.current_account_id()
         and (v_action is null or l.action = v_action)
         and (v_search = ''
              or strpos(replace(lower(l.action), '_', ' '), v_search) > 0
              or strpos(replace(lower(l.resource_type), '_', ' '), v_search) > 0
              or strpos(lower(concat_ws(' ', u.first_name, u.last_name)), v_search) > 0)
       order by l.created_at desc, l.id desc
       limit least(greatest(coalesce(p_limit, 100), 1), 100)
      -- Deep offsets are slow and no one pages that far by hand: 500 pages.
      offset least(greatest(coalesce(p_offset, 0), 0), 50000)
    )
    select p.id, p.action, p.resource_type, p.resource_id,
           coalesce(
             case p.resource_type
               when 'lead' then (select r.name from public.leads r where r.id = p.resource_id)
               when 'contact' then (select r.name from public.contacts r where r.id = p.resource_id)
               when 'quote' then (select r.quote_number from public.quotes r where r.id = p.resource_id)
               when 'invoice' then (select r.invoice_number from public.invoices r where r.id = p.resource_id)
               when 'template' then (select r.name from public.templates r where r.id = p.resource_id)
               when 'integration' then (select r.name from public.integrations r where r.id = p.resource_id)
               when 'user' then (select coalesce(nullif(concat_ws(' ', r.first_name, r.last_name), ''), r.email)
                                   from public.users r where r.id = p.resource_id)
               when 'user_invitation' then (select r.email from public.user_invitations r where r.id = p.resource_id)
               when 'account_module' then (select m.name from public.account_modules r
                                             join public.modules m on m.id = r.module_id where r.id = p.resource_id)
               when 'account' then (select r.name from public.accounts r where r.id = p.resource_id)
             end,
             -- A deleted record, named from its snapshot (the newer values win).
             case when jsonb_typeof(p.snap -> 'name') = 'string' then nullif(btrim(p.snap ->> 'name'), '') end,
             case when jsonb_typeof(p.snap -> 'quote_number') = 'string' then nullif(btrim(p.snap ->> 'quote_number'), '') end,
             case when jsonb_typeof(p.snap -> 'invoice_number') = 'string' then nullif(btrim(p.snap ->> 'invoice_number'), '') end,
             nullif(btrim(concat_ws(' ', case when jsonb_typeof(p.snap -> 'first_name') = 'string' then nullif(btrim(p.snap ->> 'first_name'), '') end, case when jsonb_typeof(p.snap -> 'last_name') = 'string' then nullif(btrim(p.snap ->> 'last_name'), '') end)), ''),
             case when jsonb_typeof(p.snap -> 'email') = 'string' then nullif(btrim(p.snap ->> 'email'), '') end,
             case when jsonb_typeof(p.snap -> 'module') = 'string' then nullif(btrim(p.snap ->> 'module'), '') end
           ),
           p.old_values, p.new_values, p.ip_address, p.user_agent, p.created_at,
           p.u_email, p.u_first_name, p.u_last_name
      from page p
     order by p.created_at desc, p.id desc;
end;
$$;

revoke all on function public.list_audit_logs(text, text, integer, integer) from public, anon;
grant execute on function public.list_audit_logs(text, text, integer, integer) to authenticated, service_role;
