-- A supplier reads an order only once it has been sent to them (security
-- review of this turn): the portal's pages left drafts out, but the row rule
-- did not, and an order is linked to the supplier login with its email as soon
-- as the draft is made, so the supplier's own API calls could read a draft and
-- its lines and prices. The lines' rule follows the orders' (it reads them
-- under this rule), so it is closed too.
drop policy "staff and the addressed supplier read purchase orders" on public.purchase_orders;
create policy "staff and the addressed supplier read purchase orders" on public.purchase_orders
  for select
  to authenticated
  using (
    account_id = (select public.current_account_id())
    and ((select public.is_account_staff()) or (private.is_po_supplier(supplier_user_id) and status <> 'draft'))
  );

