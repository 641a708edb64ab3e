-- RFP: the bids (responses to tenders), their go/no-go decision, search and cards.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.rfps ──

create table public.rfps (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  title text not null,
  company text not null,
  contact_email text not null,
  value bigint not null,
  currency text default 'USD'::text not null,
  deadline date not null,
  proposal text not null,
  additional_notes text,
  status text default 'Active'::text not null,
  decision text,
  decision_reasons text,
  owner_id uuid,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint rfps_pkey primary key (id),
  constraint rfps_id_account_id_key unique (id, account_id),
  constraint rfps_additional_notes_check check ((length(additional_notes) <= 5000)),
  constraint rfps_company_check check (((length(btrim(company)) >= 1) and (length(btrim(company)) <= 200))),
  constraint rfps_contact_email_check check ((((length(contact_email) >= 3) and (length(contact_email) <= 254)) and (contact_email ~~ '%_@_%'::text))),
  constraint rfps_currency_check check ((currency = any (array['USD'::text, 'EUR'::text, 'GBP'::text]))),
  constraint rfps_decision_check check ((decision = any (array['go'::text, 'no_go'::text]))),
  constraint rfps_decision_reasons_check check ((length(decision_reasons) <= 2000)),
  constraint rfps_proposal_check check (((length(btrim(proposal)) >= 1) and (length(btrim(proposal)) <= 10000))),
  constraint rfps_status_check check ((status = any (array['Active'::text, 'Submitted'::text, 'Under Review'::text, 'Won'::text, 'Lost'::text, 'Closed'::text]))),
  constraint rfps_title_check check (((length(btrim(title)) >= 1) and (length(btrim(title)) <= 200))),
  constraint rfps_value_check check (((value >= 0) and (value <= '100000000000000'::bigint))),
  constraint rfps_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint rfps_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint rfps_owner_id_account_id_fkey foreign key (owner_id, account_id) references public.users(id, account_id) on delete set null (owner_id)
);
alter table public.rfps enable row level security;

create index rfps_account_company_trgm_idx on public.rfps using gin (account_id, company extensions.gin_trgm_ops);
create index rfps_account_id_created_at_idx on public.rfps using btree (account_id, created_at desc, id desc);
create index rfps_account_id_deadline_idx on public.rfps using btree (account_id, deadline);
create index rfps_account_id_status_created_at_idx on public.rfps using btree (account_id, status, created_at desc, id desc);
create index rfps_account_title_trgm_idx on public.rfps using gin (account_id, title extensions.gin_trgm_ops);
create index rfps_created_by_idx on public.rfps using btree (created_by);
create index rfps_owner_id_idx on public.rfps using btree (owner_id);

revoke all on table public.rfps from public, anon, authenticated, service_role;
grant all on table public.rfps to authenticated;
revoke insert, truncate, update on table public.rfps from authenticated;
grant all on table public.rfps to service_role;
grant insert (account_id, title, company, contact_email, value, currency, deadline, proposal, additional_notes, status, decision, decision_reasons, owner_id) on table public.rfps to authenticated;
grant update (title, company, contact_email, value, currency, deadline, proposal, additional_notes, status, decision, decision_reasons, owner_id) on table public.rfps to authenticated;

create or replace function private.audit_rfp()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'rfp_created', 'rfp', new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    perform private.write_audit(old.account_id, 'rfp_deleted', 'rfp', old.id, to_jsonb(old), null);
  else
    if new.status is distinct from old.status then
      perform private.write_audit(new.account_id, 'rfp_' || replace(lower(new.status), ' ', '_'), 'rfp', new.id,
                                  jsonb_build_object('status', old.status),
                                  jsonb_build_object('status', new.status, 'title', new.title));
    end if;
    if new.decision is distinct from old.decision or new.decision_reasons is distinct from old.decision_reasons then
      perform private.write_audit(new.account_id, 'rfp_decided', 'rfp', new.id,
                                  jsonb_build_object('decision', old.decision, 'decision_reasons', old.decision_reasons),
                                  jsonb_build_object('decision', new.decision, 'decision_reasons', new.decision_reasons, 'title', new.title));
    end if;
    select * into v_changes
      from private.changed_values(to_jsonb(old) - 'status' - 'decision' - 'decision_reasons',
                                  to_jsonb(new) - 'status' - 'decision' - 'decision_reasons');
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, 'rfp_updated', 'rfp', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_rfp() from public, anon, authenticated, service_role;

create or replace function public.rfp_totals(p_today date)
 returns table(currency text, open_count integer, open_value bigint, due_this_week integer, won_count integer, lost_count integer)
 language sql
 stable
 set search_path to ''
as $function$
  select r.currency,
         (count(*) filter (where r.status in ('Active', 'Submitted', 'Under Review')))::integer,
         coalesce(sum(r.value) filter (where r.status in ('Active', 'Submitted', 'Under Review')), 0)::bigint,
         (count(*) filter (where r.status in ('Active', 'Submitted', 'Under Review')
                             and r.deadline between p_today and p_today + 7))::integer,
         (count(*) filter (where r.status = 'Won' and r.updated_at >= p_today - interval '12 months'))::integer,
         (count(*) filter (where r.status = 'Lost' and r.updated_at >= p_today - interval '12 months'))::integer
    from public.rfps r
   where r.account_id = public.current_account_id()
   group by r.currency
   order by r.currency
$function$;
revoke all on function public.rfp_totals(p_today date) from public, anon, authenticated, service_role;
grant execute on function public.rfp_totals(p_today date) to authenticated, service_role;

create or replace function public.search_rfps(p_query text)
 returns setof public.rfps
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_account uuid := public.current_account_id();
  v_pattern text := private.contains_pattern(p_query);
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select x.* from public.rfps x where x.account_id = $1 and x.title ilike $2
    union
    select x.* from public.rfps x where x.account_id = $1 and x.company ilike $2
  $sql$ using v_account, v_pattern;
end;
$function$;
revoke all on function public.search_rfps(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_rfps(p_query text) to authenticated, service_role;

create trigger rfps_audit after insert or delete or update on public.rfps for each row execute function private.audit_rfp();
create trigger rfps_set_updated_at before update on public.rfps for each row execute function private.set_updated_at();

create policy "business writers add rfps" on public.rfps
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete rfps" on public.rfps
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update rfps" on public.rfps
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's rfps" on public.rfps
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));
