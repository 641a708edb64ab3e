-- The module catalogue (the six products of docs/product-guide.md) and each account's
-- subscriptions to them.

create table public.modules (
  id uuid primary key default gen_random_uuid(),
  key text not null unique check (key in ('helpdesk', 'cpq', 'logistics', 'doc2data', 'rfp', 'compliance')),
  name text not null,
  description text not null,
  monthly_price integer not null default 29900 check (monthly_price >= 0),
  setup_fee integer not null default 30000 check (setup_fee >= 0),
  features jsonb not null default '{}' check (jsonb_typeof(features) = 'object'),
  sort_order smallint not null default 0,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.account_modules (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  -- A catalogue entry with subscribers cannot disappear from under them.
  module_id uuid not null references public.modules (id) on delete restrict,
  status text not null default 'trial' check (status in ('active', 'trial', 'paused', 'cancelled')),
  start_at timestamptz not null default now(),
  end_at timestamptz,
  -- Copied from the catalogue when the subscription starts; members cannot set it.
  monthly_price_applied integer not null default 0 check (monthly_price_applied >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, module_id)
);
create index account_modules_account_id_created_at_idx on public.account_modules (account_id, created_at desc);
create index account_modules_module_id_idx on public.account_modules (module_id);

create trigger modules_set_updated_at before update on public.modules
  for each row execute function private.set_updated_at();
create trigger account_modules_set_updated_at before update on public.account_modules
  for each row execute function private.set_updated_at();

-- The price a subscription pays is the catalogue's price at the time it starts.
create or replace function private.apply_module_price() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select m.monthly_price into new.monthly_price_applied
  from public.modules m
  where m.id = new.module_id;
  return new;
end;
$$;

create trigger account_modules_apply_price before insert on public.account_modules
  for each row execute function private.apply_module_price();

insert into public.modules (key, name, description, monthly_price, setup_fee, features, sort_order) values
  ('helpdesk', 'Helpdesk', 'Multi-channel inbox with AI replies, SLA timers and analytics.', 29900, 30000,
   '{"multi_channel_inbox": "Email, WhatsApp and SMS in one inbox", "ai_replies": "AI-drafted replies", "sla_timers": "SLA timers and escalation", "analytics": "Support analytics"}', 1),
  ('cpq', 'CPQ', 'Quote to e-signature to invoice, in one flow.', 29900, 30000,
   '{"quote_builder": "Quote builder with line items", "e_signature": "E-signature", "invoicing": "Invoice from a signed quote", "pipeline": "Quote pipeline"}', 2),
  ('logistics', 'Logistics', 'Purchase order to shipment to delivery tracking.', 29900, 30000,
   '{"purchase_orders": "Purchase orders", "shipments": "Shipment creation", "tracking": "Delivery tracking", "carriers": "FedEx, UPS, DHL and USPS"}', 3),
  ('doc2data', 'Doc2Data', 'Template-free document extraction.', 29900, 30000,
   '{"extraction": "Template-free extraction", "formats": "PDF, Word, Excel and images", "review": "Review and approval queue", "export": "Export to your systems"}', 4),
  ('rfp', 'RFP Radar', 'Tender and RFP radar with response workspace.', 29900, 30000,
   '{"radar": "Tender and RFP radar", "alerts": "Deadline alerts", "responses": "Response workspace", "tracking": "Submission tracking"}', 5),
  ('compliance', 'Compliance', 'Compliance calendar with audit trail.', 29900, 30000,
   '{"calendar": "Compliance calendar", "risk": "Risk levels and owners", "reviews": "Review reminders", "audit_trail": "Audit trail"}', 6);
