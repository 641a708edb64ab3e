-- Leads and clients become records a user works on: opened, edited, moved
-- along, converted, deleted, with their history. What the database keeps true:
--
-- * A client (contact) with quotes cannot be deleted: quotes keep their
--   contact (the foreign key no longer sets it null), and the app says why.
--   The check is NO ACTION, run at the end of the statement, so deleting a
--   whole account (which cascades to both) still works.
-- * A lead remembers the client it was converted to (leads.contact_id); that
--   client may still be deleted, the lead then forgets it.
-- * Edits and deletes of leads and clients are audited like their creation;
--   an audit row outlives its record.
-- * Staff (admins, members, auditors) read a record's history and the
--   directory's figures through two definer functions, since members do not
--   read the audit log itself; outsiders get nothing from either.

alter table public.contacts
  add column address text check (address is null or length(address) <= 500);

alter table public.quotes drop constraint quotes_contact_id_account_id_fkey;
alter table public.quotes add constraint quotes_contact_id_account_id_fkey
  foreign key (contact_id, account_id) references public.contacts (id, account_id);

alter table public.leads add column contact_id uuid;
alter table public.leads add constraint leads_contact_id_account_id_fkey
  foreign key (contact_id, account_id) references public.contacts (id, account_id) on delete set null (contact_id);
create index leads_contact_id_idx on public.leads (contact_id) where contact_id is not null;

-- lead_updated / lead_deleted, contact_updated / contact_deleted.
create or replace function private.audit_record_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_resource text := tg_argv[0];
begin
  -- A delete cascading from the account's own deletion has nowhere to log.
  if exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, v_resource || '_deleted', v_resource, old.id, to_jsonb(old), null);
  end if;
  return null;
end;
$$;
revoke all on function private.audit_record_deleted() from public;

create trigger leads_audit_updated after update on public.leads
  for each row execute function private.audit_record_updated('lead');
create trigger leads_audit_deleted after delete on public.leads
  for each row execute function private.audit_record_deleted('lead');
create trigger contacts_audit_updated after update on public.contacts
  for each row execute function private.audit_record_updated('contact');
create trigger contacts_audit_deleted after delete on public.contacts
  for each row execute function private.audit_record_deleted('contact');

-- Converting a lead: a client made from its details, the lead marked
-- qualified and linked to it, in one transaction. Converting it again
-- returns the client it already has. Runs as the caller: RLS decides who may.
create or replace function public.convert_lead(p_lead_id uuid) returns public.contacts
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_lead public.leads;
  v_contact public.contacts;
begin
  select * into v_lead from public.leads l where l.id = p_lead_id for update;
  if not found then
    raise exception 'Lead not found' using errcode = 'P0002';
  end if;
  if v_lead.contact_id is not null then
    select * into v_contact from public.contacts c where c.id = v_lead.contact_id;
    if found then
      return v_contact;
    end if;
  end if;
  insert into public.contacts (account_id, name, email, phone, company, role, notes, is_primary, status)
  values (v_lead.account_id, v_lead.name, v_lead.email, v_lead.phone_whatsapp, v_lead.company, v_lead.role,
          v_lead.notes, true, 'active')
  returning * into v_contact;
  update public.leads l set contact_id = v_contact.id, status = 'qualified' where l.id = v_lead.id;
  return v_contact;
end;
$$;
revoke all on function public.convert_lead(uuid) from public, anon;
grant execute on function public.convert_lead(uuid) to authenticated;

-- A draft quote with one line item for an existing client of the account;
-- the same checks as create_quote, which makes a new client instead.
create or replace function public.create_client_quote(
  p_contact_id uuid,
  p_description text,
  p_unit_price integer,
  p_quantity integer,
  p_currency text default 'USD',
  p_expires_in_days integer default 30,
  p_notes text default null
) returns public.quotes
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_total bigint;
  v_quote public.quotes;
begin
  if v_account_id is null then
    raise exception 'User account not found' using errcode = 'P0001';
  end if;
  if not exists (select 1 from public.contacts c where c.id = p_contact_id and c.account_id = v_account_id) then
    raise exception 'Client not found' using errcode = 'P0002';
  end if;
  if nullif(btrim(p_description), '') is null then
    raise exception 'Description is required' using errcode = '22023';
  end if;
  if p_unit_price is null or p_unit_price < 0 then
    raise exception 'Unit price must be zero or more' using errcode = '22023';
  end if;
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Quantity must be at least 1' using errcode = '22023';
  end if;
  if coalesce(p_currency, 'USD') not in ('USD', 'EUR', 'GBP') then
    raise exception 'Currency must be USD, EUR or GBP' using errcode = '22023';
  end if;
  if p_expires_in_days is null or p_expires_in_days < 1 or p_expires_in_days > 365 then
    raise exception 'Expiry must be between 1 and 365 days' using errcode = '22023';
  end if;
  v_total := p_unit_price::bigint * p_quantity;
  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes, status)
  values (v_account_id, p_contact_id, public.current_user_id(), coalesce(p_currency, 'USD'), v_total, v_total,
          now() + make_interval(days => p_expires_in_days), nullif(btrim(p_notes), ''), 'draft')
  returning * into v_quote;
  insert into public.quote_items (quote_id, description, qty, unit_price, total)
  values (v_quote.id, btrim(p_description), p_quantity, p_unit_price, v_total);
  return v_quote;
end;
$$;
revoke all on function public.create_client_quote(uuid, text, integer, integer, text, integer, text) from public, anon;
grant execute on function public.create_client_quote(uuid, text, integer, integer, text, integer, text) to authenticated;

-- A lead's or client's history: its audit rows, newest first, each with the
-- name of who acted (their email when they have no name; null when the user
-- is gone). For the account's staff only; nothing for anyone else.
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
     and p_resource_type in ('lead', 'contact')
     and a.resource_type = p_resource_type
     and a.resource_id = p_resource_id
   order by a.created_at desc, a.id desc
   limit 100
$$;
revoke all on function public.record_history(text, uuid) from public, anon;
grant execute on function public.record_history(text, uuid) to authenticated;

-- The client directory's figures for a page of clients: revenue from signed
-- quotes as one sum per currency (never added across currencies), and the
-- last contact, the newest audit row about the client or one of its quotes.
-- For the account's staff only; nothing for anyone else.
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
         (select max(a.created_at)
            from public.audit_logs a
           where a.account_id = c.account_id
             and ((a.resource_type = 'contact' and a.resource_id = c.id)
                  or (a.resource_type = 'quote'
                      and a.resource_id in (select q.id from public.quotes q where q.contact_id = c.id))))
    from public.contacts c
   where c.id = any (p_contact_ids[1:100])
     and c.account_id = public.current_account_id()
     and public.is_account_staff()
$$;
revoke all on function public.client_directory_figures(uuid[]) from public, anon;
grant execute on function public.client_directory_figures(uuid[]) to authenticated;

-- The last-contact lookup reads an account's audit rows of one resource.
create index audit_logs_resource_idx on public.audit_logs (account_id, resource_type, resource_id, created_at desc);
