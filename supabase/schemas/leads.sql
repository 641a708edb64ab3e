-- leads: Leads and their figures.

set check_function_bodies = false;

-- ── public.leads ──

create table public.leads (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
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
  constraint leads_pkey PRIMARY KEY (id),
  constraint leads_name_check CHECK ((length(btrim(name)) > 0)),
  constraint leads_source_check CHECK ((source = ANY (ARRAY['website'::text, 'referral'::text, 'linkedin'::text, 'email'::text, 'event'::text, 'other'::text]))),
  constraint leads_status_check CHECK ((status = ANY (ARRAY['new'::text, 'qualified'::text, 'contacted'::text, 'lost'::text]))),
  constraint leads_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE,
  constraint leads_contact_id_account_id_fkey FOREIGN KEY (contact_id, account_id) REFERENCES public.contacts(id, account_id) ON DELETE SET NULL (contact_id)
);
alter table public.leads enable row level security;

CREATE INDEX leads_account_company_trgm_idx ON public.leads USING gin (account_id, company extensions.gin_trgm_ops);
CREATE INDEX leads_account_email_trgm_idx ON public.leads USING gin (account_id, email extensions.gin_trgm_ops);
CREATE INDEX leads_account_id_created_at_id_idx ON public.leads USING btree (account_id, created_at DESC, id DESC);
CREATE INDEX leads_account_id_status_created_at_idx ON public.leads USING btree (account_id, status, created_at DESC, id DESC);
CREATE INDEX leads_account_name_trgm_idx ON public.leads USING gin (account_id, name extensions.gin_trgm_ops);
CREATE INDEX leads_contact_id_idx ON public.leads USING btree (contact_id) WHERE (contact_id IS NOT NULL);

revoke all on table public.leads from public, anon, authenticated, service_role;
grant all on table public.leads to authenticated;
revoke truncate on table public.leads from authenticated;
grant all on table public.leads to service_role;

CREATE OR REPLACE FUNCTION private.lead_stats_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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

CREATE OR REPLACE FUNCTION private.lead_stats_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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

CREATE OR REPLACE FUNCTION private.lead_stats_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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

CREATE OR REPLACE FUNCTION public.convert_lead(p_lead_id uuid)
 RETURNS public.contacts
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
grant execute on function public.convert_lead(p_lead_id uuid) to authenticated;
grant execute on function public.convert_lead(p_lead_id uuid) to service_role;

CREATE OR REPLACE FUNCTION public.lead_summary()
 RETURNS TABLE(total_count bigint, new_this_week bigint, qualified_count bigint, conversion_rate integer, status_counts jsonb)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
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
grant execute on function public.lead_summary() to authenticated;
grant execute on function public.lead_summary() to service_role;

CREATE OR REPLACE FUNCTION public.search_leads(p_query text)
 RETURNS SETOF public.leads
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
 SET enable_seqscan TO 'off'
AS $function$
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
grant execute on function public.search_leads(p_query text) to authenticated;
grant execute on function public.search_leads(p_query text) to service_role;

CREATE TRIGGER leads_audit_created AFTER INSERT ON public.leads FOR EACH ROW EXECUTE FUNCTION private.audit_record_created('lead');
CREATE TRIGGER leads_audit_deleted AFTER DELETE ON public.leads FOR EACH ROW EXECUTE FUNCTION private.audit_record_deleted('lead');
CREATE TRIGGER leads_audit_updated AFTER UPDATE ON public.leads FOR EACH ROW EXECUTE FUNCTION private.audit_record_updated('lead');
CREATE TRIGGER leads_event_created AFTER INSERT ON public.leads REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION private.events_on_insert('lead_created');
CREATE TRIGGER leads_set_updated_at BEFORE UPDATE ON public.leads FOR EACH ROW EXECUTE FUNCTION private.set_updated_at();
CREATE TRIGGER leads_stats_after_delete AFTER DELETE ON public.leads REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION private.lead_stats_after_delete();
CREATE TRIGGER leads_stats_after_insert AFTER INSERT ON public.leads REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION private.lead_stats_after_insert();
CREATE TRIGGER leads_stats_after_update AFTER UPDATE ON public.leads REFERENCING OLD TABLE AS removed NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION private.lead_stats_after_update();

create policy "business writers add leads" on public.leads
  for insert
  to authenticated
  with check (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.can_write_business() AS can_write_business)));

create policy "business writers delete leads" on public.leads
  for delete
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.can_write_business() AS can_write_business)));

create policy "business writers update leads" on public.leads
  for update
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.can_write_business() AS can_write_business)))
  with check ((account_id = ( SELECT public.current_account_id() AS current_account_id)));

create policy "staff read their account's leads" on public.leads
  for select
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_staff() AS is_account_staff)));

-- ── public.lead_stats ──

create table public.lead_stats (
  account_id uuid not null,
  status text not null,
  month date not null,
  lead_count bigint default 0 not null,
  constraint lead_stats_pkey PRIMARY KEY (account_id, status, month),
  constraint lead_stats_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE
);
alter table public.lead_stats enable row level security;

revoke all on table public.lead_stats from public, anon, authenticated, service_role;
grant select on table public.lead_stats to authenticated;
grant all on table public.lead_stats to service_role;

create policy "staff read their account's lead figures" on public.lead_stats
  for select
  to authenticated
  using (((account_id = ( SELECT public.current_account_id() AS current_account_id)) AND ( SELECT public.is_account_staff() AS is_account_staff)));
