-- Audit packages whose links have expired leave the bucket (issue 37, decision
-- 078): the links work 7 days; a day later the daily job removes the zips
-- through Storage (so their bytes go too), at most 100 a run, oldest first.
create function public.compliance_stale_packages(p_now timestamptz default now())
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select o.name from storage.objects o
   where o.bucket_id = 'compliance-packages' and o.created_at < p_now - interval '8 days'
   order by o.created_at
   limit 100
$$;
revoke all on function public.compliance_stale_packages(timestamptz) from public, anon, authenticated, service_role;
grant execute on function public.compliance_stale_packages(timestamptz) to service_role;
