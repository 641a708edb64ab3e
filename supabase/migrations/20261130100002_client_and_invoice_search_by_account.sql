-- The Clients and Invoices screens' text searches (/clients?q=, /invoices?q=)
-- from the account's own trigram indexes, as the quotes' (20261124000001)
-- and the leads' (20261130100001) searches: under row-level security `ilike`
-- may not use an index (it is not leakproof), so the lists read every
-- contact or invoice of every account to find a name.
--
-- Each search is a security definer function that states the caller's account
-- and its table's select policy itself: staff read the account's rows, a
-- client only its own contact and the invoices addressed to it, anyone else
-- nothing.

create index contacts_account_email_trgm_idx on public.contacts
  using gin (account_id, email extensions.gin_trgm_ops);
create index invoices_account_invoice_number_trgm_idx on public.invoices
  using gin (account_id, invoice_number extensions.gin_trgm_ops);
create index invoices_account_client_name_trgm_idx on public.invoices
  using gin (account_id, client_name extensions.gin_trgm_ops);
create index invoices_account_client_email_trgm_idx on public.invoices
  using gin (account_id, client_email extensions.gin_trgm_ops);

-- Who the caller may read rows of: null for staff (every row of the account),
-- else the contacts a client is (none for anyone else).
create function private.readable_contacts() returns uuid[]
language sql stable
set search_path = ''
as $$
  select case when public.is_account_staff() then null
              else coalesce(array(select public.client_contact_ids()), '{}') end
$$;

-- The caller's contacts whose name, email or company contain p_query,
-- case-insensitively. The caller pages, orders, filters and counts the result.
-- Planned at each call, without sequential scans, as search_leads.
create function public.search_contacts(p_query text)
returns setof public.contacts
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null then
    return;
  end if;
  return query execute $sql$
    select c.* from public.contacts c
     where c.account_id = $1
       and (c.name ilike $2 or c.email ilike $2 or c.company ilike $2)
       and ($3::uuid[] is null or c.id = any ($3::uuid[]))
  $sql$ using v_account, private.contains_pattern(p_query), private.readable_contacts();
end;
$$;

-- The caller's invoices whose number, client name or client email contain
-- p_query, case-insensitively; as search_contacts.
create function public.search_invoices(p_query text)
returns setof public.invoices
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null then
    return;
  end if;
  return query execute $sql$
    select i.* from public.invoices i
     where i.account_id = $1
       and (i.invoice_number ilike $2 or i.client_name ilike $2 or i.client_email ilike $2)
       and ($3::uuid[] is null or i.contact_id = any ($3::uuid[]))
  $sql$ using v_account, private.contains_pattern(p_query), private.readable_contacts();
end;
$$;

revoke all on function private.readable_contacts() from public, anon, authenticated;
revoke all on function public.search_contacts(text) from public, anon;
revoke all on function public.search_invoices(text) from public, anon;
grant execute on function public.search_contacts(text) to authenticated;
grant execute on function public.search_invoices(text) to authenticated;
