-- The landing page's public facts, for anonymous visitors: the master
-- account's name and contact e-mail and the website description, nothing else.
-- A narrow definer function instead of opening accounts to anon.

create or replace function public.get_public_site_info()
returns table (name text, contact_email text, description text)
language sql stable
security definer
set search_path = ''
as $$
  select a.name, a.billing_email, a.description
  from public.accounts a
  order by a.created_at, a.id
  limit 1
$$;

revoke all on function public.get_public_site_info() from public;
grant execute on function public.get_public_site_info() to anon, authenticated, service_role;
