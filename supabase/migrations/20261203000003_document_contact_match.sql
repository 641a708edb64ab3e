-- The client a document's email names (the Create client / Create invoice
-- buttons of decision 033), read alongside the document instead of after it:
-- one backend round trip for the document's page (issue 33). Security
-- invoker: the caller's policies decide which document and contacts it sees.
create function public.document_contact_match(p_document_id uuid)
returns table (id uuid, name text)
language sql stable
security invoker
set search_path = ''
as $$
  select c.id, c.name
    from public.documents d
    join public.contacts c
      on c.account_id = d.account_id
     and lower(c.email) = lower(btrim(d.fields -> 'email' ->> 'value'))
   where d.id = p_document_id
   order by c.created_at desc, c.id desc
   limit 1
$$;

revoke all on function public.document_contact_match(uuid) from public, anon;
grant execute on function public.document_contact_match(uuid) to authenticated, service_role;
