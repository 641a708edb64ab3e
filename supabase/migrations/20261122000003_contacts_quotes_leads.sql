-- The business records the product really stores: contacts (clients), quotes
-- with their line items, and leads. Money is integer cents.

create table public.contacts (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) > 0),
  email text not null,
  phone text,
  company text,
  role text,
  notes text,
  is_primary boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id)
);
create index contacts_account_id_created_at_idx on public.contacts (account_id, created_at desc);

create table public.quotes (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  contact_id uuid,
  created_by uuid,
  currency text not null default 'USD' check (currency in ('USD', 'EUR', 'GBP')),
  subtotal bigint not null default 0 check (subtotal >= 0),
  total bigint not null default 0 check (total >= 0),
  expires_at timestamptz,
  notes text,
  status text not null default 'draft' check (status in ('draft', 'sent', 'viewed', 'signed', 'expired')),
  -- Assigned by a trigger from the account's own counter (Q-2026-0001).
  quote_number text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, quote_number),
  -- Composite keys: a quote can only point at a contact or user of its own account.
  foreign key (contact_id, account_id) references public.contacts (id, account_id) on delete set null (contact_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index quotes_account_id_created_at_idx on public.quotes (account_id, created_at desc);
create index quotes_contact_id_idx on public.quotes (contact_id);
create index quotes_created_by_idx on public.quotes (created_by);

create table public.quote_items (
  id uuid primary key default gen_random_uuid(),
  quote_id uuid not null references public.quotes (id) on delete cascade,
  description text not null,
  qty integer not null default 1 check (qty >= 1),
  unit_price integer not null check (unit_price >= 0),
  total bigint not null check (total >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index quote_items_quote_id_idx on public.quote_items (quote_id, created_at);

create table public.leads (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) > 0),
  email text not null,
  phone_whatsapp text,
  company text not null,
  role text,
  source text not null default 'website'
    check (source in ('website', 'referral', 'linkedin', 'email', 'event', 'other')),
  notes text,
  interest text[] not null default '{}',
  status text not null default 'new' check (status in ('new', 'qualified', 'contacted', 'lost')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index leads_account_id_created_at_idx on public.leads (account_id, created_at desc);

create trigger contacts_set_updated_at before update on public.contacts
  for each row execute function private.set_updated_at();
create trigger quotes_set_updated_at before update on public.quotes
  for each row execute function private.set_updated_at();
create trigger quote_items_set_updated_at before update on public.quote_items
  for each row execute function private.set_updated_at();
create trigger leads_set_updated_at before update on public.leads
  for each row execute function private.set_updated_at();
