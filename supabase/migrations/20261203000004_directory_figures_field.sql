-- A client's figures (revenue signed, last contact) as a computed field of
-- the directory's rows, so the list and its figures come in one request (one
-- backend round trip per page, issue 33) instead of the figures waiting for
-- the page's ids. It answers what client_directory_figures answers: for the
-- caller's own account's staff only (a row made up and passed in by hand
-- names a contact of the caller's account, or gets nothing).
create function public.directory_figures(c public.contacts) returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object('revenue', f.revenue, 'last_contact_at', f.last_contact_at)
    from public.client_directory_figures(array[c.id]) f
$$;

revoke all on function public.directory_figures(public.contacts) from public, anon;
grant execute on function public.directory_figures(public.contacts) to authenticated, service_role;
