-- A client sees a quote only once it was sent to them (issue 30, item 11).
--
-- The quotes policy let a client read every quote addressed to its contact,
-- drafts included: "My quotes" listed a never-sent draft with its prices.
-- Now an outsider's quote must have been sent (sent_at is stamped by the
-- database when a quote leaves draft and cleared on a draft: 20261125200001),
-- so a client sees sent, viewed, signed, declined, superseded quotes and one
-- that expired after it was sent, never a draft nor a draft that expired
-- unsent. Staff read their account's quotes as before.
--
-- Everything that serves quotes to clients follows: the quotes policy (and
-- through it quote_items, whose policy reads quotes, and the quote_list view,
-- security invoker), quote_document (the PDF), and search_quotes (security
-- definer: it states the rule itself). record_history and the audit log are
-- staff only already; a quote's public link opens only a sent quote.

drop policy "staff read their account's quotes, a client those addressed to it" on public.quotes;
create policy "staff read their account's quotes, a client those sent to it" on public.quotes
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff())
              or (sent_at is not null and contact_id in (select public.client_contact_ids()))));

-- The rule of the policy above for one quote, for definer functions.
create function private.reads_quote(p_quote public.quotes) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select private.reads_business_row(p_quote.account_id, p_quote.contact_id)
     and (p_quote.sent_at is not null or coalesce(auth.role(), '') = 'service_role'
          or coalesce(public.is_account_staff(), false))
$$;
revoke all on function private.reads_quote(public.quotes) from public;

create or replace function public.quote_document(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.quote_document_json(q.id)
    from public.quotes q
   where q.id = p_quote_id
     and private.reads_quote(q)
$$;

create or replace function public.search_quotes(p_query text)
returns setof public.quote_list
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_pattern text := '%' || replace(replace(replace(p_query, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  -- null: every quote of the account; otherwise only quotes sent to these contacts.
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
            or exists (select 1 from public.quotes q
                        where q.id = l.id and q.contact_id = any ($3::uuid[]) and q.sent_at is not null))
  $sql$ using v_account, v_pattern, v_contacts;
end;
$$;
