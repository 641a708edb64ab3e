-- The Recent Quotes list: a quote with its contact's name and company as flat
-- columns, so the list can be searched by contact as well as by number or
-- notes with plain filters (?q= on /quotes). security_invoker: the caller's
-- RLS on quotes and contacts applies, exactly as when reading the tables.

create view public.quote_list with (security_invoker = true) as
select q.id,
       q.account_id,
       q.quote_number,
       q.status,
       q.currency,
       q.total,
       q.notes,
       q.created_at,
       q.expires_at,
       c.name as contact_name,
       c.company as contact_company
  from public.quotes q
  left join public.contacts c on c.id = q.contact_id;

revoke all on public.quote_list from anon, authenticated;
grant select on public.quote_list to authenticated;
