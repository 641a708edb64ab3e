-- modules: The catalogue of modules and what each account has switched on.

set check_function_bodies = false;

-- ── public.modules ──

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
  constraint modules_pkey PRIMARY KEY (id),
  constraint modules_key_key UNIQUE (key),
  constraint modules_features_check CHECK ((jsonb_typeof(features) = 'object'::text)),
  constraint modules_key_check CHECK ((key = ANY (ARRAY['helpdesk'::text, 'cpq'::text, 'logistics'::text, 'doc2data'::text, 'rfp'::text, 'compliance'::text]))),
  constraint modules_monthly_price_check CHECK ((monthly_price >= 0)),
  constraint modules_setup_fee_check CHECK ((setup_fee >= 0))
);
alter table public.modules enable row level security;

revoke all on table public.modules from public, anon, authenticated, service_role;
grant all on table public.modules to authenticated;
revoke delete, insert, truncate, update on table public.modules from authenticated;
grant all on table public.modules to service_role;

CREATE TRIGGER modules_set_updated_at BEFORE UPDATE ON public.modules FOR EACH ROW EXECUTE FUNCTION private.set_updated_at();

create policy "signed-in users read the module catalogue" on public.modules
  for select
  to authenticated
  using (true);

-- ── public.account_modules ──

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
  constraint account_modules_pkey PRIMARY KEY (id),
  constraint account_modules_account_id_module_id_key UNIQUE (account_id, module_id),
  constraint account_modules_monthly_price_applied_check CHECK ((monthly_price_applied >= 0)),
  constraint account_modules_status_check CHECK ((status = ANY (ARRAY['active'::text, 'trial'::text, 'paused'::text, 'cancelled'::text]))),
  constraint account_modules_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE,
  constraint account_modules_module_id_fkey FOREIGN KEY (module_id) REFERENCES public.modules(id) ON DELETE RESTRICT
);
alter table public.account_modules enable row level security;

CREATE INDEX account_modules_account_id_created_at_idx ON public.account_modules USING btree (account_id, created_at DESC);
CREATE INDEX account_modules_module_id_idx ON public.account_modules USING btree (module_id);

revoke all on table public.account_modules from public, anon, authenticated, service_role;
grant all on table public.account_modules to authenticated;
revoke insert, truncate, update on table public.account_modules from authenticated;
grant all on table public.account_modules to service_role;
grant insert (account_id, module_id, status, start_at, end_at) on table public.account_modules to authenticated;
grant update (status, start_at, end_at, updated_at) on table public.account_modules to authenticated;

CREATE OR REPLACE FUNCTION private.apply_module_price()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  select m.monthly_price into new.monthly_price_applied
  from public.modules m
  where m.id = new.module_id;
  return new;
end;
$function$;
revoke all on function private.apply_module_price() from public, anon, authenticated, service_role;
grant execute on function private.apply_module_price() to public;

CREATE OR REPLACE FUNCTION private.audit_module_status()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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

CREATE TRIGGER account_modules_apply_price BEFORE INSERT ON public.account_modules FOR EACH ROW EXECUTE FUNCTION private.apply_module_price();
CREATE TRIGGER account_modules_audit_status AFTER INSERT OR UPDATE OF status ON public.account_modules FOR EACH ROW EXECUTE FUNCTION private.audit_module_status();
CREATE TRIGGER account_modules_set_updated_at BEFORE UPDATE ON public.account_modules FOR EACH ROW EXECUTE FUNCTION private.set_updated_at();

create policy "admins remove their account's modules" on public.account_modules
  for delete
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "admins subscribe their account to modules" on public.account_modules
  for insert
  to authenticated
  with check (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)));

create policy "admins update their account's modules" on public.account_modules
  for update
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_admin() AS is_account_admin)))
  with check ((account_id = ( SELECT public.current_account_id() AS current_account_id)));

create policy "staff read their account's modules" on public.account_modules
  for select
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_staff() AS is_account_staff)));
