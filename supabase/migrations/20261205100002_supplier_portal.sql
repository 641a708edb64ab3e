-- The supplier's portal (issue 36, decision 077). A purchase order is
-- addressed to the supplier login of its account whose email is the order's
-- supplier_email: set when the order is made or its email changes, and when a
-- supplier joins (or becomes one) later. RLS (decision 062) then shows the
-- supplier that order and its shipments, and nothing else.

create function private.po_supplier_for(p_account_id uuid, p_email text) returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select u.id from public.users u
   where u.account_id = p_account_id and u.role = 'supplier' and u.is_active
     and p_email is not null and lower(u.email) = lower(p_email)
   order by u.created_at
   limit 1
$$;
revoke all on function private.po_supplier_for(uuid, text) from public, anon, authenticated;

create function private.link_po_supplier() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.supplier_user_id := coalesce(new.supplier_user_id, private.po_supplier_for(new.account_id, new.supplier_email));
  elsif new.supplier_email is distinct from old.supplier_email then
    new.supplier_user_id := private.po_supplier_for(new.account_id, new.supplier_email);
  end if;
  return new;
end;
$$;
revoke all on function private.link_po_supplier() from public, anon, authenticated;
create trigger purchase_orders_link_supplier before insert or update of supplier_email on public.purchase_orders
  for each row execute function private.link_po_supplier();

-- A supplier who joins after the orders were written is given those addressed to their email.
create function private.link_supplier_orders() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.purchase_orders p set supplier_user_id = new.id
   where p.account_id = new.account_id and p.supplier_user_id is null
     and p.supplier_email is not null and lower(p.supplier_email) = lower(new.email);
  return null;
end;
$$;
revoke all on function private.link_supplier_orders() from public, anon, authenticated;
create trigger users_link_supplier_orders after insert or update of role, email, is_active on public.users
  for each row when (new.role = 'supplier' and new.is_active)
  execute function private.link_supplier_orders();

update public.purchase_orders p set supplier_user_id = private.po_supplier_for(p.account_id, p.supplier_email)
 where p.supplier_user_id is null and p.supplier_email is not null
   and private.po_supplier_for(p.account_id, p.supplier_email) is not null;

-- The supplier (or staff) ships a sent or confirmed order: an inbound shipment
-- with the carrier's tracking number, so carrier events and the public page
-- follow it. Its owner is the order's owner (who is told of its delivery).
create function public.ship_purchase_order(
  p_purchase_order_id uuid, p_tracking_number text, p_carrier text, p_weight numeric, p_weight_unit text)
returns public.shipments
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_po public.purchase_orders;
  v_shipment public.shipments;
  v_number text := upper(btrim(coalesce(p_tracking_number, '')));
begin
  select * into v_po from public.purchase_orders p
   where p.id = p_purchase_order_id and p.account_id = public.current_account_id()
     and (public.can_write_business() or private.is_po_supplier(p.supplier_user_id))
   for update;
  if not found then
    raise exception 'Purchase order not found' using errcode = 'P0002';
  end if;
  if v_po.status not in ('sent', 'confirmed') then
    raise exception 'Only a sent or confirmed purchase order can be shipped' using errcode = '22023';
  end if;
  if v_number !~ '^[A-Z0-9-]{4,40}$' then
    raise exception 'Enter the carrier''s tracking number (4 to 40 letters, digits or hyphens)' using errcode = '22023', hint = 'tracking_number';
  end if;
  if coalesce(p_carrier, '') not in ('fedex', 'ups', 'dhl', 'usps', 'other') then
    raise exception 'Choose a carrier' using errcode = '22023', hint = 'carrier';
  end if;
  if p_weight is null or p_weight <= 0 or p_weight > 100000 then
    raise exception 'Weight must be more than 0 and at most 100,000' using errcode = '22023', hint = 'weight';
  end if;
  if coalesce(p_weight_unit, '') not in ('kg', 'lb') then
    raise exception 'Choose a weight unit' using errcode = '22023', hint = 'weight_unit';
  end if;
  if exists (select 1 from public.shipments s where upper(s.tracking_number) = v_number) then
    raise exception 'This tracking number is already in use' using errcode = '23505', hint = 'tracking_number';
  end if;
  insert into public.shipments (account_id, tracking_number, carrier, origin, destination, weight, weight_unit,
                                description, purchase_order_id, direction, status_at, created_by)
  values (v_po.account_id, v_number, p_carrier, left(v_po.supplier_name, 200), 'Our warehouse', p_weight, p_weight_unit,
          'Shipped against ' || v_po.po_number, v_po.id, 'inbound', now(), v_po.created_by)
  returning * into v_shipment;
  insert into public.tracking_events (account_id, shipment_id, occurred_at, status, description, source, created_by)
  values (v_po.account_id, v_shipment.id, v_shipment.created_at, 'Processing', 'Shipment created', 'manual', v_po.created_by);
  return v_shipment;
end;
$$;
revoke all on function public.ship_purchase_order(uuid, text, text, numeric, text) from public, anon;
grant execute on function public.ship_purchase_order(uuid, text, text, numeric, text) to authenticated;
