-- Settings records an account keeps: message/document templates and the
-- configuration of external integrations.

create table public.templates (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) > 0),
  type text not null default 'email' check (type in ('email', 'quote', 'invoice', 'contract')),
  -- Only e-mail templates have a subject.
  subject text check (type = 'email' or subject is null),
  content text not null,
  variables jsonb,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index templates_account_id_created_at_idx on public.templates (account_id, created_at desc);
create index templates_created_by_idx on public.templates (created_by);

create table public.integrations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) > 0),
  type text not null check (type in ('email', 'payment', 'crm', 'storage')),
  config jsonb not null default '{}' check (jsonb_typeof(config) = 'object'),
  is_active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index integrations_account_id_created_at_idx on public.integrations (account_id, created_at desc);
create index integrations_created_by_idx on public.integrations (created_by);

create trigger templates_set_updated_at before update on public.templates
  for each row execute function private.set_updated_at();
create trigger integrations_set_updated_at before update on public.integrations
  for each row execute function private.set_updated_at();
