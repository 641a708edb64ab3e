-- Logistics (issue 36, decision 062): purchase order → shipment → delivery.
--
-- Staff read; admins and members write through the functions below (status,
-- numbers and totals are never typed); auditors read. A supplier invited to
-- the account sees only the purchase orders addressed to them (supplier_user_id)
-- and the shipments of those orders, confirms them and adds tracking numbers.
-- Clients, anon and other accounts see nothing.

create table public.purchase_orders (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  -- Assigned by a trigger from the account's own counter (PO-2026-0001), gapless.
  po_number text not null,
  supplier_name text not null check (length(btrim(supplier_name)) between 1 and 200),
  supplier_email text check (supplier_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and length(supplier_email) <= 320),
  -- The supplier's login in this account, when they were invited: what they see.
  supplier_user_id uuid,
  currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  -- Cents, the sum of the items (a trigger keeps it).
  total bigint not null default 0 check (total >= 0 and total <= 1000000000000000000),
  expected_on date,
  notes text check (length(notes) <= 5000),
  status text not null default 'draft' check (status in ('draft', 'sent', 'confirmed', 'received', 'cancelled')),
  sent_at timestamptz,
  confirmed_at timestamptz,
  received_at timestamptz,
  cancelled_at timestamptz,
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id),
  unique (account_id, po_number),
  foreign key (supplier_user_id, account_id) references public.users (id, account_id) on delete set null (supplier_user_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index purchase_orders_account_created_idx on public.purchase_orders (account_id, created_at desc, id desc);
create index purchase_orders_account_status_created_idx on public.purchase_orders (account_id, status, created_at desc, id desc);
create index purchase_orders_supplier_user_idx on public.purchase_orders (supplier_user_id);
create index purchase_orders_created_by_idx on public.purchase_orders (created_by);
create index purchase_orders_number_trgm_idx on public.purchase_orders using gin (account_id, po_number extensions.gin_trgm_ops);
create index purchase_orders_supplier_trgm_idx on public.purchase_orders using gin (account_id, supplier_name extensions.gin_trgm_ops);
create trigger purchase_orders_set_updated_at before update on public.purchase_orders
  for each row execute function private.set_updated_at();

create table public.purchase_order_items (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null,
  purchase_order_id uuid not null,
  position integer not null default 0 check (position between 0 and 999),
  description text not null check (length(btrim(description)) between 1 and 500),
  qty integer not null check (qty between 1 and 1000000),
  unit_price bigint not null check (unit_price >= 0 and unit_price <= 100000000000000),
  total bigint not null default 0,
  -- What arrived so far (receive in full or in part).
  received_qty integer not null default 0 check (received_qty >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (received_qty <= qty),
  foreign key (purchase_order_id, account_id) references public.purchase_orders (id, account_id) on delete cascade
);
create index purchase_order_items_po_idx on public.purchase_order_items (purchase_order_id, position);
create index purchase_order_items_account_idx on public.purchase_order_items (account_id);
create trigger purchase_order_items_set_updated_at before update on public.purchase_order_items
  for each row execute function private.set_updated_at();

create table public.shipments (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  -- The carrier's number, or one we generate (SHP-…) for 'other' or when none is typed.
  tracking_number text not null default ('SHP-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 12)))
    check (tracking_number ~ '^[A-Za-z0-9-]{4,40}$'),
  carrier text not null default 'fedex' check (carrier in ('fedex', 'ups', 'dhl', 'usps', 'other')),
  origin text not null check (length(btrim(origin)) between 1 and 200),
  destination text not null check (length(btrim(destination)) between 1 and 200),
  weight numeric(12, 3) not null check (weight > 0 and weight <= 100000),
  weight_unit text not null default 'kg' check (weight_unit in ('kg', 'lb')),
  -- Length × width × height, each positive, in dimension_unit; all or none.
  length numeric(10, 2) check (length > 0 and length <= 100000),
  width numeric(10, 2) check (width > 0 and width <= 100000),
  height numeric(10, 2) check (height > 0 and height <= 100000),
  dimension_unit text check (dimension_unit in ('cm', 'in')),
  description text not null check (length(btrim(description)) between 1 and 2000),
  special_instructions text check (length(special_instructions) <= 5000),
  purchase_order_id uuid,
  direction text not null default 'outbound' check (direction in ('outbound', 'inbound')),
  contact_id uuid,
  status text not null default 'Processing' check (status in ('Processing', 'In Transit', 'Delivered', 'Exception')),
  -- The occurred_at of the event that set the status: an older event never moves it back.
  status_at timestamptz,
  estimated_delivery date,
  delivered_at timestamptz,
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((length is null) = (width is null) and (width is null) = (height is null) and (height is null) = (dimension_unit is null)),
  check ((status = 'Delivered') = (delivered_at is not null)),
  unique (id, account_id),
  foreign key (purchase_order_id, account_id) references public.purchase_orders (id, account_id) on delete set null (purchase_order_id),
  foreign key (contact_id, account_id) references public.contacts (id, account_id) on delete set null (contact_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
-- A tracking number names one shipment everywhere (the public page and the carrier hooks look it up).
create unique index shipments_tracking_number_key on public.shipments (upper(tracking_number));
create index shipments_account_created_idx on public.shipments (account_id, created_at desc, id desc);
create index shipments_account_status_created_idx on public.shipments (account_id, status, created_at desc, id desc);
create index shipments_po_idx on public.shipments (purchase_order_id);
create index shipments_contact_idx on public.shipments (contact_id);
create index shipments_created_by_idx on public.shipments (created_by);
create index shipments_tracking_trgm_idx on public.shipments using gin (account_id, tracking_number extensions.gin_trgm_ops);
create index shipments_destination_trgm_idx on public.shipments using gin (account_id, destination extensions.gin_trgm_ops);
create trigger shipments_set_updated_at before update on public.shipments
  for each row execute function private.set_updated_at();

create table public.shipment_packages (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null,
  shipment_id uuid not null,
  purchase_order_item_id uuid,
  description text not null check (length(btrim(description)) between 1 and 500),
  qty integer not null check (qty between 1 and 1000000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (shipment_id, account_id) references public.shipments (id, account_id) on delete cascade
);
create index shipment_packages_shipment_idx on public.shipment_packages (shipment_id);
create index shipment_packages_account_idx on public.shipment_packages (account_id);
create trigger shipment_packages_set_updated_at before update on public.shipment_packages
  for each row execute function private.set_updated_at();

create table public.tracking_events (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null,
  shipment_id uuid not null,
  occurred_at timestamptz not null,
  location text check (length(location) <= 200),
  status text not null check (status in ('Processing', 'In Transit', 'Delivered', 'Exception')),
  description text not null check (length(btrim(description)) between 1 and 1000),
  source text not null check (source in ('manual', 'carrier')),
  -- For carrier events: 'easypost' / 'aftership' and their event id; stored once.
  provider text check (provider in ('easypost', 'aftership')),
  provider_event_id text check (length(provider_event_id) between 1 and 200),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((source = 'carrier') = (provider is not null and provider_event_id is not null)),
  foreign key (shipment_id, account_id) references public.shipments (id, account_id) on delete cascade,
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create unique index tracking_events_provider_event_key on public.tracking_events (provider, provider_event_id)
  where provider is not null;
-- The same event typed or posted twice (same moment, status and place) is kept once.
create unique index tracking_events_same_event_key on public.tracking_events
  (shipment_id, occurred_at, status, coalesce(location, ''));
create index tracking_events_shipment_idx on public.tracking_events (shipment_id, occurred_at desc);
create index tracking_events_account_idx on public.tracking_events (account_id);
create index tracking_events_created_by_idx on public.tracking_events (created_by);
create trigger tracking_events_set_updated_at before update on public.tracking_events
  for each row execute function private.set_updated_at();

-- The event kinds of logistics, added to whatever the list holds when this runs
-- (other modules' migrations add theirs too: read, not retyped, so none is lost).
do $$
declare
  v_kinds text[];
begin
  select array_agg(distinct k) into v_kinds from (
    select (regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_.]+)''', 'g'))[1] as k
      from pg_constraint c where c.conname = 'events_kind_check' and c.conrelid = 'public.events'::regclass
    union select unnest(array['po_sent', 'po_confirmed', 'shipment_delivered', 'shipment_exception'])) kinds;
  execute 'alter table public.events drop constraint events_kind_check';
  execute format('alter table public.events add constraint events_kind_check check (kind = any (%L::text[]))', v_kinds);
end;
$$;

-- Who sees what ------------------------------------------------------------------

-- The caller is this account's supplier and the purchase order is addressed to them.
create function private.is_po_supplier(p_supplier_user_id uuid) returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select p_supplier_user_id is not null
     and public.current_user_role() = 'supplier'
     and p_supplier_user_id = public.current_user_id()
$$;
revoke all on function private.is_po_supplier(uuid) from public, anon;
grant execute on function private.is_po_supplier(uuid) to authenticated;

alter table public.purchase_orders enable row level security;
alter table public.purchase_order_items enable row level security;
alter table public.shipments enable row level security;
alter table public.shipment_packages enable row level security;
alter table public.tracking_events enable row level security;
revoke all on public.purchase_orders, public.purchase_order_items, public.shipments,
  public.shipment_packages, public.tracking_events from anon;
revoke insert, update, delete, truncate on public.purchase_orders, public.purchase_order_items, public.shipments,
  public.shipment_packages, public.tracking_events from authenticated;
-- What a person may type directly; everything else goes through the functions.
grant update (supplier_name, supplier_email, supplier_user_id, currency, expected_on, notes) on public.purchase_orders to authenticated;
grant update (origin, destination, description, special_instructions, estimated_delivery) on public.shipments to authenticated;

create policy "staff and the addressed supplier read purchase orders" on public.purchase_orders
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff()) or private.is_po_supplier(supplier_user_id)));
create policy "business writers edit draft purchase orders" on public.purchase_orders
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()) and status = 'draft')
  with check (account_id = (select public.current_account_id()) and status = 'draft');

create policy "who reads the order reads its items" on public.purchase_order_items
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and exists (select 1 from public.purchase_orders p where p.id = purchase_order_id));

create policy "staff and the order's supplier read shipments" on public.shipments
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and ((select public.is_account_staff())
              or exists (select 1 from public.purchase_orders p
                          where p.id = purchase_order_id and private.is_po_supplier(p.supplier_user_id))));
create policy "business writers edit shipments" on public.shipments
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));

create policy "who reads the shipment reads its packages" on public.shipment_packages
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and exists (select 1 from public.shipments s where s.id = shipment_id));
create policy "who reads the shipment reads its events" on public.tracking_events
  for select to authenticated
  using (account_id = (select public.current_account_id())
         and exists (select 1 from public.shipments s where s.id = shipment_id));

-- Numbers -------------------------------------------------------------------------

create table private.purchase_order_counters (
  account_id uuid not null references public.accounts (id) on delete cascade,
  year integer not null,
  last_value integer not null,
  primary key (account_id, year)
);
alter table private.purchase_order_counters enable row level security;
revoke all on private.purchase_order_counters from public;

create function private.assign_po_number() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.assign_po_number() from public;
create trigger purchase_orders_assign_number before insert on public.purchase_orders
  for each row execute function private.assign_po_number();

create function private.po_item_total() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.total := new.qty::bigint * new.unit_price;
  return new;
end;
$$;
revoke all on function private.po_item_total() from public;
create trigger purchase_order_items_total before insert or update on public.purchase_order_items
  for each row execute function private.po_item_total();

-- Audit ---------------------------------------------------------------------------

create function private.audit_logistics() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.audit_logistics() from public;
create trigger purchase_orders_audit after insert or update or delete on public.purchase_orders
  for each row execute function private.audit_logistics('purchase_order');
create trigger shipments_audit after insert or update or delete on public.shipments
  for each row execute function private.audit_logistics('shipment');

-- Purchase orders -------------------------------------------------------------------

create function private.require_logistics_writer() returns uuid
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if public.current_account_id() is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can do this' using errcode = '42501';
  end if;
  return public.current_account_id();
end;
$$;
revoke all on function private.require_logistics_writer() from public, anon;

-- A draft order with its lines: p_items = [{description, qty, unit_price (cents)}], 1..100.
create function public.create_purchase_order(
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
begin
  if jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) = 0 then
    raise exception 'Add at least one line item' using errcode = '22023', hint = 'items';
  end if;
  if jsonb_array_length(p_items) > 100 then
    raise exception 'At most 100 line items' using errcode = '22023', hint = 'items';
  end if;
  if p_supplier_user_id is not null and not exists (
    select 1 from public.users u where u.id = p_supplier_user_id and u.account_id = v_account and u.role = 'supplier') then
    raise exception 'Choose one of the account''s suppliers' using errcode = '22023', hint = 'supplier_user_id';
  end if;
  insert into public.purchase_orders (account_id, supplier_name, supplier_email, supplier_user_id, currency, expected_on, notes)
  values (v_account, btrim(p_supplier_name), nullif(lower(btrim(p_supplier_email)), ''), p_supplier_user_id,
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

create function private.po_for_update(p_id uuid) returns public.purchase_orders
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.po_for_update(uuid) from public, anon;

-- Sent to the supplier: the mail (with the PDF) is queued by the app's job.
create function public.send_purchase_order(p_id uuid) returns public.purchase_orders
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- Confirmed by the supplier it is addressed to, or by staff on their word.
create function public.confirm_purchase_order(p_id uuid) returns public.purchase_orders
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create function public.cancel_purchase_order(p_id uuid) returns public.purchase_orders
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- What arrived: p_received = {item_id: qty} (null = everything outstanding).
-- Creates the inbound shipment (Delivered) with one package per line that
-- arrived; the order is 'received' once every line has arrived in full.
create function public.receive_purchase_order(p_id uuid, p_received jsonb default null)
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
begin
  if v_po.status not in ('sent', 'confirmed') then
    raise exception 'Only a sent or confirmed purchase order can be received' using errcode = '22023';
  end if;
  if p_received is not null and jsonb_typeof(p_received) <> 'object' then
    raise exception 'Enter what arrived' using errcode = '22023';
  end if;
  insert into public.shipments (account_id, carrier, origin, destination, weight, description, purchase_order_id,
                                direction, status, status_at, delivered_at)
  values (v_account, 'other', left(v_po.supplier_name, 200), 'Our warehouse', 1,
          'Received against ' || v_po.po_number, v_po.id, 'inbound', 'Delivered', now(), now())
  returning * into v_shipment;
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
  insert into public.tracking_events (account_id, shipment_id, occurred_at, status, description, source)
  values (v_account, v_shipment.id, now(), 'Delivered', 'Received against ' || v_po.po_number, 'manual');
  if not exists (select 1 from public.purchase_order_items i where i.purchase_order_id = v_po.id and i.received_qty < i.qty) then
    update public.purchase_orders p set status = 'received', received_at = now() where p.id = v_po.id;
  end if;
  return v_shipment;
end;
$$;

-- Shipments -------------------------------------------------------------------------

create function public.create_shipment(
  p_origin text, p_destination text, p_carrier text, p_weight numeric, p_weight_unit text,
  p_length numeric, p_width numeric, p_height numeric, p_dimension_unit text,
  p_description text, p_special_instructions text, p_tracking_number text default null,
  p_estimated_delivery date default null, p_contact_id uuid default null, p_purchase_order_id uuid default null)
returns public.shipments
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- One event on a shipment, by hand or from a carrier. The status moves only
-- forward in time: an event older than the one that set the status is kept
-- in the timeline but never moves the status back. The same event twice
-- (same provider id, or same moment/status/place) is stored once: null.
create function private.record_tracking_event(
  p_shipment public.shipments, p_occurred_at timestamptz, p_status text, p_location text, p_description text,
  p_source text, p_provider text, p_provider_event_id text, p_estimated_delivery date)
returns public.tracking_events
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.record_tracking_event(public.shipments, timestamptz, text, text, text, text, text, text, date) from public, anon, authenticated;

create function public.add_tracking_event(
  p_shipment_id uuid, p_occurred_at timestamptz, p_status text, p_location text, p_description text)
returns public.tracking_events
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create function public.mark_shipment_delivered(p_shipment_id uuid) returns public.shipments
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The supplier adds the carrier's tracking number to a shipment of their order.
create function public.set_shipment_tracking_number(p_shipment_id uuid, p_tracking_number text, p_carrier text)
returns public.shipments
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The list's cards: counts per status, from SQL.
create function public.shipment_counts()
returns table (total integer, processing integer, in_transit integer, delivered integer, exceptions integer)
language sql stable
security invoker
set search_path = ''
as $$
  select count(*)::integer,
         (count(*) filter (where s.status = 'Processing'))::integer,
         (count(*) filter (where s.status = 'In Transit'))::integer,
         (count(*) filter (where s.status = 'Delivered'))::integer,
         (count(*) filter (where s.status = 'Exception'))::integer
    from public.shipments s
   where s.account_id = public.current_account_id()
$$;

-- The caller's shipments whose tracking number, origin or destination contain p_query.
create function public.search_shipments(p_query text)
returns setof public.shipments
language plpgsql stable
security definer
set search_path = ''
as $$
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
$$;

create function public.search_purchase_orders(p_query text)
returns setof public.purchase_orders
language plpgsql stable
security definer
set search_path = ''
as $$
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
$$;

revoke all on function public.create_purchase_order(text, text, text, date, text, jsonb, uuid) from public, anon;
revoke all on function public.send_purchase_order(uuid) from public, anon;
revoke all on function public.confirm_purchase_order(uuid) from public, anon;
revoke all on function public.cancel_purchase_order(uuid) from public, anon;
revoke all on function public.receive_purchase_order(uuid, jsonb) from public, anon;
revoke all on function public.create_shipment(text, text, text, numeric, text, numeric, numeric, numeric, text, text, text, text, date, uuid, uuid) from public, anon;
revoke all on function public.add_tracking_event(uuid, timestamptz, text, text, text) from public, anon;
revoke all on function public.mark_shipment_delivered(uuid) from public, anon;
revoke all on function public.set_shipment_tracking_number(uuid, text, text) from public, anon;
revoke all on function public.shipment_counts() from public, anon;
revoke all on function public.search_shipments(text) from public, anon;
revoke all on function public.search_purchase_orders(text) from public, anon;
grant execute on function public.create_purchase_order(text, text, text, date, text, jsonb, uuid) to authenticated;
grant execute on function public.send_purchase_order(uuid) to authenticated;
grant execute on function public.confirm_purchase_order(uuid) to authenticated;
grant execute on function public.cancel_purchase_order(uuid) to authenticated;
grant execute on function public.receive_purchase_order(uuid, jsonb) to authenticated;
grant execute on function public.create_shipment(text, text, text, numeric, text, numeric, numeric, numeric, text, text, text, text, date, uuid, uuid) to authenticated;
grant execute on function public.add_tracking_event(uuid, timestamptz, text, text, text) to authenticated;
grant execute on function public.mark_shipment_delivered(uuid) to authenticated;
grant execute on function public.set_shipment_tracking_number(uuid, text, text) to authenticated;
grant execute on function public.shipment_counts() to authenticated;
grant execute on function public.search_shipments(text) to authenticated;
grant execute on function public.search_purchase_orders(text) to authenticated;
