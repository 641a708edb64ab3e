-- Leads and their figures.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.leads ──

-- A possible client, before there is a contact or a quote.
create table public.leads (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  name text not null,
  email text not null,
  phone_whatsapp text,
  company text not null,
  role text,
  source text default 'website'::text not null,
  notes text,
  interest text[] default '{}'::text[] not null,
  status text default 'new'::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  contact_id uuid,
  constraint leads_pkey primary key (id),
  constraint leads_name_check check ((length(btrim(name)) > 0)),
  constraint leads_source_check check ((source = any (array['website'::text, 'referral'::text, 'linkedin'::text, 'email'::text, 'event'::text, 'other'::text]))),
  constraint leads_status_check check ((status = any (array['new'::text, 'qualified'::text, 'contacted'::text, 'lost'::text]))),
  constraint leads_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint leads_contact_id_account_id_fkey foreign key (contact_id, account_id) references public.contacts(id, account_id) on delete set null (contact_id)
);
alter table public.leads enable row level security;

create index leads_account_company_trgm_idx on public.leads using gin (account_id, company extensions.gin_trgm_ops);
create index leads_account_email_trgm_idx on public.leads using gin (account_id, email extensions.gin_trgm_ops);
create index leads_account_id_company_id_idx on public.leads using btree (account_id, company, id);
create index leads_account_id_created_at_id_idx on public.leads using btree (account_id, created_at desc, id desc);
create index leads_account_id_name_id_idx on public.leads using btree (account_id, name, id);
create index leads_account_id_status_created_at_idx on public.leads using btree (account_id, status, created_at desc, id desc);
create index leads_account_name_trgm_idx on public.leads using gin (account_id, name extensions.gin_trgm_ops);
create index leads_contact_id_idx on public.leads using btree (contact_id) where (contact_id is not null);

revoke all on table public.leads from public, anon, authenticated, service_role;
grant all on table public.leads to authenticated;
revoke truncate on table public.leads from authenticated;
grant all on table public.leads to service_role;

create or replace function private.lead_stats_after_delete()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  update public.lead_stats s
     set lead_count = s.lead_count - d.lead_count
    from (select o.account_id, o.status, private.quote_month(o.created_at) as month, count(*) as lead_count
            from removed o
           group by 1, 2, 3) d
   where s.account_id = d.account_id and s.status = d.status and s.month = d.month;
  return null;
end;
$function$;
revoke all on function private.lead_stats_after_delete() from public, anon, authenticated, service_role;
grant execute on function private.lead_stats_after_delete() to public;

create or replace function private.lead_stats_after_insert()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  insert into public.lead_stats as s (account_id, status, month, lead_count)
  select n.account_id, n.status, private.quote_month(n.created_at), count(*)
    from inserted n
   group by 1, 2, 3
   order by 1, 2, 3
  on conflict (account_id, status, month) do update
    set lead_count = s.lead_count + excluded.lead_count;
  return null;
end;
$function$;
revoke all on function private.lead_stats_after_insert() from public, anon, authenticated, service_role;
grant execute on function private.lead_stats_after_insert() to public;

create or replace function private.lead_stats_after_update()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  with changes as (
    select o.account_id, o.status, private.quote_month(o.created_at) as month, -1 as n from removed o
    union all
    select n.account_id, n.status, private.quote_month(n.created_at), 1 from inserted n
  ), summed as (
    select account_id, status, month, sum(n)::bigint as lead_count
      from changes group by 1, 2, 3
     having sum(n) <> 0
  )
  insert into public.lead_stats as s (account_id, status, month, lead_count)
  select account_id, status, month, lead_count from summed order by 1, 2, 3
  on conflict (account_id, status, month) do update
    set lead_count = s.lead_count + excluded.lead_count;
  return null;
end;
$function$;
revoke all on function private.lead_stats_after_update() from public, anon, authenticated, service_role;
grant execute on function private.lead_stats_after_update() to public;

create or replace function private.roll_lead_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update private.lead_day_stats s set lead_count = s.lead_count - 1
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date
       and s.source = old.source and s.status = old.status;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.lead_day_stats as s (account_id, day, source, status, lead_count)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, new.source, new.status, 1)
    on conflict (account_id, day, source, status) do update set lead_count = s.lead_count + 1;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_lead_day_stats() from public, anon, authenticated, service_role;
grant execute on function private.roll_lead_day_stats() to public;

create or replace function public.convert_lead(p_lead_id uuid)
 returns public.contacts
 language plpgsql
 set search_path to ''
as $function$
declare
  v_lead public.leads;
  v_contact public.contacts;
begin
  select * into v_lead from public.leads l where l.id = p_lead_id for update;
  if not found then
    raise exception 'Lead not found' using errcode = 'P0002';
  end if;
  if v_lead.contact_id is not null then
    select * into v_contact from public.contacts c where c.id = v_lead.contact_id;
    if found then
      return v_contact;
    end if;
  end if;
  insert into public.contacts (account_id, name, email, phone, company, role, notes, is_primary, status)
  values (v_lead.account_id, v_lead.name, v_lead.email, v_lead.phone_whatsapp, v_lead.company, v_lead.role,
          v_lead.notes, true, 'active')
  returning * into v_contact;
  update public.leads l set contact_id = v_contact.id, status = 'qualified' where l.id = v_lead.id;
  return v_contact;
end;
$function$;
revoke all on function public.convert_lead(p_lead_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.convert_lead(p_lead_id uuid) to authenticated, service_role;

create or replace function public.lead_summary()
 returns table(total_count bigint, new_this_week bigint, qualified_count bigint, conversion_rate integer, status_counts jsonb)
 language sql
 stable
 set search_path to ''
as $function$
  with by_status as (
    select s.status, sum(s.lead_count)::bigint as leads
      from public.lead_stats s
     where s.account_id = public.current_account_id()
     group by s.status
  ), figures as (
    select coalesce(sum(b.leads), 0)::bigint as total,
           coalesce(sum(b.leads) filter (where b.status = 'qualified'), 0)::bigint as qualified,
           coalesce(jsonb_object_agg(b.status, b.leads) filter (where b.leads > 0), '{}'::jsonb) as status_counts
      from by_status b
  )
  select f.total,
         (select count(*) from public.leads l
           where l.account_id = public.current_account_id()
             and l.created_at >= now() - interval '7 days')::bigint,
         f.qualified,
         coalesce(round(100.0 * f.qualified / nullif(f.total, 0)), 0)::integer,
         f.status_counts
    from figures f
$function$;
revoke all on function public.lead_summary() from public, anon, authenticated, service_role;
grant execute on function public.lead_summary() to authenticated, service_role;

create or replace function public.search_leads(p_query text)
 returns setof public.leads
 language plpgsql
 stable security definer
 set search_path to ''
 set enable_seqscan to 'off'
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select l.* from public.leads l
     where l.account_id = $1
       and (l.name ilike $2 or l.email ilike $2 or l.company ilike $2)
  $sql$ using v_account, private.contains_pattern(p_query);
end;
$function$;
revoke all on function public.search_leads(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_leads(p_query text) to authenticated, service_role;

create trigger leads_audit_created after insert on public.leads for each row execute function private.audit_record_created('lead');
create trigger leads_audit_deleted after delete on public.leads for each row execute function private.audit_record_deleted('lead');
create trigger leads_audit_updated after update on public.leads for each row execute function private.audit_record_updated('lead');
create trigger leads_event_created after insert on public.leads referencing new table as new_rows for each statement execute function private.events_on_insert('lead_created');
create trigger leads_roll_day_stats after insert or delete or update of account_id, source, status, created_at on public.leads for each row execute function private.roll_lead_day_stats();
create trigger leads_set_updated_at before update on public.leads for each row execute function private.set_updated_at();
create trigger leads_stats_after_delete after delete on public.leads referencing old table as removed for each statement execute function private.lead_stats_after_delete();
create trigger leads_stats_after_insert after insert on public.leads referencing new table as inserted for each statement execute function private.lead_stats_after_insert();
create trigger leads_stats_after_update after update on public.leads referencing old table as removed new table as inserted for each statement execute function private.lead_stats_after_update();

create policy "business writers add leads" on public.leads
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete leads" on public.leads
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update leads" on public.leads
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's leads" on public.leads
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.lead_stats ──

-- Leads per account, status and month, kept by triggers so the figures never scan leads.
create table public.lead_stats (
  account_id uuid not null,
  status text not null,
  month date not null,
  lead_count bigint default 0 not null,
  constraint lead_stats_pkey primary key (account_id, status, month),
  constraint lead_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.lead_stats enable row level security;

revoke all on table public.lead_stats from public, anon, authenticated, service_role;
grant select on table public.lead_stats to authenticated;
grant all on table public.lead_stats to service_role;

create policy "staff read their account's lead figures" on public.lead_stats
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));
