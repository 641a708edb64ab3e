-- A purchase order as its PDF and its mail show it, in one read (issue 36), as
-- invoice_document does for invoices: the /purchase-orders/:id/pdf route read
-- the order under the caller's rules and then, with the service role, the
-- order again with its lines and the account's seller details (a supplier may
-- not read the account row): two backend calls, one after the other.
--
-- purchase_order_document(id) answers whoever may read the order, on the
-- purchase_orders policy's rule (staff of its account; the supplier it is
-- addressed to, once it is sent: 20261205900001), and the service role (the
-- jobs runner's send mail); anyone else, and an id that is no order, null.
-- Amounts as text (exact past 2^53). The seller is the account's now (orders
-- keep no snapshot), with its billing email for the PDF's heading.
create function public.purchase_order_document(p_purchase_order_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'order', jsonb_build_object(
      'id', po.id, 'account_id', po.account_id, 'po_number', po.po_number, 'status', po.status,
      'supplier_name', po.supplier_name, 'supplier_email', po.supplier_email, 'currency', po.currency,
      'total', po.total::text, 'expected_on', po.expected_on, 'notes', po.notes,
      'sent_at', po.sent_at, 'created_at', po.created_at),
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', it.description, 'qty', it.qty,
                                          'unit_price', it.unit_price::text, 'total', it.total::text)
                       order by it.position, it.created_at, it.id)
        from public.purchase_order_items it where it.purchase_order_id = po.id), '[]'::jsonb),
    'seller', private.account_seller(po.account_id)
              || jsonb_build_object('billing_email', (select a.billing_email from public.accounts a where a.id = po.account_id)))
  from public.purchase_orders po
  where po.id = p_purchase_order_id
    and (coalesce(auth.role(), '') = 'service_role'
         or (po.account_id = public.current_account_id()
             and (public.is_account_staff() or (private.is_po_supplier(po.supplier_user_id) and po.status <> 'draft'))))
$$;
revoke all on function public.purchase_order_document(uuid) from public, anon;
grant execute on function public.purchase_order_document(uuid) to authenticated, service_role;
