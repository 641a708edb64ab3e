-- The clients directory's "last contact" for a page of clients, flat however
-- many quotes and audit entries the account has. It was one lookup with an
-- OR (the contact's own entries, or those of any of its quotes), which the
-- planner answered by walking the account's whole audit log for each client:
-- at 100,000 quotes (and as many entries) a /clients page took ~29 s on
-- PGlite (bench/README.md, "Business screens"). Two lookups instead, each
-- along the (account, resource type, resource, time) index: the contact's own
-- latest entry, and the latest entry of each of its quotes.
create or replace function public.client_directory_figures(p_contact_ids uuid[])
returns table (contact_id uuid, revenue jsonb, last_contact_at timestamptz)
language sql stable
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.client_directory_figures(uuid[]) from public, anon;
grant execute on function public.client_directory_figures(uuid[]) to authenticated;
