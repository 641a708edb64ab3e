-- Logistics: purchase orders and their lines, shipments with packages and tracking events.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.purchase_orders ──

create table public.purchase_orders (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  po_number text not null,
  supplier_name text not null,
  supplier_email text,
  supplier_user_id uuid,
  currency text default 'USD'::text not null,
  total bigint default 0 not null,
  expected_on date,
  notes text,
  status text default 'draft'::text not null,
  sent_at timestamp with time zone,
  confirmed_at timestamp with time zone,
  received_at timestamp with time zone,
  cancelled_at timestamp with time zone,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint purchase_orders_pkey primary key (id),
  constraint purchase_orders_account_id_po_number_key unique (account_id, po_number),
  constraint purchase_orders_id_account_id_key unique (id, account_id),
  constraint purchase_orders_currency_check check ((currency ~ '^[A-Z]{3}$'::text)),
  constraint purchase_orders_notes_check check ((length(notes) <= 5000)),
  constraint purchase_orders_status_check check ((status = any (array['draft'::text, 'sent'::text, 'confirmed'::text, 'received'::text, 'cancelled'::text]))),
  constraint purchase_orders_supplier_email_check check (((supplier_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text) and (length(supplier_email) <= 320))),
  constraint purchase_orders_supplier_email_no_control_chars check ((supplier_email !~ '[\x01-\x1f\x7f]'::text)),
  constraint purchase_orders_supplier_name_check check (((length(btrim(supplier_name)) >= 1) and (length(btrim(supplier_name)) <= 200))),
  constraint purchase_orders_supplier_name_no_control_chars check ((supplier_name !~ '[\x01-\x1f\x7f]'::text)),
  constraint purchase_orders_total_check check (((total >= 0) and (total <= '1000000000000000000'::bigint))),
  constraint purchase_orders_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint purchase_orders_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint purchase_orders_supplier_user_id_account_id_fkey foreign key (supplier_user_id, account_id) references public.users(id, account_id) on delete set null (supplier_user_id)
);
alter table public.purchase_orders enable row level security;

create index purchase_orders_account_created_idx on public.purchase_orders using btree (account_id, created_at desc, id desc);
create index purchase_orders_account_status_created_idx on public.purchase_orders using btree (account_id, status, created_at desc, id desc);
create index purchase_orders_created_by_idx on public.purchase_orders using btree (created_by);
create index purchase_orders_number_trgm_idx on public.purchase_orders using gin (account_id, po_number extensions.gin_trgm_ops);
create index purchase_orders_supplier_trgm_idx on public.purchase_orders using gin (account_id, supplier_name extensions.gin_trgm_ops);
create index purchase_orders_supplier_user_idx on public.purchase_orders using btree (supplier_user_id);

revoke all on table public.purchase_orders from public, anon, authenticated, service_role;
grant all on table public.purchase_orders to authenticated;
revoke delete, insert, truncate, update on table public.purchase_orders from authenticated;
grant all on table public.purchase_orders to service_role;
grant update (supplier_name, supplier_email, supplier_user_id, currency, expected_on, notes) on table public.purchase_orders to authenticated;

create or replace function private.assign_po_number()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_year integer := extract(year from coalesce(new.created_at, now()) at time zone 'UTC')::integer;
  v_next integer;
begin
  -- The counter row's lock queues concurrent orders until the first commits
  -- (or rolls back, returning its number): no gaps, no repeats.
  insert into private.purchase_order_counters as c (account_id, year, last_value)
  values (new.account_id, v_year, 1)
  on conflict (account_id, year) do update set last_value = c.last_value + 1
  returning c.last_value into v_next;
  new.po_number := 'PO-' || v_year || '-' || lpad(v_next::text, greatest(4, length(v_next::text)), '0');
  return new;
end;
$function$;
revoke all on function private.assign_po_number() from public, anon, authenticated, service_role;

create or replace function private.audit_logistics()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_type text := tg_argv[0];
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_type || '_created', v_type, new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    perform private.write_audit(old.account_id, v_type || '_deleted', v_type, old.id, to_jsonb(old), null);
  elsif new.status is distinct from old.status then
    perform private.write_audit(new.account_id, v_type || '_' || lower(replace(new.status, ' ', '_')), v_type, new.id,
                                jsonb_build_object('status', old.status), jsonb_build_object('status', new.status));
  else
    select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
    if v_changes.new_values - 'updated_at' - 'status_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_type || '_updated', v_type, new.id, v_changes.old_values, v_changes.new_values);
    end if;
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_logistics() from public, anon, authenticated, service_role;

create or replace function private.link_po_supplier()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'INSERT' then
    new.supplier_user_id := coalesce(new.supplier_user_id, private.po_supplier_for(new.account_id, new.supplier_email));
  elsif new.supplier_email is distinct from old.supplier_email then
    new.supplier_user_id := private.po_supplier_for(new.account_id, new.supplier_email);
  end if;
  return new;
end;
$function$;
revoke all on function private.link_po_supplier() from public, anon, authenticated, service_role;

create or replace function public.cancel_purchase_order(p_id uuid)
 returns public.purchase_orders
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := private.require_logistics_writer();
  v_po public.purchase_orders := private.po_for_update(p_id);
begin
  if v_po.status in ('received', 'cancelled') then
    raise exception 'A received or cancelled purchase order cannot be cancelled' using errcode = '22023';
  end if;
  if exists (select 1 from public.purchase_order_items i where i.purchase_order_id = v_po.id and i.received_qty > 0) then
    raise exception 'Part of this order has arrived: it cannot be cancelled' using errcode = '22023';
  end if;
  update public.purchase_orders p set status = 'cancelled', cancelled_at = now()
   where p.id = v_po.id returning * into v_po;
  return v_po;
end;
$function$;
revoke all on function public.cancel_purchase_order(p_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.cancel_purchase_order(p_id uuid) to authenticated, service_role;

create or replace function public.confirm_purchase_order(p_id uuid)
 returns public.purchase_orders
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_po public.purchase_orders;
begin
  select * into v_po from public.purchase_orders p
   where p.id = p_id and p.account_id = public.current_account_id()
     and (public.can_write_business() or private.is_po_supplier(p.supplier_user_id))
   for update;
  if not found then
    raise exception 'Purchase order not found' using errcode = 'P0002';
  end if;
  if v_po.status <> 'sent' then
    raise exception 'Only a sent purchase order can be confirmed' using errcode = '22023';
  end if;
  update public.purchase_orders p set status = 'confirmed', confirmed_at = now()
   where p.id = v_po.id returning * into v_po;
  perform private.emit_event(v_po.account_id, 'po_confirmed', 'purchase_orders', v_po.id,
                             jsonb_build_object('po_number', v_po.po_number,
                                                'by', case when public.current_user_role() = 'supplier' then 'supplier' else 'staff' end));
  return v_po;
end;
$function$;
revoke all on function public.confirm_purchase_order(p_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.confirm_purchase_order(p_id uuid) to authenticated, service_role;

create or replace function public.create_purchase_order(p_supplier_name text, p_supplier_email text, p_currency text, p_expected_on date, p_notes text, p_items jsonb, p_supplier_user_id uuid default null::uuid)
 returns public.purchase_orders
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.create_purchase_order(p_supplier_name text, p_supplier_email text, p_currency text, p_expected_on date, p_notes text, p_items jsonb, p_supplier_user_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.create_purchase_order(p_supplier_name text, p_supplier_email text, p_currency text, p_expected_on date, p_notes text, p_items jsonb, p_supplier_user_id uuid) to authenticated, service_role;

create or replace function public.search_purchase_orders(p_query text)
 returns setof public.purchase_orders
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query select p.* from public.purchase_orders p
   where p.account_id = v_account
     and (p.po_number ilike private.contains_pattern(p_query) or p.supplier_name ilike private.contains_pattern(p_query));
end;
$function$;
revoke all on function public.search_purchase_orders(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_purchase_orders(p_query text) to authenticated, service_role;

create or replace function public.send_purchase_order(p_id uuid)
 returns public.purchase_orders
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := private.require_logistics_writer();
  v_po public.purchase_orders := private.po_for_update(p_id);
begin
  if v_po.status not in ('draft', 'sent') then
    raise exception 'Only a draft or sent purchase order can be sent' using errcode = '22023';
  end if;
  if v_po.supplier_email is null then
    raise exception 'Enter the supplier''s email to send the purchase order' using errcode = '22023', hint = 'supplier_email';
  end if;
  update public.purchase_orders p set status = 'sent', sent_at = coalesce(p.sent_at, now())
   where p.id = v_po.id returning * into v_po;
  perform private.emit_event(v_account, 'po_sent', 'purchase_orders', v_po.id,
                             jsonb_build_object('po_number', v_po.po_number, 'supplier_email', v_po.supplier_email));
  return v_po;
end;
$function$;
revoke all on function public.send_purchase_order(p_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.send_purchase_order(p_id uuid) to authenticated, service_role;

create trigger purchase_orders_assign_number before insert on public.purchase_orders for each row execute function private.assign_po_number();
create trigger purchase_orders_audit after insert or delete or update on public.purchase_orders for each row execute function private.audit_logistics('purchase_order');
create trigger purchase_orders_link_supplier before insert or update of supplier_email on public.purchase_orders for each row execute function private.link_po_supplier();
create trigger purchase_orders_set_updated_at before update on public.purchase_orders for each row execute function private.set_updated_at();

create policy "business writers edit draft purchase orders" on public.purchase_orders
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business) and (status = 'draft'::text)))
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and (status = 'draft'::text)));

-- ── public.purchase_order_items ──

create table public.purchase_order_items (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  purchase_order_id uuid not null,
  "position" integer default 0 not null,
  description text not null,
  qty integer not null,
  unit_price bigint not null,
  total bigint default 0 not null,
  received_qty integer default 0 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint purchase_order_items_pkey primary key (id),
  constraint purchase_order_items_check check ((received_qty <= qty)),
  constraint purchase_order_items_description_check check (((length(btrim(description)) >= 1) and (length(btrim(description)) <= 500))),
  constraint purchase_order_items_position_check check ((("position" >= 0) and ("position" <= 999))),
  constraint purchase_order_items_qty_check check (((qty >= 1) and (qty <= 1000000))),
  constraint purchase_order_items_received_qty_check check ((received_qty >= 0)),
  constraint purchase_order_items_unit_price_check check (((unit_price >= 0) and (unit_price <= '100000000000000'::bigint))),
  constraint purchase_order_items_purchase_order_id_account_id_fkey foreign key (purchase_order_id, account_id) references public.purchase_orders(id, account_id) on delete cascade
);
alter table public.purchase_order_items enable row level security;

create index purchase_order_items_account_idx on public.purchase_order_items using btree (account_id);
create index purchase_order_items_po_idx on public.purchase_order_items using btree (purchase_order_id, "position");

revoke all on table public.purchase_order_items from public, anon, authenticated, service_role;
grant all on table public.purchase_order_items to authenticated;
revoke delete, insert, truncate, update on table public.purchase_order_items from authenticated;
grant all on table public.purchase_order_items to service_role;

create or replace function private.po_item_total()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  new.total := new.qty::bigint * new.unit_price;
  return new;
end;
$function$;
revoke all on function private.po_item_total() from public, anon, authenticated, service_role;

create trigger purchase_order_items_set_updated_at before update on public.purchase_order_items for each row execute function private.set_updated_at();
create trigger purchase_order_items_total before insert or update on public.purchase_order_items for each row execute function private.po_item_total();

create policy "who reads the order reads its items" on public.purchase_order_items
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (exists ( select 1
   from public.purchase_orders p
  where (p.id = purchase_order_items.purchase_order_id)))));

-- ── private.purchase_order_counters ──

create table private.purchase_order_counters (
  account_id uuid not null,
  year integer not null,
  last_value integer not null,
  constraint purchase_order_counters_pkey primary key (account_id, year),
  constraint purchase_order_counters_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.purchase_order_counters enable row level security;

revoke all on table private.purchase_order_counters from public, anon, authenticated, service_role;

-- ── public.shipments ──

create table public.shipments (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  tracking_number text default ('SHP-'::text || upper(substr(replace((gen_random_uuid())::text, '-'::text, ''::text), 1, 12))) not null,
  carrier text default 'fedex'::text not null,
  origin text not null,
  destination text not null,
  weight numeric(12,3) not null,
  weight_unit text default 'kg'::text not null,
  length numeric(10,2),
  width numeric(10,2),
  height numeric(10,2),
  dimension_unit text,
  description text not null,
  special_instructions text,
  purchase_order_id uuid,
  direction text default 'outbound'::text not null,
  contact_id uuid,
  status text default 'Processing'::text not null,
  status_at timestamp with time zone,
  estimated_delivery date,
  delivered_at timestamp with time zone,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint shipments_pkey primary key (id),
  constraint shipments_id_account_id_key unique (id, account_id),
  constraint shipments_carrier_check check ((carrier = any (array['fedex'::text, 'ups'::text, 'dhl'::text, 'usps'::text, 'other'::text]))),
  constraint shipments_check check ((((length is null) = (width is null)) and ((width is null) = (height is null)) and ((height is null) = (dimension_unit is null)))),
  constraint shipments_check1 check (((status = 'Delivered'::text) = (delivered_at is not null))),
  constraint shipments_description_check check (((length(btrim(description)) >= 1) and (length(btrim(description)) <= 2000))),
  constraint shipments_destination_check check (((length(btrim(destination)) >= 1) and (length(btrim(destination)) <= 200))),
  constraint shipments_dimension_unit_check check ((dimension_unit = any (array['cm'::text, 'in'::text]))),
  constraint shipments_direction_check check ((direction = any (array['outbound'::text, 'inbound'::text]))),
  constraint shipments_height_check check (((height > (0)::numeric) and (height <= (100000)::numeric))),
  constraint shipments_length_check check (((length > (0)::numeric) and (length <= (100000)::numeric))),
  constraint shipments_origin_check check (((length(btrim(origin)) >= 1) and (length(btrim(origin)) <= 200))),
  constraint shipments_special_instructions_check check ((length(special_instructions) <= 5000)),
  constraint shipments_status_check check ((status = any (array['Processing'::text, 'In Transit'::text, 'Delivered'::text, 'Exception'::text]))),
  constraint shipments_tracking_number_check check ((tracking_number ~ '^[A-Za-z0-9-]{4,40}$'::text)),
  constraint shipments_weight_check check (((weight > (0)::numeric) and (weight <= (100000)::numeric))),
  constraint shipments_weight_unit_check check ((weight_unit = any (array['kg'::text, 'lb'::text]))),
  constraint shipments_width_check check (((width > (0)::numeric) and (width <= (100000)::numeric))),
  constraint shipments_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint shipments_contact_id_account_id_fkey foreign key (contact_id, account_id) references public.contacts(id, account_id) on delete set null (contact_id),
  constraint shipments_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint shipments_purchase_order_id_account_id_fkey foreign key (purchase_order_id, account_id) references public.purchase_orders(id, account_id) on delete set null (purchase_order_id)
);
alter table public.shipments enable row level security;

create index shipments_account_created_idx on public.shipments using btree (account_id, created_at desc, id desc);
create index shipments_account_delivered_idx on public.shipments using btree (account_id, delivered_at) where (delivered_at is not null);
create index shipments_account_status_created_idx on public.shipments using btree (account_id, status, created_at desc, id desc);
create index shipments_contact_idx on public.shipments using btree (contact_id);
create index shipments_created_by_idx on public.shipments using btree (created_by);
create index shipments_destination_trgm_idx on public.shipments using gin (account_id, destination extensions.gin_trgm_ops);
create index shipments_po_idx on public.shipments using btree (purchase_order_id);
create unique index shipments_tracking_number_key on public.shipments using btree (upper(tracking_number));
create index shipments_tracking_trgm_idx on public.shipments using gin (account_id, tracking_number extensions.gin_trgm_ops);

revoke all on table public.shipments from public, anon, authenticated, service_role;
grant all on table public.shipments to authenticated;
revoke delete, insert, truncate, update on table public.shipments from authenticated;
grant all on table public.shipments to service_role;
grant update (origin, destination, description, special_instructions, estimated_delivery) on table public.shipments to authenticated;

create or replace function private.roll_shipment_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.delivered_at, old.estimated_delivery) is not distinct from (new.account_id, new.delivered_at, new.estimated_delivery) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.delivered_at is not null then
    update private.shipment_day_stats s
       set delivered_count = s.delivered_count - 1,
           with_estimate_count = s.with_estimate_count - case when old.estimated_delivery is not null then 1 else 0 end,
           on_time_count = s.on_time_count - case when private.shipment_on_time(old.account_id, old.delivered_at, old.estimated_delivery) then 1 else 0 end
     where s.account_id = old.account_id and s.day = (old.delivered_at at time zone 'UTC')::date;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.delivered_at is not null then
    insert into private.shipment_day_stats as s (account_id, day, delivered_count, with_estimate_count, on_time_count)
    values (new.account_id, (new.delivered_at at time zone 'UTC')::date, 1,
            case when new.estimated_delivery is not null then 1 else 0 end,
            case when private.shipment_on_time(new.account_id, new.delivered_at, new.estimated_delivery) then 1 else 0 end)
    on conflict (account_id, day) do update
      set delivered_count = s.delivered_count + 1,
          with_estimate_count = s.with_estimate_count + excluded.with_estimate_count,
          on_time_count = s.on_time_count + excluded.on_time_count;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_shipment_day_stats() from public, anon, authenticated, service_role;

create or replace function private.shipment_on_time(p_account uuid, p_delivered_at timestamp with time zone, p_estimate date)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select p_estimate is not null and p_delivered_at is not null
     and (p_delivered_at at time zone coalesce((select a.timezone from public.accounts a where a.id = p_account), 'UTC'))::date <= p_estimate
$function$;
revoke all on function private.shipment_on_time(p_account uuid, p_delivered_at timestamp with time zone, p_estimate date) from public, anon, authenticated, service_role;

create or replace function public.create_shipment(p_origin text, p_destination text, p_carrier text, p_weight numeric, p_weight_unit text, p_length numeric, p_width numeric, p_height numeric, p_dimension_unit text, p_description text, p_special_instructions text, p_tracking_number text default null::text, p_estimated_delivery date default null::date, p_contact_id uuid default null::uuid, p_purchase_order_id uuid default null::uuid)
 returns public.shipments
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := private.require_logistics_writer();
  v_shipment public.shipments;
begin
  if p_tracking_number is not null and btrim(p_tracking_number) <> '' and exists (
    select 1 from public.shipments s where upper(s.tracking_number) = upper(btrim(p_tracking_number))) then
    raise exception 'This tracking number is already in use' using errcode = '23505', hint = 'tracking_number';
  end if;
  insert into public.shipments (account_id, tracking_number, carrier, origin, destination, weight, weight_unit,
                                length, width, height, dimension_unit, description, special_instructions,
                                estimated_delivery, contact_id, purchase_order_id, status_at)
  values (v_account,
          coalesce(nullif(upper(btrim(p_tracking_number)), ''), 'SHP-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 12))),
          coalesce(p_carrier, 'fedex'), btrim(p_origin), btrim(p_destination), p_weight, coalesce(p_weight_unit, 'kg'),
          p_length, p_width, p_height, p_dimension_unit, btrim(p_description), nullif(btrim(p_special_instructions), ''),
          p_estimated_delivery, p_contact_id, p_purchase_order_id, now())
  returning * into v_shipment;
  insert into public.tracking_events (account_id, shipment_id, occurred_at, status, description, source)
  values (v_account, v_shipment.id, v_shipment.created_at, 'Processing', 'Shipment created', 'manual');
  return v_shipment;
end;
$function$;
revoke all on function public.create_shipment(p_origin text, p_destination text, p_carrier text, p_weight numeric, p_weight_unit text, p_length numeric, p_width numeric, p_height numeric, p_dimension_unit text, p_description text, p_special_instructions text, p_tracking_number text, p_estimated_delivery date, p_contact_id uuid, p_purchase_order_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.create_shipment(p_origin text, p_destination text, p_carrier text, p_weight numeric, p_weight_unit text, p_length numeric, p_width numeric, p_height numeric, p_dimension_unit text, p_description text, p_special_instructions text, p_tracking_number text, p_estimated_delivery date, p_contact_id uuid, p_purchase_order_id uuid) to authenticated, service_role;

create or replace function public.mark_shipment_delivered(p_shipment_id uuid)
 returns public.shipments
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := private.require_logistics_writer();
  v_shipment public.shipments;
begin
  select * into v_shipment from public.shipments s where s.id = p_shipment_id and s.account_id = v_account;
  if not found then
    raise exception 'Shipment not found' using errcode = 'P0002';
  end if;
  if v_shipment.status = 'Delivered' then
    raise exception 'This shipment is already delivered' using errcode = '22023';
  end if;
  perform private.record_tracking_event(v_shipment, greatest(now(), v_shipment.status_at), 'Delivered', null,
                                        'Marked delivered', 'manual', null, null, null);
  select * into v_shipment from public.shipments s where s.id = p_shipment_id;
  return v_shipment;
end;
$function$;
revoke all on function public.mark_shipment_delivered(p_shipment_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.mark_shipment_delivered(p_shipment_id uuid) to authenticated, service_role;

create or replace function public.receive_purchase_order(p_id uuid, p_received jsonb default null::jsonb)
 returns public.shipments
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.receive_purchase_order(p_id uuid, p_received jsonb) from public, anon, authenticated, service_role;
grant execute on function public.receive_purchase_order(p_id uuid, p_received jsonb) to authenticated, service_role;

create or replace function public.search_shipments(p_query text)
 returns setof public.shipments
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query select s.* from public.shipments s
   where s.account_id = v_account
     and (s.tracking_number ilike private.contains_pattern(p_query)
          or s.destination ilike private.contains_pattern(p_query)
          or s.origin ilike private.contains_pattern(p_query));
end;
$function$;
revoke all on function public.search_shipments(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_shipments(p_query text) to authenticated, service_role;

create or replace function public.set_shipment_tracking_number(p_shipment_id uuid, p_tracking_number text, p_carrier text)
 returns public.shipments
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_shipment public.shipments;
begin
  select s.* into v_shipment from public.shipments s
   where s.id = p_shipment_id and s.account_id = public.current_account_id()
     and (public.can_write_business()
          or exists (select 1 from public.purchase_orders p
                      where p.id = s.purchase_order_id and private.is_po_supplier(p.supplier_user_id)))
   for update;
  if not found then
    raise exception 'Shipment not found' using errcode = 'P0002';
  end if;
  if p_tracking_number is null or btrim(p_tracking_number) !~ '^[A-Za-z0-9-]{4,40}$' then
    raise exception 'Enter the carrier''s tracking number (4 to 40 letters, digits or hyphens)' using errcode = '22023', hint = 'tracking_number';
  end if;
  if exists (select 1 from public.shipments s where upper(s.tracking_number) = upper(btrim(p_tracking_number)) and s.id <> v_shipment.id) then
    raise exception 'This tracking number is already in use' using errcode = '23505', hint = 'tracking_number';
  end if;
  update public.shipments s set tracking_number = upper(btrim(p_tracking_number)), carrier = coalesce(p_carrier, s.carrier)
   where s.id = v_shipment.id returning * into v_shipment;
  return v_shipment;
end;
$function$;
revoke all on function public.set_shipment_tracking_number(p_shipment_id uuid, p_tracking_number text, p_carrier text) from public, anon, authenticated, service_role;
grant execute on function public.set_shipment_tracking_number(p_shipment_id uuid, p_tracking_number text, p_carrier text) to authenticated, service_role;

create or replace function public.ship_purchase_order(p_purchase_order_id uuid, p_tracking_number text, p_carrier text, p_weight numeric, p_weight_unit text)
 returns public.shipments
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
revoke all on function public.ship_purchase_order(p_purchase_order_id uuid, p_tracking_number text, p_carrier text, p_weight numeric, p_weight_unit text) from public, anon, authenticated, service_role;
grant execute on function public.ship_purchase_order(p_purchase_order_id uuid, p_tracking_number text, p_carrier text, p_weight numeric, p_weight_unit text) to authenticated, service_role;

create or replace function public.shipment_counts()
 returns table(total integer, processing integer, in_transit integer, delivered integer, exceptions integer)
 language sql
 stable
 set search_path to ''
as $function$
  select count(*)::integer,
         (count(*) filter (where s.status = 'Processing'))::integer,
         (count(*) filter (where s.status = 'In Transit'))::integer,
         (count(*) filter (where s.status = 'Delivered'))::integer,
         (count(*) filter (where s.status = 'Exception'))::integer
    from public.shipments s
   where s.account_id = public.current_account_id()
$function$;
revoke all on function public.shipment_counts() from public, anon, authenticated, service_role;
grant execute on function public.shipment_counts() to authenticated, service_role;

create or replace function public.track_shipment(p_tracking_number text)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object(
    'tracking_number', s.tracking_number,
    'status', s.status,
    'carrier', s.carrier,
    'estimated_delivery', s.estimated_delivery,
    'delivered_at', s.delivered_at,
    'seller_name', a.name,
    'has_logo', private.tracking_logo_path(a.id) is not null,
    'events', coalesce((
      select jsonb_agg(jsonb_build_object('occurred_at', e.occurred_at, 'status', e.status, 'location', e.location,
                                          'description', e.description) order by e.occurred_at desc)
        from (select * from public.tracking_events t where t.shipment_id = s.id order by t.occurred_at desc limit 200) e), '[]'::jsonb))
  from public.shipments s
  join public.accounts a on a.id = s.account_id
  where p_tracking_number ~ '^[A-Za-z0-9-]{4,40}$' and upper(s.tracking_number) = upper(p_tracking_number)
$function$;
revoke all on function public.track_shipment(p_tracking_number text) from public, anon, authenticated, service_role;
grant execute on function public.track_shipment(p_tracking_number text) to anon, authenticated, service_role;

create or replace function public.track_shipment_logo(p_tracking_number text)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object('logo_path', private.tracking_logo_path(s.account_id))
    from public.shipments s
   where p_tracking_number ~ '^[A-Za-z0-9-]{4,40}$' and upper(s.tracking_number) = upper(p_tracking_number)
$function$;
revoke all on function public.track_shipment_logo(p_tracking_number text) from public, anon, authenticated, service_role;
grant execute on function public.track_shipment_logo(p_tracking_number text) to anon, authenticated, service_role;

create trigger shipments_audit after insert or delete or update on public.shipments for each row execute function private.audit_logistics('shipment');
create trigger shipments_roll_day_stats after insert or delete or update of account_id, delivered_at, estimated_delivery on public.shipments for each row execute function private.roll_shipment_day_stats();
create trigger shipments_set_updated_at before update on public.shipments for each row execute function private.set_updated_at();

create policy "business writers edit shipments" on public.shipments
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

-- ── public.shipment_packages ──

create table public.shipment_packages (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  shipment_id uuid not null,
  purchase_order_item_id uuid,
  description text not null,
  qty integer not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint shipment_packages_pkey primary key (id),
  constraint shipment_packages_description_check check (((length(btrim(description)) >= 1) and (length(btrim(description)) <= 500))),
  constraint shipment_packages_qty_check check (((qty >= 1) and (qty <= 1000000))),
  constraint shipment_packages_shipment_id_account_id_fkey foreign key (shipment_id, account_id) references public.shipments(id, account_id) on delete cascade
);
alter table public.shipment_packages enable row level security;

create index shipment_packages_account_idx on public.shipment_packages using btree (account_id);
create index shipment_packages_shipment_idx on public.shipment_packages using btree (shipment_id);

revoke all on table public.shipment_packages from public, anon, authenticated, service_role;
grant all on table public.shipment_packages to authenticated;
revoke delete, insert, truncate, update on table public.shipment_packages from authenticated;
grant all on table public.shipment_packages to service_role;

create trigger shipment_packages_set_updated_at before update on public.shipment_packages for each row execute function private.set_updated_at();

create policy "who reads the shipment reads its packages" on public.shipment_packages
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (exists ( select 1
   from public.shipments s
  where (s.id = shipment_packages.shipment_id)))));

-- ── public.tracking_events ──

create table public.tracking_events (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  shipment_id uuid not null,
  occurred_at timestamp with time zone not null,
  location text,
  status text not null,
  description text not null,
  source text not null,
  provider text,
  provider_event_id text,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint tracking_events_pkey primary key (id),
  constraint tracking_events_check check (((source = 'carrier'::text) = ((provider is not null) and (provider_event_id is not null)))),
  constraint tracking_events_description_check check (((length(btrim(description)) >= 1) and (length(btrim(description)) <= 1000))),
  constraint tracking_events_location_check check ((length(location) <= 200)),
  constraint tracking_events_provider_check check ((provider = any (array['easypost'::text, 'aftership'::text]))),
  constraint tracking_events_provider_event_id_check check (((length(provider_event_id) >= 1) and (length(provider_event_id) <= 200))),
  constraint tracking_events_source_check check ((source = any (array['manual'::text, 'carrier'::text]))),
  constraint tracking_events_status_check check ((status = any (array['Processing'::text, 'In Transit'::text, 'Delivered'::text, 'Exception'::text]))),
  constraint tracking_events_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint tracking_events_shipment_id_account_id_fkey foreign key (shipment_id, account_id) references public.shipments(id, account_id) on delete cascade
);
alter table public.tracking_events enable row level security;

create index tracking_events_account_idx on public.tracking_events using btree (account_id);
create index tracking_events_created_by_idx on public.tracking_events using btree (created_by);
create unique index tracking_events_provider_event_key on public.tracking_events using btree (provider, provider_event_id) where (provider is not null);
create unique index tracking_events_same_event_key on public.tracking_events using btree (shipment_id, occurred_at, status, coalesce(location, ''::text));
create index tracking_events_shipment_idx on public.tracking_events using btree (shipment_id, occurred_at desc);

revoke all on table public.tracking_events from public, anon, authenticated, service_role;
grant all on table public.tracking_events to authenticated;
revoke delete, insert, truncate, update on table public.tracking_events from authenticated;
grant all on table public.tracking_events to service_role;

create or replace function private.record_tracking_event(p_shipment public.shipments, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text, p_source text, p_provider text, p_provider_event_id text, p_estimated_delivery date)
 returns public.tracking_events
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_event public.tracking_events;
  v_shipment public.shipments;
begin
  insert into public.tracking_events (account_id, shipment_id, occurred_at, location, status, description, source,
                                      provider, provider_event_id)
  values (p_shipment.account_id, p_shipment.id, p_occurred_at, nullif(left(btrim(p_location), 200), ''), p_status,
          left(coalesce(nullif(btrim(p_description), ''), p_status), 1000), p_source, p_provider, p_provider_event_id)
  on conflict do nothing
  returning * into v_event;
  if v_event.id is null then
    return null;
  end if;
  select * into v_shipment from public.shipments s where s.id = p_shipment.id for update;
  if p_estimated_delivery is not null then
    update public.shipments s set estimated_delivery = p_estimated_delivery where s.id = v_shipment.id;
  end if;
  -- A delivered shipment stays delivered; otherwise the newest event wins.
  if v_shipment.status <> 'Delivered' and (v_shipment.status_at is null or p_occurred_at >= v_shipment.status_at)
     and p_status is distinct from v_shipment.status then
    update public.shipments s
       set status = p_status, status_at = p_occurred_at,
           delivered_at = case when p_status = 'Delivered' then p_occurred_at end
     where s.id = v_shipment.id;
    if p_status = 'Delivered' then
      perform private.emit_event(v_shipment.account_id, 'shipment_delivered', 'shipments', v_shipment.id,
                                 jsonb_build_object('tracking_number', v_shipment.tracking_number, 'event_id', v_event.id));
    elsif p_status = 'Exception' then
      perform private.emit_event(v_shipment.account_id, 'shipment_exception', 'shipments', v_shipment.id,
                                 jsonb_build_object('tracking_number', v_shipment.tracking_number, 'event_id', v_event.id));
    end if;
  elsif v_shipment.status_at is null or p_occurred_at >= v_shipment.status_at then
    update public.shipments s set status_at = p_occurred_at where s.id = v_shipment.id;
  end if;
  return v_event;
end;
$function$;
revoke all on function private.record_tracking_event(p_shipment public.shipments, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text, p_source text, p_provider text, p_provider_event_id text, p_estimated_delivery date) from public, anon, authenticated, service_role;

create or replace function public.add_tracking_event(p_shipment_id uuid, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text)
 returns public.tracking_events
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := private.require_logistics_writer();
  v_shipment public.shipments;
begin
  select * into v_shipment from public.shipments s where s.id = p_shipment_id and s.account_id = v_account;
  if not found then
    raise exception 'Shipment not found' using errcode = 'P0002';
  end if;
  if p_occurred_at is null or p_occurred_at > now() + interval '5 minutes' then
    raise exception 'The event''s time cannot be in the future' using errcode = '22023', hint = 'occurred_at';
  end if;
  if p_status is null or p_status not in ('Processing', 'In Transit', 'Delivered', 'Exception') then
    raise exception 'Choose a status' using errcode = '22023', hint = 'status';
  end if;
  return private.record_tracking_event(v_shipment, p_occurred_at, p_status, p_location, p_description,
                                       'manual', null, null, null);
end;
$function$;
revoke all on function public.add_tracking_event(p_shipment_id uuid, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text) from public, anon, authenticated, service_role;
grant execute on function public.add_tracking_event(p_shipment_id uuid, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text) to authenticated, service_role;

create trigger tracking_events_set_updated_at before update on public.tracking_events for each row execute function private.set_updated_at();

create policy "who reads the shipment reads its events" on public.tracking_events
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (exists ( select 1
   from public.shipments s
  where (s.id = tracking_events.shipment_id)))));

-- ── private.carrier_hooks ──

create table private.carrier_hooks (
  account_id uuid not null,
  token text not null,
  secret text not null,
  rotated_at timestamp with time zone default now() not null,
  constraint carrier_hooks_pkey primary key (account_id),
  constraint carrier_hooks_token_key unique (token),
  constraint carrier_hooks_secret_check check ((length(secret) >= 32)),
  constraint carrier_hooks_token_check check ((token ~ '^[a-z0-9]{32}$'::text)),
  constraint carrier_hooks_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.carrier_hooks enable row level security;

revoke all on table private.carrier_hooks from public, anon, authenticated, service_role;

create or replace function public.carrier_hook()
 returns table(token text, rotated_at timestamp with time zone)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  if public.current_account_id() is null or not public.is_account_admin() then
    raise exception 'Only the account''s admins can read its carrier hook' using errcode = '42501';
  end if;
  return query select h.token, h.rotated_at from private.carrier_hooks h where h.account_id = public.current_account_id();
end;
$function$;
revoke all on function public.carrier_hook() from public, anon, authenticated, service_role;
grant execute on function public.carrier_hook() to authenticated, service_role;

create or replace function public.carrier_hook_secret(p_token text)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select h.secret from private.carrier_hooks h where h.token = p_token
$function$;
revoke all on function public.carrier_hook_secret(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.carrier_hook_secret(p_token text) to service_role;

create or replace function public.rotate_carrier_hook()
 returns table(token text, secret text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_token text := replace(gen_random_uuid()::text, '-', '');
  v_secret text := replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
begin
  if v_account is null or not public.is_account_admin() then
    raise exception 'Only the account''s admins can rotate its carrier hook' using errcode = '42501';
  end if;
  insert into private.carrier_hooks (account_id, token, secret) values (v_account, v_token, v_secret)
  on conflict (account_id) do update set token = excluded.token, secret = excluded.secret, rotated_at = now();
  return query select v_token, v_secret;
end;
$function$;
revoke all on function public.rotate_carrier_hook() from public, anon, authenticated, service_role;
grant execute on function public.rotate_carrier_hook() to authenticated, service_role;

-- ── functions ──

create or replace function private.is_po_supplier(p_supplier_user_id uuid)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select p_supplier_user_id is not null
     and public.current_user_role() = 'supplier'
     and p_supplier_user_id = public.current_user_id()
$function$;
revoke all on function private.is_po_supplier(p_supplier_user_id uuid) from public, anon, authenticated, service_role;
grant execute on function private.is_po_supplier(p_supplier_user_id uuid) to authenticated;

create or replace function private.po_for_update(p_id uuid)
 returns public.purchase_orders
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_po public.purchase_orders;
begin
  select * into v_po from public.purchase_orders p
   where p.id = p_id and p.account_id = public.current_account_id() for update;
  if not found then
    raise exception 'Purchase order not found' using errcode = 'P0002';
  end if;
  return v_po;
end;
$function$;
revoke all on function private.po_for_update(p_id uuid) from public, anon, authenticated, service_role;

create or replace function private.po_supplier_for(p_account_id uuid, p_email text)
 returns uuid
 language sql
 stable security definer
 set search_path to ''
as $function$
  select u.id from public.users u
   where u.account_id = p_account_id and u.role = 'supplier' and u.is_active
     and p_email is not null and lower(u.email) = lower(p_email)
   order by u.created_at
   limit 1
$function$;
revoke all on function private.po_supplier_for(p_account_id uuid, p_email text) from public, anon, authenticated, service_role;

create or replace function private.require_logistics_writer()
 returns uuid
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  if public.current_account_id() is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can do this' using errcode = '42501';
  end if;
  return public.current_account_id();
end;
$function$;
revoke all on function private.require_logistics_writer() from public, anon, authenticated, service_role;

create or replace function private.tracking_logo_path(p_account_id uuid)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select a.logo_path
    from public.accounts a
   where a.id = p_account_id
     and a.logo_path in (a.id || '/logo.png', a.id || '/logo.jpg')
$function$;
revoke all on function private.tracking_logo_path(p_account_id uuid) from public, anon, authenticated, service_role;

create or replace function public.record_carrier_event(p_token text, p_provider text, p_tracking_number text, p_event_id text, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text, p_estimated_delivery date)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid;
  v_shipment public.shipments;
  v_event public.tracking_events;
begin
  select h.account_id into v_account from private.carrier_hooks h where h.token = p_token;
  if v_account is null then
    raise exception 'Unknown hook' using errcode = 'P0002';
  end if;
  select * into v_shipment from public.shipments s
   where s.account_id = v_account and upper(s.tracking_number) = upper(btrim(p_tracking_number));
  if not found then
    raise exception 'No shipment with this tracking number' using errcode = 'P0002';
  end if;
  if p_status not in ('Processing', 'In Transit', 'Delivered', 'Exception') then
    raise exception 'Unknown status' using errcode = '22023';
  end if;
  v_event := private.record_tracking_event(v_shipment, p_occurred_at, p_status, coalesce(p_location, ''),
                                            coalesce(p_description, p_status), 'carrier', p_provider,
                                            left(p_event_id, 200), p_estimated_delivery);
  return v_event.id;
end;
$function$;
revoke all on function public.record_carrier_event(p_token text, p_provider text, p_tracking_number text, p_event_id text, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text, p_estimated_delivery date) from public, anon, authenticated, service_role;
grant execute on function public.record_carrier_event(p_token text, p_provider text, p_tracking_number text, p_event_id text, p_occurred_at timestamp with time zone, p_status text, p_location text, p_description text, p_estimated_delivery date) to service_role;

create policy "staff and the addressed supplier read purchase orders" on public.purchase_orders
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (( select public.is_account_staff() as is_account_staff) or (private.is_po_supplier(supplier_user_id) and (status <> 'draft'::text)))));

create policy "staff and the order's supplier read shipments" on public.shipments
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and (( select public.is_account_staff() as is_account_staff) or (exists ( select 1
   from public.purchase_orders p
  where ((p.id = shipments.purchase_order_id) and private.is_po_supplier(p.supplier_user_id)))))));
