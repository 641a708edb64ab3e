-- An invoice's page shows its history (its audit rows, payments included):
-- record_history answers for invoices (and quotes, whose page shows the same)
-- as it does for leads and clients, to the account's staff only.
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
     and p_resource_type in ('lead', 'contact', 'quote', 'invoice')
     and a.resource_type = p_resource_type
     and a.resource_id = p_resource_id
   order by a.created_at desc, a.id desc
   limit 100
$$;
revoke all on function public.record_history(text, uuid) from public, anon;
grant execute on function public.record_history(text, uuid) to authenticated;
