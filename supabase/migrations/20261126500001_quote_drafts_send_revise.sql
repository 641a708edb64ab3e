-- Working on a quote from its pages (decision 025): a draft is saved whole
-- (its fields and its ordered line items, in one call), sent (which queues
-- the mail to its contact), and a quote that left draft is revised into a new
-- draft. The quote's history (record_history) now covers quotes, and its
-- audit rows name state changes by what happened: quote_sent, quote_viewed,
-- quote_signed, quote_declined, quote_expired, quote_revised, quote_deleted.

-- Audit rows of a quote never carry its link's token hash or the drawn
-- signature (a hash of a secret has no place in a log; a PNG is no field).
create or replace function private.quote_audit_snapshot(p_row public.quotes) returns jsonb
language sql immutable
set search_path = ''
as $$
  select to_jsonb(p_row) - 'link_token_hash' - 'signature_png'
$$;
revoke all on function private.quote_audit_snapshot(public.quotes) from public;

create or replace function private.audit_quote_updated() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
begin
  -- The public link's functions (issuing a link, recording a delivery,
  -- viewed, signed, declined, expired) write their own named rows, or none,
  -- and say so with this transaction-local flag.
  if current_setting('opshub.quote_named_audit', true) = 'on' then
    return null;
  end if;
  select * into v_changes
    from private.changed_values(private.quote_audit_snapshot(old), private.quote_audit_snapshot(new));
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(
      new.account_id,
      case when new.status is distinct from old.status then 'quote_' || new.status else 'quote_updated' end,
      'quote', new.id, v_changes.old_values, v_changes.new_values);
  end if;
  return null;
end;
$$;
revoke all on function private.audit_quote_updated() from public;

drop trigger quotes_audit_updated on public.quotes;
create trigger quotes_audit_updated after update on public.quotes
  for each row execute function private.audit_quote_updated();

create or replace function private.audit_quote_deleted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A delete cascading from the account's own deletion has nowhere to log.
  if exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, 'quote_deleted', 'quote', old.id, private.quote_audit_snapshot(old), null);
  end if;
  return null;
end;
$$;
revoke all on function private.audit_quote_deleted() from public;
create trigger quotes_audit_deleted after delete on public.quotes
  for each row execute function private.audit_quote_deleted();

-- Only a draft is deleted by a person: what a client was sent stays on record.
create or replace function private.guard_quote_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.is_end_user_request() and old.status <> 'draft'
     and exists (select 1 from public.accounts a where a.id = old.account_id) then
    raise exception 'Only a draft quote can be deleted' using errcode = '42501';
  end if;
  return old;
end;
$$;
revoke all on function private.guard_quote_delete() from public;
create trigger quotes_guard_delete before delete on public.quotes
  for each row execute function private.guard_quote_delete();

-- A record's history now covers quotes too.
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
     and p_resource_type in ('lead', 'contact', 'quote')
     and a.resource_type = p_resource_type
     and a.resource_id = p_resource_id
   order by a.created_at desc, a.id desc
   limit 100
$$;

-- Saves a draft whole: its client, currency, expiry, notes, tax rate,
-- discount, and its items in the order given (replacing those it had). Runs
-- as the caller: row-level security decides who may write which quote, the
-- guards refuse anything but a draft. Returns the saved quote, its amounts
-- computed by the database.
create or replace function public.save_quote_draft(
  p_quote_id uuid,
  p_contact_id uuid,
  p_currency text,
  p_expires_at timestamptz,
  p_notes text,
  p_tax_rate numeric,
  p_discount numeric,
  p_items jsonb
) returns public.quotes
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_quote public.quotes;
  v_notes text := nullif(btrim(p_notes), '');
  v_item jsonb;
  v_ord integer := 0;
  v_description text;
  v_qty numeric;
  v_price numeric;
  v_descriptions text[] := '{}';
  v_qtys integer[] := '{}';
  v_prices integer[] := '{}';
begin
  if not coalesce(public.can_write_business(), false) then
    raise exception 'Your role can view quotes but not change them' using errcode = '42501';
  end if;
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if not found then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  if v_quote.status <> 'draft' then
    raise exception 'Only a draft quote can be edited; revise it instead' using errcode = '42501';
  end if;
  if p_contact_id is null or not exists (
       select 1 from public.contacts c where c.id = p_contact_id and c.account_id = v_quote.account_id) then
    raise exception 'Client not found' using errcode = 'P0002';
  end if;
  if p_currency is null or p_currency not in ('USD', 'EUR', 'GBP') then
    raise exception 'Currency must be USD, EUR or GBP' using errcode = '22023';
  end if;
  if p_expires_at is null or p_expires_at <= now() then
    raise exception 'The expiry must be in the future' using errcode = '22023';
  end if;
  if length(v_notes) > 2000 then
    raise exception 'Notes must be at most 2000 characters' using errcode = '22023';
  end if;
  if p_tax_rate is null or p_tax_rate < 0 or p_tax_rate > 100 or p_tax_rate <> round(p_tax_rate, 2) then
    raise exception 'Tax rate must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  if p_discount is null or p_discount < 0 or p_discount > 100 or p_discount <> round(p_discount, 2) then
    raise exception 'Discount must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  -- The items as the edit form sends them: 1 to 100 objects with a
  -- description (1-2000 characters), a whole quantity (1 to 1,000,000) and a
  -- unit price in whole cents (0 to 2^31-1), checked before anything is
  -- written. Anything else an object carries (a total) is ignored: totals
  -- are computed.
  if p_items is null or jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) < 1 then
    raise exception 'A quote needs at least one line item' using errcode = '22023';
  end if;
  if jsonb_array_length(p_items) > 100 then
    raise exception 'A quote has at most 100 line items' using errcode = '22023';
  end if;
  for v_item in select e.value from jsonb_array_elements(p_items) with ordinality e(value, n) order by e.n loop
    v_ord := v_ord + 1;
    if jsonb_typeof(v_item) <> 'object' then
      raise exception 'Line item % is not an item', v_ord using errcode = '22023';
    end if;
    v_description := btrim(case when jsonb_typeof(v_item -> 'description') = 'string' then v_item ->> 'description' end);
    if v_description is null or v_description = '' then
      raise exception 'Line item %: description is required', v_ord using errcode = '22023';
    end if;
    if length(v_description) > 2000 then
      raise exception 'Line item %: description must be at most 2000 characters', v_ord using errcode = '22023';
    end if;
    v_qty := case when jsonb_typeof(v_item -> 'qty') = 'number' then (v_item ->> 'qty')::numeric end;
    if v_qty is null or v_qty <> trunc(v_qty) or v_qty < 1 or v_qty > 1000000 then
      raise exception 'Line item %: quantity must be a whole number from 1 to 1,000,000', v_ord using errcode = '22023';
    end if;
    v_price := case when jsonb_typeof(v_item -> 'unit_price') = 'number' then (v_item ->> 'unit_price')::numeric end;
    if v_price is null or v_price <> trunc(v_price) or v_price < 0 or v_price > 2147483647 then
      raise exception 'Line item %: unit price must be whole cents of at least 0', v_ord using errcode = '22023';
    end if;
    v_descriptions := v_descriptions || v_description;
    v_qtys := v_qtys || v_qty::integer;
    v_prices := v_prices || v_price::integer;
  end loop;

  -- The form gives a day: the same day as before (still ahead) keeps its
  -- moment, so a save that did not touch the expiry does not change it.
  update public.quotes q
     set contact_id = p_contact_id, currency = p_currency, notes = v_notes,
         tax_rate = p_tax_rate, discount = p_discount,
         expires_at = case
           when q.expires_at > now()
                and (q.expires_at at time zone 'UTC')::date = (p_expires_at at time zone 'UTC')::date then q.expires_at
           else p_expires_at end
   where q.id = p_quote_id;

  -- One statement: the row triggers that recompute the amounts run once it
  -- has finished, so the quote's amounts change (and are audited) once.
  with removed as (
    delete from public.quote_items i where i.quote_id = p_quote_id
  )
  insert into public.quote_items (quote_id, description, qty, unit_price, total, position)
  select p_quote_id, c.description, c.qty, c.unit_price, c.qty::bigint * c.unit_price, (c.n - 1)::integer
    from unnest(v_descriptions, v_qtys, v_prices) with ordinality c(description, qty, unit_price, n)
   order by c.n;

  select * into v_quote from public.quotes q where q.id = p_quote_id;
  return v_quote;
end;
$$;
revoke all on function public.save_quote_draft(uuid, uuid, text, timestamptz, text, numeric, numeric, jsonb) from public, anon;
grant execute on function public.save_quote_draft(uuid, uuid, text, timestamptz, text, numeric, numeric, jsonb) to authenticated;

-- The account's staff who may write, acting on a quote of their account
-- (definer functions check it themselves; RLS does not apply to them).
create or replace function private.quote_for_staff_writer(p_quote_id uuid) returns public.quotes
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote public.quotes;
begin
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if not found or v_quote.account_id is distinct from public.current_account_id()
     or not coalesce(public.is_account_staff(), false) then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  if not coalesce(public.can_write_business(), false) then
    raise exception 'Your role can view quotes but not change them' using errcode = '42501';
  end if;
  return v_quote;
end;
$$;
revoke all on function private.quote_for_staff_writer(uuid) from public;

-- A quote that was sent (and viewed, declined or left to expire) becomes a
-- new draft with the same client, terms and items: Q-2026-0007-R1, then -R2
-- (one more than the highest revision of its family). A signed quote is an
-- agreement and is not revised; a draft is simply edited. The original keeps
-- an audit row quote_revised naming the new draft.
create or replace function public.revise_quote(p_quote_id uuid) returns public.quotes
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_original public.quotes := private.quote_for_staff_writer(p_quote_id);
  v_root text := regexp_replace(coalesce(v_original.quote_number, ''), '-R[0-9]+$', '');
  v_revision integer;
  v_expires_at timestamptz;
  v_draft public.quotes;
begin
  if v_original.status not in ('sent', 'viewed', 'declined', 'expired') then
    raise exception '%', case v_original.status
      when 'signed' then 'A signed quote cannot be revised'
      else 'A draft quote is edited, not revised' end using errcode = '22023';
  end if;
  select coalesce(max(q.revision), 0) + 1 into v_revision
    from public.quotes q
   where q.account_id = v_original.account_id
     and (q.id = v_original.id
          or (v_root <> '' and regexp_replace(q.quote_number, '-R[0-9]+$', '') = v_root));
  -- The new draft runs as long as the original was given, counted from now.
  v_expires_at := now() + greatest(coalesce(v_original.expires_at - v_original.created_at, interval '30 days'), interval '1 day');
  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes,
                             status, tax_rate, discount, revision_of, revision)
  values (v_original.account_id, v_original.contact_id, public.current_user_id(), v_original.currency,
          v_original.subtotal, v_original.subtotal, v_expires_at, v_original.notes,
          'draft', v_original.tax_rate, v_original.discount, v_original.id, v_revision)
  returning * into v_draft;
  insert into public.quote_items (quote_id, description, qty, unit_price, total, position)
  select v_draft.id, i.description, i.qty, i.unit_price, i.total,
         (row_number() over (order by i.position, i.created_at, i.id) - 1)::integer
    from public.quote_items i
   where i.quote_id = v_original.id;
  perform private.write_audit(v_original.account_id, 'quote_revised', 'quote', v_original.id, null,
                              jsonb_build_object('revision_id', v_draft.id, 'revision', v_draft.quote_number));
  select * into v_draft from public.quotes q where q.id = v_draft.id;
  return v_draft;
end;
$$;
revoke all on function public.revise_quote(uuid) from public, anon;
grant execute on function public.revise_quote(uuid) to authenticated;

-- Sends a draft: it must have a client with an email, at least one item and
-- an expiry still ahead. The quote becomes `sent` (audit row quote_sent), the
-- event quote_sent is recorded, and one job `quote_send` is queued (payload
-- {"quote_id": ...}, key 'quote_send:<id>') which issues the link and mails
-- the contact. Returns the address the mail goes to.
create or replace function public.send_quote(p_quote_id uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_quote public.quotes := private.quote_for_staff_writer(p_quote_id);
  v_email text;
begin
  if v_quote.status <> 'draft' then
    raise exception 'Only a draft quote can be sent' using errcode = '22023';
  end if;
  if v_quote.expires_at is not null and v_quote.expires_at <= now() then
    raise exception 'This quote''s expiry has passed; set a new expiry before sending it' using errcode = '22023';
  end if;
  select nullif(btrim(c.email), '') into v_email from public.contacts c where c.id = v_quote.contact_id;
  if v_email is null then
    raise exception 'The quote''s client has no email address' using errcode = '22023';
  end if;
  if not exists (select 1 from public.quote_items i where i.quote_id = v_quote.id) then
    raise exception 'A quote needs at least one line item' using errcode = '22023';
  end if;
  perform public.change_quote_status(v_quote.id, 'sent');
  update public.quotes q set delivery_error = null where q.id = v_quote.id and q.delivery_error is not null;
  perform private.emit_event(v_quote.account_id, 'quote_sent', 'quotes', v_quote.id,
                             jsonb_build_object('quote_number', v_quote.quote_number, 'email', v_email));
  perform private.enqueue_job('quote_send', v_quote.account_id, jsonb_build_object('quote_id', v_quote.id),
                              'quote_send:' || v_quote.id, v_quote.id);
  return v_email;
end;
$$;
revoke all on function public.send_quote(uuid) from public, anon;
grant execute on function public.send_quote(uuid) to authenticated;
