-- Who reads a business record addressed to a client (a quote, an invoice):
-- the account's staff, or the client it is addressed to (and the service role,
-- for the jobs runner). quote_document and invoice_document each stated this
-- rule; they now ask one function.
--
-- The quotes and invoices policies keep it written inline: there each part is
-- a (select ...) computed once per query, while a function in a policy runs
-- once per row (50,000 quotes counted by their staff: 7 ms inline, 15 s
-- through this function). tests/db/business-row-readers.test.ts holds the
-- function and the policies to the same answer, role by role.
create function private.reads_business_row(p_account_id uuid, p_contact_id uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(auth.role(), '') = 'service_role'
      or coalesce(p_account_id = public.current_account_id()
                  and (public.is_account_staff() or p_contact_id in (select public.client_contact_ids())), false)
$$;
revoke all on function private.reads_business_row(uuid, uuid) from public;

create or replace function public.quote_document(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.quote_document_json(q.id)
    from public.quotes q
   where q.id = p_quote_id
     and private.reads_business_row(q.account_id, q.contact_id)
$$;

create or replace function public.invoice_document(p_invoice_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.invoice_document_json(i.id)
    from public.invoices i
   where i.id = p_invoice_id
     and private.reads_business_row(i.account_id, i.contact_id)
$$;
