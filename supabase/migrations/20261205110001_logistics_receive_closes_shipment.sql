-- Receive after the supplier shipped (issue 36, decision 084): when the order
-- already has an inbound shipment that nothing was received against yet (the
-- one the supplier added with the carrier's tracking number in their portal),
-- what arrived is recorded on that shipment and it is delivered, instead of a
-- second inbound shipment being made. Only when there is none (the supplier
-- never shipped, or every shipment of theirs already has its receipt) is a
-- new one created, as before.
create or replace function public.receive_purchase_order(p_id uuid, p_received jsonb default null)
returns public.shipments
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid := private.require_logistics_writer();
  v_po public.purchase_orders := private.po_for_update(p_id);
  v_item public.purchase_order_items;
  v_qty integer;
  v_count integer := 0;
  v_shipment public.shipments;
  v_existing boolean := false;
begin
  if v_po.status not in ('sent', 'confirmed') then
    raise exception 'Only a sent or confirmed purchase order can be received' using errcode = '22023';
  end if;
  if p_received is not null and jsonb_typeof(p_received) <> 'object' then
    raise exception 'Enter what arrived' using errcode = '22023';
  end if;
  -- The supplier's shipment still waiting for its receipt: one not yet
  -- delivered first (the goods are at the door before the carrier says so),
  -- then one the carrier already delivered; the oldest of each.
  select * into v_shipment from public.shipments s
   where s.purchase_order_id = v_po.id and s.account_id = v_account and s.direction = 'inbound'
     and not exists (select 1 from public.shipment_packages k where k.shipment_id = s.id)
   order by (s.status = 'Delivered'), s.created_at, s.id
   limit 1
   for update;
  v_existing := found;
  if not v_existing then
    insert into public.shipments (account_id, carrier, origin, destination, weight, description, purchase_order_id,
                                  direction, status, status_at, delivered_at)
    values (v_account, 'other', left(v_po.supplier_name, 200), 'Our warehouse', 1,
            'Received against ' || v_po.po_number, v_po.id, 'inbound', 'Delivered', now(), now())
    returning * into v_shipment;
  end if;
  for v_item in select * from public.purchase_order_items i where i.purchase_order_id = v_po.id order by i.position loop
    v_qty := case when p_received is null then v_item.qty - v_item.received_qty
                  else coalesce((p_received ->> v_item.id::text)::integer, 0) end;
    if v_qty < 0 or v_qty > v_item.qty - v_item.received_qty then
      raise exception 'For "%" at most % can still arrive', v_item.description, v_item.qty - v_item.received_qty
        using errcode = '22023', hint = v_item.id::text;
    end if;
    if v_qty > 0 then
      update public.purchase_order_items i set received_qty = i.received_qty + v_qty where i.id = v_item.id;
      insert into public.shipment_packages (account_id, shipment_id, purchase_order_item_id, description, qty)
      values (v_account, v_shipment.id, v_item.id, v_item.description, v_qty);
      v_count := v_count + 1;
    end if;
  end loop;
  if v_count = 0 then
    raise exception 'Enter what arrived' using errcode = '22023';
  end if;
  if v_existing then
    -- Delivered as by hand: the status moves (never back: not before the event
    -- that set it), shipment_delivered is emitted once; on a shipment the
    -- carrier already delivered, the receipt is kept in its timeline only.
    perform private.record_tracking_event(v_shipment, greatest(now(), v_shipment.status_at), 'Delivered', null,
                                          'Received against ' || v_po.po_number, 'manual', null, null, null);
    select * into v_shipment from public.shipments s where s.id = v_shipment.id;
  else
    insert into public.tracking_events (account_id, shipment_id, occurred_at, status, description, source)
    values (v_account, v_shipment.id, now(), 'Delivered', 'Received against ' || v_po.po_number, 'manual');
  end if;
  if not exists (select 1 from public.purchase_order_items i where i.purchase_order_id = v_po.id and i.received_qty < i.qty) then
    update public.purchase_orders p set status = 'received', received_at = now() where p.id = v_po.id;
  end if;
  return v_shipment;
end;
$$;
revoke all on function public.receive_purchase_order(uuid, jsonb) from public, anon;
grant execute on function public.receive_purchase_order(uuid, jsonb) to authenticated;
