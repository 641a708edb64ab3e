-- Tenancy: an account, its users (one row per auth user) and pending invitations.

create table public.accounts (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) > 0),
  billing_email text,
  -- Website description shown on the landing page (master account only).
  description text,
  -- Website settings offer the wider list; account settings a subset of it.
  default_currency text not null default 'USD'
    check (default_currency in ('USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'AED')),
  timezone text not null default 'UTC',
  country text,
  subscription_status text not null default 'trial'
    check (subscription_status in ('active', 'trial', 'expired', 'cancelled')),
  trial_ends_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The master account is the earliest created; this index finds it at once.
create index accounts_created_at_idx on public.accounts (created_at, id);

create table public.users (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  auth_user_id uuid unique not null references auth.users (id) on delete cascade,
  email text not null,
  first_name text,
  last_name text,
  avatar_url text,
  role text not null default 'client' check (role in ('admin', 'auditor', 'supplier', 'client')),
  is_active boolean not null default true,
  last_login_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Lets other tables reference "a user of the same account" with one FK.
  unique (id, account_id)
);
create index users_account_id_created_at_idx on public.users (account_id, created_at desc);
-- Emails are stored lower-cased (the sign-up trigger does it), so plain equality finds them.
create index users_account_id_email_idx on public.users (account_id, email);

create table public.user_invitations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  email text not null check (email = lower(email) and email like '%_@_%'),
  role text not null default 'client' check (role in ('admin', 'auditor', 'supplier', 'client')),
  first_name text,
  last_name text,
  -- 32 random bytes, hex encoded by the invite-user function.
  token text not null unique check (length(token) >= 32),
  invited_by uuid,
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (invited_by, account_id) references public.users (id, account_id) on delete set null (invited_by)
);
create index user_invitations_account_id_created_at_idx on public.user_invitations (account_id, created_at desc);
create index user_invitations_account_id_email_idx on public.user_invitations (account_id, email);
create index user_invitations_invited_by_idx on public.user_invitations (invited_by);

create trigger accounts_set_updated_at before update on public.accounts
  for each row execute function private.set_updated_at();
create trigger users_set_updated_at before update on public.users
  for each row execute function private.set_updated_at();
create trigger user_invitations_set_updated_at before update on public.user_invitations
  for each row execute function private.set_updated_at();
