-- The catalogue of modules and what each account has switched on.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.modules ──

-- The catalogue of modules an account can switch on (its rows come from the migrations).
create table public.modules (
  id uuid default gen_random_uuid() not null,
  key text not null,
  name text not null,
  description text not null,
  monthly_price integer default 29900 not null,
  setup_fee integer default 30000 not null,
  features jsonb default '{}'::jsonb not null,
  sort_order smallint default 0 not null,
  is_active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint modules_pkey primary key (id),
  constraint modules_key_key unique (key),
  constraint modules_features_check check ((jsonb_typeof(features) = 'object'::text)),
  constraint modules_key_check check ((key = any (array['helpdesk'::text, 'cpq'::text, 'logistics'::text, 'doc2data'::text, 'rfp'::text, 'compliance'::text]))),
  constraint modules_monthly_price_check check ((monthly_price >= 0)),
  constraint modules_setup_fee_check check ((setup_fee >= 0))
);
alter table public.modules enable row level security;

revoke all on table public.modules from public, anon, authenticated, service_role;
grant all on table public.modules to authenticated;
revoke delete, insert, truncate, update on table public.modules from authenticated;
grant all on table public.modules to service_role;

create trigger modules_set_updated_at before update on public.modules for each row execute function private.set_updated_at();

create policy "signed-in users read the module catalogue" on public.modules
  for select
  to authenticated
  using (true);

-- ── public.account_modules ──

-- Which modules an account has, on which terms; the price is taken from the
-- catalogue when the row is made (private.apply_module_price).
create table public.account_modules (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  module_id uuid not null,
  status text default 'trial'::text not null,
  start_at timestamp with time zone default now() not null,
  end_at timestamp with time zone,
  monthly_price_applied integer default 0 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint account_modules_pkey primary key (id),
  constraint account_modules_account_id_module_id_key unique (account_id, module_id),
  constraint account_modules_monthly_price_applied_check check ((monthly_price_applied >= 0)),
  constraint account_modules_status_check check ((status = any (array['active'::text, 'trial'::text, 'paused'::text, 'cancelled'::text]))),
  constraint account_modules_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint account_modules_module_id_fkey foreign key (module_id) references public.modules(id) on delete restrict
);
alter table public.account_modules enable row level security;

create index account_modules_account_id_created_at_idx on public.account_modules using btree (account_id, created_at desc);
create index account_modules_module_id_idx on public.account_modules using btree (module_id);

revoke all on table public.account_modules from public, anon, authenticated, service_role;
grant all on table public.account_modules to authenticated;
revoke insert, truncate, update on table public.account_modules from authenticated;
grant all on table public.account_modules to service_role;
grant insert (account_id, module_id, status, start_at, end_at) on table public.account_modules to authenticated;
grant update (status, start_at, end_at, updated_at) on table public.account_modules to authenticated;

create or replace function private.apply_module_price()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  select m.monthly_price into new.monthly_price_applied
  from public.modules m
  where m.id = new.module_id;
  return new;
end;
$function$;
revoke all on function private.apply_module_price() from public, anon, authenticated, service_role;
grant execute on function private.apply_module_price() to public;

create or replace function private.audit_module_status()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_module_key text := (select m.key from public.modules m where m.id = new.module_id);
begin
  if tg_op = 'INSERT' or new.status is distinct from old.status then
    perform private.write_audit(new.account_id, 'module_status_changed', 'account_module', new.id,
      case when tg_op = 'UPDATE' then jsonb_build_object('module', v_module_key, 'status', old.status) end,
      jsonb_build_object('module', v_module_key, 'status', new.status));
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_module_status() from public, anon, authenticated, service_role;
grant execute on function private.audit_module_status() to public;

create trigger account_modules_apply_price before insert on public.account_modules for each row execute function private.apply_module_price();
create trigger account_modules_audit_status after insert or update of status on public.account_modules for each row execute function private.audit_module_status();
create trigger account_modules_set_updated_at before update on public.account_modules for each row execute function private.set_updated_at();

create policy "admins remove their account's modules" on public.account_modules
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

create policy "admins subscribe their account to modules" on public.account_modules
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)));

create policy "admins update their account's modules" on public.account_modules
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_admin() as is_account_admin)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's modules" on public.account_modules
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));
