-- Choosing the supplier login on the New Purchase Order form (issue 36,
-- decision 084): p_supplier_user_id must be an active supplier of the
-- caller's account, and when no supplier email is typed the order is mailed
-- to that login's address (Send needs one). Otherwise as in 20261204100001.
create or replace function public.create_purchase_order(
  p_supplier_name text, p_supplier_email text, p_currency text, p_expected_on date, p_notes text, p_items jsonb,
  p_supplier_user_id uuid default null)
returns public.purchase_orders
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid := private.require_logistics_writer();
  v_po public.purchase_orders;
  v_item jsonb;
  v_pos integer := 0;
  v_login_email text;
begin
  if jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) = 0 then
    raise exception 'Add at least one line item' using errcode = '22023', hint = 'items';
  end if;
  if jsonb_array_length(p_items) > 100 then
    raise exception 'At most 100 line items' using errcode = '22023', hint = 'items';
  end if;
  if p_supplier_user_id is not null then
    select u.email into v_login_email from public.users u
     where u.id = p_supplier_user_id and u.account_id = v_account and u.role = 'supplier' and u.is_active;
    if not found then
      raise exception 'Choose one of the account''s suppliers' using errcode = '22023', hint = 'supplier_user_id';
    end if;
  end if;
  insert into public.purchase_orders (account_id, supplier_name, supplier_email, supplier_user_id, currency, expected_on, notes)
  values (v_account, btrim(p_supplier_name), coalesce(nullif(lower(btrim(p_supplier_email)), ''), lower(v_login_email)), p_supplier_user_id,
          upper(coalesce(nullif(btrim(p_currency), ''), 'USD')), p_expected_on, nullif(btrim(p_notes), ''))
  returning * into v_po;
  for v_item in select * from jsonb_array_elements(p_items) loop
    insert into public.purchase_order_items (account_id, purchase_order_id, position, description, qty, unit_price)
    values (v_account, v_po.id, v_pos, btrim(v_item ->> 'description'), (v_item ->> 'qty')::integer,
            (v_item ->> 'unit_price')::bigint);
    v_pos := v_pos + 1;
  end loop;
  update public.purchase_orders p
     set total = (select coalesce(sum(i.total), 0) from public.purchase_order_items i where i.purchase_order_id = v_po.id)
   where p.id = v_po.id returning * into v_po;
  return v_po;
end;
$$;
revoke all on function public.create_purchase_order(text, text, text, date, text, jsonb, uuid) from public, anon;
grant execute on function public.create_purchase_order(text, text, text, date, text, jsonb, uuid) to authenticated;
