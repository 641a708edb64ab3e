-- Purchase orders and shipments are records with a history (their audit rows
-- named by number), like bills (decision 047).
insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('purchase_order', 'public.purchase_orders', $$r.po_number$$, 'po_number', true),
  ('shipment', 'public.shipments', $$r.tracking_number$$, 'tracking_number', true);
