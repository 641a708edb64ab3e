-- Editing a draft invoice (decision 029, amended): save_invoice_draft saves a
-- draft whole (its due date, notes, tax rate, discount and its ordered line
-- items, in one call), as save_quote_draft does for quotes. The client and
-- the currency stay as the invoice was made: the prices are typed in its
-- currency.
--
-- The invoice functions that act on one invoice in some states only (send,
-- void, and now save) share one gate: private.invoice_in_state locks the
-- caller's invoice (private.writable_invoice: admins and members of its
-- account, 'Invoice not found' for any other) and refuses the states it is
-- given, each with its own message. send_invoice and void_invoice are
-- redefined on it with their messages unchanged.

-- The caller's invoice, locked, unless its status is a key of p_refusals: then
-- that key's message (SQLSTATE 22023), written nothing.
create or replace function private.invoice_in_state(p_invoice_id uuid, p_refusals jsonb) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.writable_invoice(p_invoice_id);
begin
  if p_refusals ? v_invoice.status then
    raise exception '%', p_refusals ->> v_invoice.status using errcode = '22023';
  end if;
  return v_invoice;
end;
$$;
revoke all on function private.invoice_in_state(uuid, jsonb) from public;

create or replace function public.void_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'void', 'This invoice is already void',
    'paid', 'A paid invoice cannot be voided'));
begin
  update public.invoices i set status = 'void', voided_at = now() where i.id = v_invoice.id returning * into v_invoice;
  return v_invoice;
end;
$$;

-- Send: the invoice is marked sent (a draft) and the mail queued for the
-- jobs runner (invoice_send: a fresh public link, the mail to the client).
-- Sending again re-mails it without changing its status. p_link_base: the
-- site's address the page was served from, for the mail's link.
create or replace function public.send_invoice(p_invoice_id uuid, p_link_base text default null) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'void', 'A void invoice cannot be sent',
    'paid', 'A paid invoice cannot be sent'));
begin
  update public.invoices i
     set status = case when i.status = 'draft' then 'sent' else i.status end, sent_at = now()
   where i.id = v_invoice.id
  returning * into v_invoice;
  perform private.enqueue_job('invoice_send', v_invoice.account_id,
                              jsonb_strip_nulls(jsonb_build_object(
                                'invoice_id', v_invoice.id,
                                'link_base', case when p_link_base ~ '^https?://[^\s/?#]+$' and length(p_link_base) <= 200
                                                  then p_link_base end)),
                              'invoice_send:' || v_invoice.id || ':' || extract(epoch from clock_timestamp())::text,
                              v_invoice.id);
  return v_invoice;
end;
$$;

-- What an edit's audit row compares: the invoice's editable fields and its
-- lines (the amounts follow from them, and are shown too).
create or replace function private.invoice_draft_snapshot(p_invoice_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'due_date', i.due_date, 'notes', i.notes, 'tax_rate', i.tax_rate, 'discount', i.discount,
    'subtotal', i.subtotal, 'total', i.total,
    'items', (select coalesce(jsonb_agg(jsonb_build_object('description', it.description, 'qty', it.qty,
                                                           'unit_price', it.unit_price)
                                        order by it.position, it.created_at, it.id), '[]'::jsonb)
                from public.invoice_items it where it.invoice_id = i.id))
    from public.invoices i where i.id = p_invoice_id
$$;
revoke all on function private.invoice_draft_snapshot(uuid) from public;

-- Saves a draft whole: due date, notes, tax rate, discount, and its items in
-- the order given (replacing those it had, in one statement). Only admins and
-- members of the invoice's account, only a draft. Returns the saved invoice,
-- its amounts computed here (the triggers of 20261126700001). One audit row
-- invoice_updated with what changed; none when nothing did.
create or replace function public.save_invoice_draft(
  p_invoice_id uuid,
  p_due_date date,
  p_notes text,
  p_tax_rate numeric,
  p_discount numeric,
  p_items jsonb
) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices := private.invoice_in_state(p_invoice_id, jsonb_build_object(
    'sent', 'Only a draft invoice can be edited',
    'pending', 'Only a draft invoice can be edited',
    'paid', 'Only a draft invoice can be edited',
    'overdue', 'Only a draft invoice can be edited',
    'void', 'Only a draft invoice can be edited'));
  v_before jsonb := private.invoice_draft_snapshot(p_invoice_id);
  v_changes record;
  v_notes text := nullif(btrim(p_notes), '');
  v_item jsonb;
  v_ord integer := 0;
  v_description text;
  v_qty numeric;
  v_price numeric;
  v_descriptions text[] := '{}';
  v_qtys integer[] := '{}';
  v_prices bigint[] := '{}';
begin
  if p_due_date is null then
    raise exception 'Due date is required' using errcode = '22023';
  end if;
  if length(v_notes) > 5000 then
    raise exception 'Notes must be at most 5000 characters' using errcode = '22023';
  end if;
  if p_tax_rate is null or p_tax_rate < 0 or p_tax_rate > 100 or p_tax_rate <> round(p_tax_rate, 2) then
    raise exception 'Tax rate must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  if p_discount is null or p_discount < 0 or p_discount > 100 or p_discount <> round(p_discount, 2) then
    raise exception 'Discount must be a percentage from 0 to 100 with up to 2 decimals' using errcode = '22023';
  end if;
  -- The items as the edit form sends them: 1 to 100 objects with a
  -- description (1-2000 characters), a whole quantity (1 to 1,000,000) and a
  -- unit price in whole cents of the invoice's currency (0 to 10^11, the
  -- column's bound), all checked before anything is written. Anything else
  -- an object carries (a total) is ignored: totals are computed.
  if p_items is null or jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) < 1 then
    raise exception 'An invoice needs at least one line item' using errcode = '22023';
  end if;
  if jsonb_array_length(p_items) > 100 then
    raise exception 'An invoice has at most 100 line items' using errcode = '22023';
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
    if v_price is null or v_price <> trunc(v_price) or v_price < 0 or v_price > 100000000000 then
      raise exception 'Line item %: unit price must be whole cents from 0 to 1,000,000,000.00', v_ord using errcode = '22023';
    end if;
    v_descriptions := v_descriptions || v_description;
    v_qtys := v_qtys || v_qty::integer;
    v_prices := v_prices || v_price::bigint;
  end loop;

  update public.invoices i
     set due_date = p_due_date, notes = v_notes, tax_rate = p_tax_rate, discount = p_discount
   where i.id = v_invoice.id;

  -- One statement: the row triggers that recompute the subtotal run once it
  -- has finished and all see the new lines, so the amounts change once.
  with removed as (
    delete from public.invoice_items it where it.invoice_id = v_invoice.id
  )
  insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
  select v_invoice.id, c.description, c.qty, c.unit_price, 0, (c.n - 1)::integer
    from unnest(v_descriptions, v_qtys, v_prices) with ordinality c(description, qty, unit_price, n)
   order by c.n;

  select * into v_changes from private.changed_values(v_before, private.invoice_draft_snapshot(v_invoice.id));
  if v_changes.new_values <> '{}'::jsonb then
    perform private.write_audit(v_invoice.account_id, 'invoice_updated', 'invoice', v_invoice.id,
                                v_changes.old_values,
                                v_changes.new_values || jsonb_build_object('invoice_number', v_invoice.invoice_number));
  end if;

  select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  return v_invoice;
end;
$$;
revoke all on function public.save_invoice_draft(uuid, date, text, numeric, numeric, jsonb) from public, anon;
grant execute on function public.save_invoice_draft(uuid, date, text, numeric, numeric, jsonb) to authenticated;
