-- Compliance: obligations with recurrence, their occurrences, locked reviews and versioned
-- evidence.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── public.compliance_items ──

create table public.compliance_items (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  title text not null,
  category text default 'other'::text not null,
  risk_level text default 'medium'::text not null,
  responsible_team text not null,
  owner_id uuid,
  frequency text default 'annual'::text not null,
  interval_months integer,
  first_review_date date not null,
  next_review_date date default current_date not null,
  description text not null,
  requirements text,
  status text default 'In Progress'::text not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  evidence_expired boolean default false not null,
  constraint compliance_items_pkey primary key (id),
  constraint compliance_items_id_account_id_key unique (id, account_id),
  constraint compliance_items_category_check check ((category = any (array['financial'::text, 'data_protection'::text, 'security'::text, 'healthcare'::text, 'environmental'::text, 'other'::text]))),
  constraint compliance_items_check check (((frequency = 'custom'::text) = (interval_months is not null))),
  constraint compliance_items_description_check check (((length(btrim(description)) >= 1) and (length(btrim(description)) <= 5000))),
  constraint compliance_items_first_review_date_check check (((first_review_date >= '2000-01-01'::date) and (first_review_date <= '2200-12-31'::date))),
  constraint compliance_items_frequency_check check ((frequency = any (array['monthly'::text, 'quarterly'::text, 'semiannual'::text, 'annual'::text, 'custom'::text]))),
  constraint compliance_items_interval_months_check check (((interval_months >= 1) and (interval_months <= 60))),
  constraint compliance_items_requirements_check check ((length(requirements) <= 10000)),
  constraint compliance_items_responsible_team_check check ((((length(btrim(responsible_team)) >= 1) and (length(btrim(responsible_team)) <= 200)) and (responsible_team !~ '[[:cntrl:]]'::text))),
  constraint compliance_items_risk_level_check check ((risk_level = any (array['low'::text, 'medium'::text, 'high'::text, 'critical'::text]))),
  constraint compliance_items_status_check check ((status = any (array['Compliant'::text, 'In Progress'::text, 'Action Required'::text, 'Non-Compliant'::text]))),
  constraint compliance_items_title_check check ((((length(btrim(title)) >= 1) and (length(btrim(title)) <= 200)) and (title !~ '[[:cntrl:]]'::text))),
  constraint compliance_items_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint compliance_items_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint compliance_items_owner_id_account_id_fkey foreign key (owner_id, account_id) references public.users(id, account_id) on delete set null (owner_id)
);
alter table public.compliance_items enable row level security;

create index compliance_items_account_category_created_idx on public.compliance_items using btree (account_id, category, created_at desc, id desc);
create index compliance_items_account_created_idx on public.compliance_items using btree (account_id, created_at desc, id desc);
create index compliance_items_account_next_review_idx on public.compliance_items using btree (account_id, next_review_date, id);
create index compliance_items_account_owner_created_idx on public.compliance_items using btree (account_id, owner_id, created_at desc, id desc);
create index compliance_items_account_risk_created_idx on public.compliance_items using btree (account_id, risk_level, created_at desc, id desc);
create index compliance_items_account_status_created_idx on public.compliance_items using btree (account_id, status, created_at desc, id desc);
create index compliance_items_account_title_trgm_idx on public.compliance_items using gin (account_id, title extensions.gin_trgm_ops);
create index compliance_items_created_by_idx on public.compliance_items using btree (created_by);
create index compliance_items_owner_idx on public.compliance_items using btree (owner_id);

revoke all on table public.compliance_items from public, anon, authenticated, service_role;
grant all on table public.compliance_items to authenticated;
revoke insert, truncate, update on table public.compliance_items from authenticated;
grant all on table public.compliance_items to service_role;
grant insert (account_id, title, category, risk_level, responsible_team, owner_id, frequency, interval_months, first_review_date, description, requirements) on table public.compliance_items to authenticated;
grant update (title, category, risk_level, responsible_team, owner_id, frequency, interval_months, first_review_date, description, requirements) on table public.compliance_items to authenticated;

create or replace function private.audit_compliance()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_changes record;
  v_item uuid;
begin
  if tg_table_name = 'compliance_items' then
    if tg_op = 'INSERT' then
      perform private.write_audit(new.account_id, 'compliance_item_created', 'compliance_item', new.id, null, to_jsonb(new));
    elsif tg_op = 'DELETE' then
      -- A delete cascading from the account's own deletion has nowhere to log.
      if exists (select 1 from public.accounts a where a.id = old.account_id) then
        perform private.write_audit(old.account_id, 'compliance_item_deleted', 'compliance_item', old.id, to_jsonb(old), null);
      end if;
    else
      select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
      -- evidence_expired follows from the evidence, whose own rows are in the trail.
      if v_changes.new_values - 'updated_at' - 'evidence_expired' <> '{}'::jsonb then
        perform private.write_audit(new.account_id,
          case when new.status is distinct from old.status then 'compliance_item_status_changed' else 'compliance_item_updated' end,
          'compliance_item', new.id, v_changes.old_values, v_changes.new_values);
      end if;
    end if;
  elsif tg_table_name = 'compliance_reviews' then
    perform private.write_audit(new.account_id, 'compliance_review_recorded', 'compliance_item', new.item_id, null,
      jsonb_build_object('review_id', new.id, 'reviewed_on', new.reviewed_on, 'outcome', new.outcome, 'notes', new.notes,
                         'supersedes_id', new.supersedes_id));
  elsif tg_table_name = 'evidence' then
    perform private.write_audit(new.account_id, 'compliance_evidence_added', 'compliance_item', new.item_id, null,
      jsonb_build_object('evidence_id', new.id, 'title', new.title, 'version', new.version, 'file_name', new.file_name,
                         'sha256', new.sha256, 'effective_on', new.effective_on, 'expires_on', new.expires_on));
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_compliance() from public, anon, authenticated, service_role;

create or replace function private.compliance_item_created()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.generate_compliance_occurrences(new.id);
  perform private.refresh_compliance_item(new.id);
  return null;
end;
$function$;
revoke all on function private.compliance_item_created() from public, anon, authenticated, service_role;

create or replace function private.compliance_item_defaults()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  new.next_review_date := new.first_review_date;
  new.status := 'In Progress';
  return new;
end;
$function$;
revoke all on function private.compliance_item_defaults() from public, anon, authenticated, service_role;

create or replace function private.compliance_item_keep_reviewed()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if exists (select 1 from public.compliance_reviews r where r.item_id = old.id)
     and exists (select 1 from public.accounts a where a.id = old.account_id) then
    raise exception 'A reviewed requirement is history: it cannot be deleted' using errcode = '42501';
  end if;
  return old;
end;
$function$;
revoke all on function private.compliance_item_keep_reviewed() from public, anon, authenticated, service_role;

create or replace function private.compliance_item_status(p_item_id uuid)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case
    when exists (select 1 from public.compliance_occurrences o
                  where o.item_id = p_item_id and o.status = 'open' and o.due_on <= current_date)
      then 'Action Required'
    else coalesce((select r.outcome from public.compliance_reviews r where r.item_id = p_item_id
                    order by r.reviewed_on desc, r.created_at desc limit 1), 'In Progress')
  end
$function$;
revoke all on function private.compliance_item_status(p_item_id uuid) from public, anon, authenticated, service_role;

create or replace function private.compliance_schedule_changed()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_last_done date;
begin
  delete from public.compliance_occurrences o where o.item_id = new.id and o.status = 'open';
  -- The generator keeps dates from next_review_date on: restart it from the new first date.
  update public.compliance_items i set next_review_date = new.first_review_date where i.id = new.id;
  perform private.generate_compliance_occurrences(new.id);
  select max(o.due_on) into v_last_done from public.compliance_occurrences o where o.item_id = new.id and o.status = 'done';
  if v_last_done is not null then
    delete from public.compliance_occurrences o where o.item_id = new.id and o.status = 'open' and o.due_on <= v_last_done;
  end if;
  perform private.refresh_compliance_item(new.id);
  return null;
end;
$function$;
revoke all on function private.compliance_schedule_changed() from public, anon, authenticated, service_role;

create or replace function private.count_compliance_item()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update private.compliance_stats s set item_count = s.item_count - 1
     where s.account_id = old.account_id and s.status = old.status;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.compliance_stats as s (account_id, status, item_count) values (new.account_id, new.status, 1)
    on conflict (account_id, status) do update set item_count = s.item_count + 1;
  end if;
  return null;
end;
$function$;
revoke all on function private.count_compliance_item() from public, anon, authenticated, service_role;

create or replace function private.refresh_compliance_item(p_item_id uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_next date;
begin
  if not exists (select 1 from public.compliance_occurrences o where o.item_id = p_item_id and o.status = 'open') then
    perform private.generate_compliance_occurrences(p_item_id);
  end if;
  select min(o.due_on) into v_next from public.compliance_occurrences o where o.item_id = p_item_id and o.status = 'open';
  update public.compliance_items i
     set next_review_date = coalesce(v_next, i.next_review_date), status = private.compliance_item_status(p_item_id)
   where i.id = p_item_id
     and (i.next_review_date is distinct from coalesce(v_next, i.next_review_date)
          or i.status is distinct from private.compliance_item_status(p_item_id));
end;
$function$;
revoke all on function private.refresh_compliance_item(p_item_id uuid) from public, anon, authenticated, service_role;

create or replace function public.compliance_item_trail(p_item_id uuid)
 returns table(id uuid, action text, created_at timestamp with time zone, actor_name text, actor_kind text, actor_email text, old_values jsonb, new_values jsonb)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select * from private.compliance_trail(public.current_account_id(), p_item_id) t
   where public.is_account_staff()
$function$;
revoke all on function public.compliance_item_trail(p_item_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.compliance_item_trail(p_item_id uuid) to authenticated;

create or replace function public.compliance_item_trail_for(p_account_id uuid, p_item_id uuid)
 returns table(id uuid, action text, created_at timestamp with time zone, actor_name text, actor_kind text, actor_email text, old_values jsonb, new_values jsonb)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select * from private.compliance_trail(p_account_id, p_item_id)
$function$;
revoke all on function public.compliance_item_trail_for(p_account_id uuid, p_item_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.compliance_item_trail_for(p_account_id uuid, p_item_id uuid) to service_role;

create or replace function public.search_compliance_items(p_query text)
 returns setof public.compliance_items
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
    select i.* from public.compliance_items i where i.account_id = $1 and i.title ilike $2
  $sql$ using v_account, private.contains_pattern(p_query);
end;
$function$;
revoke all on function public.search_compliance_items(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_compliance_items(p_query text) to authenticated, service_role;

create trigger compliance_items_audit after insert or delete or update on public.compliance_items for each row execute function private.audit_compliance();
create trigger compliance_items_count after insert or delete on public.compliance_items for each row execute function private.count_compliance_item();
create trigger compliance_items_count_status after update of status on public.compliance_items for each row when (old.status is distinct from new.status) execute function private.count_compliance_item();
create trigger compliance_items_defaults before insert on public.compliance_items for each row execute function private.compliance_item_defaults();
create trigger compliance_items_keep_reviewed before delete on public.compliance_items for each row execute function private.compliance_item_keep_reviewed();
create trigger compliance_items_occurrences after insert on public.compliance_items for each row execute function private.compliance_item_created();
create trigger compliance_items_schedule_changed after update of frequency, interval_months, first_review_date on public.compliance_items for each row when (old.frequency is distinct from new.frequency or old.interval_months is distinct from new.interval_months or old.first_review_date is distinct from new.first_review_date) execute function private.compliance_schedule_changed();
create trigger compliance_items_set_updated_at before update on public.compliance_items for each row execute function private.set_updated_at();

create policy "business writers add compliance items" on public.compliance_items
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers update compliance items" on public.compliance_items
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's compliance items" on public.compliance_items
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

comment on column public.compliance_items.evidence_expired is 'The newest version of one of its evidence titles has expired (kept by the functions).';

-- ── public.compliance_occurrences ──

create table public.compliance_occurrences (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  item_id uuid not null,
  due_on date not null,
  status text default 'open'::text not null,
  review_id uuid,
  closed_at timestamp with time zone,
  reminded_before_at timestamp with time zone,
  reminded_on_day_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  announced_at timestamp with time zone,
  constraint compliance_occurrences_pkey primary key (id),
  constraint compliance_occurrences_id_account_id_key unique (id, account_id),
  constraint compliance_occurrences_item_id_due_on_key unique (item_id, due_on),
  constraint compliance_occurrences_check check (((status = 'done'::text) = (closed_at is not null))),
  constraint compliance_occurrences_status_check check ((status = any (array['open'::text, 'done'::text]))),
  constraint compliance_occurrences_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint compliance_occurrences_item_id_account_id_fkey foreign key (item_id, account_id) references public.compliance_items(id, account_id) on delete cascade
);
alter table public.compliance_occurrences enable row level security;

create index compliance_occurrences_account_due_idx on public.compliance_occurrences using btree (account_id, due_on, item_id);
create index compliance_occurrences_open_due_idx on public.compliance_occurrences using btree (due_on) where (status = 'open'::text);
create index compliance_occurrences_unannounced_idx on public.compliance_occurrences using btree (due_on) where ((status = 'open'::text) and (announced_at is null));

revoke all on table public.compliance_occurrences from public, anon, authenticated, service_role;
grant all on table public.compliance_occurrences to authenticated;
revoke delete, insert, truncate, update on table public.compliance_occurrences from authenticated;
grant all on table public.compliance_occurrences to service_role;

create or replace function private.generate_compliance_occurrences(p_item_id uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_item public.compliance_items;
  v_months integer;
  v_until date := (date_trunc('year', current_date) + interval '2 years' - interval '1 day')::date;
  v_due date;
  v_n integer := 0;
begin
  select * into v_item from public.compliance_items where id = p_item_id;
  if not found then
    return;
  end if;
  v_months := private.compliance_interval_months(v_item.frequency, v_item.interval_months);
  loop
    v_due := private.compliance_due_date(v_item.first_review_date, v_months, v_n);
    -- Past due dates before today are not made up, except the first (the item's own due review).
    if v_due >= current_date or v_n = 0 or v_due >= v_item.next_review_date then
      insert into public.compliance_occurrences (account_id, item_id, due_on)
      values (v_item.account_id, v_item.id, v_due)
      on conflict (item_id, due_on) do nothing;
    end if;
    exit when v_due > v_until or v_n > 2000;
    v_n := v_n + 1;
  end loop;
end;
$function$;
revoke all on function private.generate_compliance_occurrences(p_item_id uuid) from public, anon, authenticated, service_role;

create policy "staff read their account's compliance occurrences" on public.compliance_occurrences
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.compliance_reviews ──

create table public.compliance_reviews (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  item_id uuid not null,
  occurrence_id uuid,
  reviewer_id uuid,
  reviewed_on date not null,
  outcome text not null,
  notes text,
  supersedes_id uuid,
  created_at timestamp with time zone default now() not null,
  constraint compliance_reviews_pkey primary key (id),
  constraint compliance_reviews_id_account_id_key unique (id, account_id),
  constraint compliance_reviews_notes_check check ((length(notes) <= 5000)),
  constraint compliance_reviews_outcome_check check ((outcome = any (array['Compliant'::text, 'In Progress'::text, 'Action Required'::text, 'Non-Compliant'::text]))),
  constraint compliance_reviews_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint compliance_reviews_item_id_account_id_fkey foreign key (item_id, account_id) references public.compliance_items(id, account_id) on delete cascade,
  constraint compliance_reviews_occurrence_id_fkey foreign key (occurrence_id) references public.compliance_occurrences(id) on delete set null,
  constraint compliance_reviews_reviewer_id_account_id_fkey foreign key (reviewer_id, account_id) references public.users(id, account_id) on delete set null (reviewer_id),
  constraint compliance_reviews_supersedes_id_fkey foreign key (supersedes_id) references public.compliance_reviews(id)
);
alter table public.compliance_reviews enable row level security;

alter table public.compliance_occurrences add constraint compliance_occurrences_review_id_fkey foreign key (review_id) references public.compliance_reviews(id) on delete set null;

create index compliance_reviews_account_idx on public.compliance_reviews using btree (account_id, created_at desc);
create index compliance_reviews_item_idx on public.compliance_reviews using btree (item_id, reviewed_on desc, created_at desc);
create unique index compliance_reviews_supersedes_key on public.compliance_reviews using btree (supersedes_id);

revoke all on table public.compliance_reviews from public, anon, authenticated, service_role;
grant all on table public.compliance_reviews to authenticated;
revoke delete, insert, truncate, update on table public.compliance_reviews from authenticated;
grant all on table public.compliance_reviews to service_role;

create or replace function private.refuse_locked_change()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'DELETE'
     and (not exists (select 1 from public.accounts a where a.id = old.account_id)
          or not exists (select 1 from public.compliance_items i where i.id = old.item_id)) then
    return old;
  end if;
  raise exception '% is locked once saved: record a new one instead', initcap(replace(tg_table_name, '_', ' '))
    using errcode = '42501';
end;
$function$;
revoke all on function private.refuse_locked_change() from public, anon, authenticated, service_role;

create or replace function public.record_compliance_review(p_item_id uuid, p_reviewed_on date, p_outcome text, p_notes text default null::text, p_supersedes uuid default null::uuid)
 returns public.compliance_reviews
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_item public.compliance_items;
  v_occurrence public.compliance_occurrences;
  v_review public.compliance_reviews;
begin
  if public.current_account_id() is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can record reviews' using errcode = '42501';
  end if;
  select * into v_item from public.compliance_items i
   where i.id = p_item_id and i.account_id = public.current_account_id() for update;
  if not found then
    raise exception 'Compliance item not found' using errcode = 'P0002';
  end if;
  if p_reviewed_on is null then
    raise exception 'Enter the day of the review' using errcode = '22023', hint = 'reviewed_on';
  end if;
  if p_reviewed_on > current_date then
    raise exception 'The review date cannot be in the future' using errcode = '22023', hint = 'reviewed_on';
  end if;
  if p_reviewed_on < v_item.created_at::date then
    raise exception 'The review date cannot be before the item existed' using errcode = '22023', hint = 'reviewed_on';
  end if;
  if p_outcome is null or p_outcome not in ('Compliant', 'In Progress', 'Action Required', 'Non-Compliant') then
    raise exception 'Choose the outcome' using errcode = '22023', hint = 'outcome';
  end if;
  if length(p_notes) > 5000 then
    raise exception 'The notes are too long (5000 characters at most)' using errcode = '22023', hint = 'notes';
  end if;
  if p_supersedes is not null then
    if not exists (select 1 from public.compliance_reviews r where r.id = p_supersedes and r.item_id = v_item.id) then
      raise exception 'The review to supersede is not one of this item''s' using errcode = '22023', hint = 'supersedes';
    end if;
    if exists (select 1 from public.compliance_reviews r where r.supersedes_id = p_supersedes) then
      raise exception 'That review is already superseded' using errcode = '22023', hint = 'supersedes';
    end if;
  end if;

  -- A correcting review closes nothing new; a regular one closes the earliest open occurrence.
  if p_supersedes is null then
    select * into v_occurrence from public.compliance_occurrences o
     where o.item_id = v_item.id and o.status = 'open' order by o.due_on limit 1 for update;
  end if;
  insert into public.compliance_reviews (account_id, item_id, occurrence_id, reviewer_id, reviewed_on, outcome, notes, supersedes_id)
  values (v_item.account_id, v_item.id, v_occurrence.id, public.current_user_id(), p_reviewed_on, p_outcome,
          nullif(btrim(p_notes), ''), p_supersedes)
  returning * into v_review;
  if v_occurrence.id is not null then
    update public.compliance_occurrences o set status = 'done', closed_at = now(), review_id = v_review.id
     where o.id = v_occurrence.id;
  end if;
  perform private.refresh_compliance_item(v_item.id);
  return v_review;
end;
$function$;
revoke all on function public.record_compliance_review(p_item_id uuid, p_reviewed_on date, p_outcome text, p_notes text, p_supersedes uuid) from public, anon, authenticated, service_role;
grant execute on function public.record_compliance_review(p_item_id uuid, p_reviewed_on date, p_outcome text, p_notes text, p_supersedes uuid) to authenticated, service_role;

create trigger compliance_reviews_audit after insert on public.compliance_reviews for each row execute function private.audit_compliance();
create trigger compliance_reviews_locked before delete or update on public.compliance_reviews for each row execute function private.refuse_locked_change();

create policy "business writers delete unreviewed compliance items" on public.compliance_items
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business) and (not (exists ( select 1
   from public.compliance_reviews r
  where (r.item_id = compliance_items.id))))));

create policy "staff read their account's compliance reviews" on public.compliance_reviews
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.evidence ──

create table public.evidence (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  item_id uuid not null,
  review_id uuid,
  title text not null,
  file_path text not null,
  file_name text not null,
  file_size integer not null,
  mime_type text not null,
  sha256 text not null,
  effective_on date not null,
  expires_on date,
  version integer default 1 not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  constraint evidence_pkey primary key (id),
  constraint evidence_file_path_key unique (file_path),
  constraint evidence_id_account_id_key unique (id, account_id),
  constraint evidence_item_id_title_version_key unique (item_id, title, version),
  constraint evidence_check check (((expires_on is null) or (expires_on > effective_on))),
  constraint evidence_check1 check ((split_part(file_path, '/'::text, 1) = (account_id)::text)),
  constraint evidence_file_name_check check ((((length(btrim(file_name)) >= 1) and (length(btrim(file_name)) <= 255)) and (file_name !~ '[[:cntrl:]]'::text))),
  constraint evidence_file_path_check check ((length(file_path) <= 600)),
  constraint evidence_file_size_check check (((file_size >= 1) and (file_size <= 10485760))),
  constraint evidence_mime_type_check check ((mime_type = any (array['application/pdf'::text, 'application/json'::text, 'image/png'::text, 'image/jpeg'::text, 'text/plain'::text]))),
  constraint evidence_sha256_check check ((sha256 ~ '^[0-9a-f]{64}$'::text)),
  constraint evidence_title_check check ((((length(btrim(title)) >= 1) and (length(btrim(title)) <= 200)) and (title !~ '[[:cntrl:]]'::text))),
  constraint evidence_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint evidence_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by),
  constraint evidence_item_id_account_id_fkey foreign key (item_id, account_id) references public.compliance_items(id, account_id) on delete cascade,
  constraint evidence_review_id_account_id_fkey foreign key (review_id, account_id) references public.compliance_reviews(id, account_id)
);
alter table public.evidence enable row level security;

alter table public.evidence add constraint evidence_file_under_compliance_prefix check ((split_part(file_path, '/'::text, 2) = 'compliance'::text)) not valid;

create index evidence_account_expires_idx on public.evidence using btree (account_id, expires_on);
create index evidence_item_idx on public.evidence using btree (item_id, created_at desc);
create index evidence_review_idx on public.evidence using btree (review_id);

revoke all on table public.evidence from public, anon, authenticated, service_role;
grant all on table public.evidence to authenticated;
revoke delete, insert, truncate, update on table public.evidence from authenticated;
grant all on table public.evidence to service_role;
grant insert (account_id, item_id, review_id, title, file_path, file_name, file_size, mime_type, sha256, effective_on, expires_on) on table public.evidence to authenticated;

create or replace function private.compliance_evidence_added()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.refresh_compliance_evidence_expired(new.item_id, current_date);
  return null;
end;
$function$;
revoke all on function private.compliance_evidence_added() from public, anon, authenticated, service_role;

create or replace function private.compliance_evidence_object_locked()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if old.bucket_id = 'evidence' and split_part(old.name, '/', 2) = 'compliance' then
    if tg_op = 'DELETE'
       and (not exists (select 1 from public.accounts a where a.id::text = split_part(old.name, '/', 1))
            or not exists (select 1 from public.evidence e where e.file_path = old.name)) then
      return old;
    end if;
    raise exception 'Compliance evidence files are kept as uploaded: add a new version instead'
      using errcode = '42501';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$function$;
revoke all on function private.compliance_evidence_object_locked() from public, anon, authenticated, service_role;

create or replace function private.compliance_evidence_removed()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.enqueue_job('compliance.remove_evidence_file', old.account_id,
      jsonb_build_object('path', old.file_path, 'item_id', old.item_id),
      'compliance_evidence_file_removed:' || old.id, old.item_id);
  end if;
  return null;
end;
$function$;
revoke all on function private.compliance_evidence_removed() from public, anon, authenticated, service_role;

create or replace function private.evidence_version()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform pg_advisory_xact_lock(hashtextextended(new.item_id::text || '/' || lower(btrim(new.title)), 0));
  select coalesce(max(e.version), 0) + 1 into new.version
    from public.evidence e where e.item_id = new.item_id and lower(btrim(e.title)) = lower(btrim(new.title));
  new.created_by := public.current_user_id();
  return new;
end;
$function$;
revoke all on function private.evidence_version() from public, anon, authenticated, service_role;

create or replace function private.refresh_compliance_evidence_expired(p_item_id uuid, p_today date)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  update public.compliance_items i
     set evidence_expired = v.expired
    from (select exists (
            select 1
              from (select distinct on (lower(btrim(e.title))) e.expires_on
                      from public.evidence e
                     where e.item_id = p_item_id
                     order by lower(btrim(e.title)), e.version desc) cur
             where cur.expires_on <= p_today) as expired) v
   where i.id = p_item_id and i.evidence_expired is distinct from v.expired
$function$;
revoke all on function private.refresh_compliance_evidence_expired(p_item_id uuid, p_today date) from public, anon, authenticated, service_role;

create trigger evidence_audit after insert on public.evidence for each row execute function private.audit_compliance();
create trigger evidence_expired_refresh after insert on public.evidence for each row execute function private.compliance_evidence_added();
create trigger evidence_file_goes_with_item after delete on public.evidence for each row execute function private.compliance_evidence_removed();
create trigger evidence_locked before delete or update on public.evidence for each row execute function private.refuse_locked_change();
create trigger evidence_set_version before insert on public.evidence for each row execute function private.evidence_version();
create trigger compliance_evidence_objects_locked before delete or update on storage.objects for each row execute function private.compliance_evidence_object_locked();

create policy "business writers add evidence" on public.evidence
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "staff read their account's evidence" on public.evidence
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

create policy "account files: writers remove" on storage.objects
  for delete
  to authenticated
  using (((bucket_id = any (array['documents'::text, 'evidence'::text, 'reports'::text])) and ((storage.foldername(name))[1] = (( select public.current_account_id() as current_account_id))::text) and ((not ((bucket_id = 'evidence'::text) and ((storage.foldername(name))[2] = 'compliance'::text))) or (not (exists ( select 1
   from public.evidence e
  where (e.file_path = objects.name))))) and ( select public.can_write_business() as can_write_business)));

-- ── public.compliance_catalogues ──

create table public.compliance_catalogues (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  title text not null,
  version text,
  oscal_version text,
  source_uuid uuid not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  constraint compliance_catalogues_pkey primary key (id),
  constraint compliance_catalogues_account_id_source_uuid_key unique (account_id, source_uuid),
  constraint compliance_catalogues_id_account_id_key unique (id, account_id),
  constraint compliance_catalogues_oscal_version_check check ((length(oscal_version) <= 40)),
  constraint compliance_catalogues_title_check check ((((length(btrim(title)) >= 1) and (length(btrim(title)) <= 300)) and (title !~ '[[:cntrl:]]'::text))),
  constraint compliance_catalogues_version_check check (((length(version) <= 100) and (version !~ '[[:cntrl:]]'::text))),
  constraint compliance_catalogues_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint compliance_catalogues_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.compliance_catalogues enable row level security;

create index compliance_catalogues_account_idx on public.compliance_catalogues using btree (account_id, created_at desc);

revoke all on table public.compliance_catalogues from public, anon, authenticated, service_role;
grant all on table public.compliance_catalogues to authenticated;
revoke delete, insert, truncate, update on table public.compliance_catalogues from authenticated;
grant all on table public.compliance_catalogues to service_role;

create or replace function public.compliance_catalogue_coverage()
 returns table(catalogue_id uuid, title text, version text, controls integer, mapped integer, compliant integer)
 language sql
 stable
 set search_path to ''
as $function$
  select k.id, k.title, k.version,
         (select count(*) from public.compliance_controls c where c.catalogue_id = k.id)::integer,
         (select count(distinct m.control_id) from public.compliance_item_controls m
            join public.compliance_controls c on c.id = m.control_id where c.catalogue_id = k.id)::integer,
         (select count(distinct m.control_id) from public.compliance_item_controls m
            join public.compliance_controls c on c.id = m.control_id
            join public.compliance_items i on i.id = m.item_id
           where c.catalogue_id = k.id and i.status = 'Compliant')::integer
    from public.compliance_catalogues k
   where k.account_id = public.current_account_id()
   order by k.created_at desc
$function$;
revoke all on function public.compliance_catalogue_coverage() from public, anon, authenticated, service_role;
grant execute on function public.compliance_catalogue_coverage() to authenticated, service_role;

create or replace function public.import_compliance_catalogue(p_title text, p_version text, p_oscal_version text, p_source_uuid uuid, p_controls jsonb)
 returns public.compliance_catalogues
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_catalogue public.compliance_catalogues;
begin
  if public.current_account_id() is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can import catalogues' using errcode = '42501';
  end if;
  if jsonb_typeof(p_controls) <> 'array' or jsonb_array_length(p_controls) = 0 then
    raise exception 'The catalogue has no controls' using errcode = '22023';
  end if;
  if jsonb_array_length(p_controls) > 5000 then
    raise exception 'The catalogue has too many controls (5000 at most)' using errcode = '22023';
  end if;
  if exists (select 1 from public.compliance_catalogues c
              where c.account_id = public.current_account_id() and c.source_uuid = p_source_uuid) then
    raise exception 'This catalogue is already imported' using errcode = '23505';
  end if;
  insert into public.compliance_catalogues (account_id, title, version, oscal_version, source_uuid)
  values (public.current_account_id(), btrim(p_title), nullif(btrim(p_version), ''), nullif(btrim(p_oscal_version), ''), p_source_uuid)
  returning * into v_catalogue;
  insert into public.compliance_controls (account_id, catalogue_id, control_key, label, family, title, statement, position)
  select v_catalogue.account_id, v_catalogue.id, c ->> 'key', btrim(c ->> 'label'), nullif(btrim(c ->> 'family'), ''),
         btrim(c ->> 'title'), nullif(c ->> 'statement', ''), (n - 1)::integer
    from jsonb_array_elements(p_controls) with ordinality as e (c, n);
  perform private.write_audit(v_catalogue.account_id, 'compliance_catalogue_imported', 'compliance_catalogue', v_catalogue.id, null,
    jsonb_build_object('title', v_catalogue.title, 'version', v_catalogue.version, 'controls', jsonb_array_length(p_controls)));
  return v_catalogue;
end;
$function$;
revoke all on function public.import_compliance_catalogue(p_title text, p_version text, p_oscal_version text, p_source_uuid uuid, p_controls jsonb) from public, anon, authenticated, service_role;
grant execute on function public.import_compliance_catalogue(p_title text, p_version text, p_oscal_version text, p_source_uuid uuid, p_controls jsonb) to authenticated, service_role;

create policy "staff read their account's catalogues" on public.compliance_catalogues
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.compliance_controls ──

create table public.compliance_controls (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  catalogue_id uuid not null,
  control_key text not null,
  label text not null,
  family text,
  title text not null,
  statement text,
  "position" integer not null,
  constraint compliance_controls_pkey primary key (id),
  constraint compliance_controls_catalogue_id_control_key_key unique (catalogue_id, control_key),
  constraint compliance_controls_id_account_id_key unique (id, account_id),
  constraint compliance_controls_control_key_check check ((control_key ~ '^[A-Za-z0-9_.:-]{1,100}$'::text)),
  constraint compliance_controls_family_check check (((length(family) <= 300) and (family !~ '[[:cntrl:]]'::text))),
  constraint compliance_controls_label_check check ((((length(btrim(label)) >= 1) and (length(btrim(label)) <= 100)) and (label !~ '[[:cntrl:]]'::text))),
  constraint compliance_controls_position_check check (("position" >= 0)),
  constraint compliance_controls_statement_check check ((length(statement) <= 10000)),
  constraint compliance_controls_title_check check ((((length(btrim(title)) >= 1) and (length(btrim(title)) <= 300)) and (title !~ '[[:cntrl:]]'::text))),
  constraint compliance_controls_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint compliance_controls_catalogue_id_account_id_fkey foreign key (catalogue_id, account_id) references public.compliance_catalogues(id, account_id) on delete cascade
);
alter table public.compliance_controls enable row level security;

create index compliance_controls_account_idx on public.compliance_controls using btree (account_id);
create index compliance_controls_catalogue_idx on public.compliance_controls using btree (catalogue_id, "position");

revoke all on table public.compliance_controls from public, anon, authenticated, service_role;
grant all on table public.compliance_controls to authenticated;
revoke delete, insert, truncate, update on table public.compliance_controls from authenticated;
grant all on table public.compliance_controls to service_role;

create policy "staff read their account's controls" on public.compliance_controls
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.compliance_item_controls ──

create table public.compliance_item_controls (
  account_id uuid default public.current_account_id() not null,
  item_id uuid not null,
  control_id uuid not null,
  created_at timestamp with time zone default now() not null,
  constraint compliance_item_controls_pkey primary key (item_id, control_id),
  constraint compliance_item_controls_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint compliance_item_controls_control_id_account_id_fkey foreign key (control_id, account_id) references public.compliance_controls(id, account_id) on delete cascade,
  constraint compliance_item_controls_item_id_account_id_fkey foreign key (item_id, account_id) references public.compliance_items(id, account_id) on delete cascade
);
alter table public.compliance_item_controls enable row level security;

create index compliance_item_controls_account_idx on public.compliance_item_controls using btree (account_id);
create index compliance_item_controls_control_idx on public.compliance_item_controls using btree (control_id);

revoke all on table public.compliance_item_controls from public, anon, authenticated, service_role;
grant all on table public.compliance_item_controls to authenticated;
revoke insert, truncate, update on table public.compliance_item_controls from authenticated;
grant all on table public.compliance_item_controls to service_role;
grant insert (account_id, item_id, control_id) on table public.compliance_item_controls to authenticated;

create or replace function private.audit_compliance_mapping()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_row public.compliance_item_controls := case when tg_op = 'DELETE' then old else new end;
  v_label text;
begin
  -- A delete cascading from the account's own deletion has nowhere to log.
  if not exists (select 1 from public.accounts a where a.id = v_row.account_id) then
    return null;
  end if;
  select c.label into v_label from public.compliance_controls c where c.id = v_row.control_id;
  perform private.write_audit(v_row.account_id,
    case when tg_op = 'DELETE' then 'compliance_control_unmapped' else 'compliance_control_mapped' end,
    'compliance_item', v_row.item_id, null, jsonb_build_object('control_id', v_row.control_id, 'label', v_label));
  return null;
end;
$function$;
revoke all on function private.audit_compliance_mapping() from public, anon, authenticated, service_role;

create trigger compliance_item_controls_audit after insert or delete on public.compliance_item_controls for each row execute function private.audit_compliance_mapping();

create policy "business writers map controls" on public.compliance_item_controls
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers unmap controls" on public.compliance_item_controls
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "staff read their account's control mappings" on public.compliance_item_controls
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── private.compliance_stats ──

create table private.compliance_stats (
  account_id uuid not null,
  status text not null,
  item_count bigint default 0 not null,
  constraint compliance_stats_pkey primary key (account_id, status),
  constraint compliance_stats_item_count_check check ((item_count >= 0)),
  constraint compliance_stats_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.compliance_stats enable row level security;

revoke all on table private.compliance_stats from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function private.compliance_due_date(p_first date, p_months integer, p_n integer)
 returns date
 language sql
 immutable
 set search_path to ''
as $function$
  select (p_first + make_interval(months => p_months * p_n))::date
$function$;
revoke all on function private.compliance_due_date(p_first date, p_months integer, p_n integer) from public, anon, authenticated, service_role;

create or replace function private.compliance_interval_months(p_frequency text, p_interval integer)
 returns integer
 language sql
 immutable
 set search_path to ''
as $function$
  select case p_frequency when 'monthly' then 1 when 'quarterly' then 3 when 'semiannual' then 6
                          when 'annual' then 12 else p_interval end
$function$;
revoke all on function private.compliance_interval_months(p_frequency text, p_interval integer) from public, anon, authenticated, service_role;

create or replace function private.compliance_trail(p_account_id uuid, p_item_id uuid)
 returns table(id uuid, action text, created_at timestamp with time zone, actor_name text, actor_kind text, actor_email text, old_values jsonb, new_values jsonb)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select a.id, a.action, a.created_at,
         case when k.kind = 'system' then 'System'
              else coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email, a.actor_name) end,
         k.kind, a.actor_email, a.old_values, a.new_values
    from public.audit_logs a
    left join public.users u on u.id = a.user_id
    cross join lateral (select coalesce(a.actor_kind, case when a.user_id is not null then 'user' end) as kind) k
   where a.account_id = p_account_id
     and a.resource_type = 'compliance_item'
     and a.resource_id = p_item_id
   order by a.created_at, a.id
   limit 20000
$function$;
revoke all on function private.compliance_trail(p_account_id uuid, p_item_id uuid) from public, anon, authenticated, service_role;

create or replace function public.compliance_daily(p_today date default current_date)
 returns table(occurrence_id uuid, account_id uuid, item_id uuid, title text, due_on date, kind text, owner_email text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_row record;
begin
  -- Each review due is announced once (review_due), whatever the item's status already says.
  for v_row in
    update public.compliance_occurrences o set announced_at = now()
      from public.compliance_items i
     where i.id = o.item_id and o.status = 'open' and o.due_on <= p_today and o.announced_at is null
    returning o.id, o.account_id, o.item_id, o.due_on, i.title
  loop
    perform private.refresh_compliance_item(v_row.item_id);
    perform private.emit_event(v_row.account_id, 'review_due', 'compliance_items', v_row.item_id,
                               jsonb_build_object('occurrence_id', v_row.id, 'due_on', v_row.due_on, 'title', v_row.title));
  end loop;
  for v_row in select i.id from public.compliance_items i
                where not exists (select 1 from public.compliance_occurrences o
                                   where o.item_id = i.id and o.due_on > (date_trunc('year', p_today) + interval '1 year')::date)
  loop
    perform private.generate_compliance_occurrences(v_row.id);
  end loop;
  -- Expired evidence: one audit row per file, the day it expires or the first run after.
  for v_row in
    select e.* from public.evidence e
     where e.expires_on <= p_today
       and not exists (select 1 from public.audit_logs a where a.resource_id = e.item_id
                          and a.action = 'compliance_evidence_expired' and a.new_values ->> 'evidence_id' = e.id::text)
  loop
    perform private.write_audit(v_row.account_id, 'compliance_evidence_expired', 'compliance_item', v_row.item_id, null,
      jsonb_build_object('evidence_id', v_row.id, 'title', v_row.title, 'version', v_row.version, 'expires_on', v_row.expires_on));
    -- The list says so while no newer version of the same title is in force (issue 37, third pass).
    perform private.refresh_compliance_evidence_expired(v_row.item_id, p_today);
  end loop;

  -- The reminders: marked sent here and queued as one mail job each (its key makes it once).
  for v_row in
    with before as (
      update public.compliance_occurrences o set reminded_before_at = now()
        from public.compliance_items i
       where i.id = o.item_id and o.status = 'open' and o.reminded_before_at is null
         and o.due_on = p_today + 7 and i.owner_id is not null
      returning o.id, o.account_id, o.item_id, i.title, o.due_on, 'before'::text as kind, i.owner_id
    ), on_day as (
      update public.compliance_occurrences o set reminded_on_day_at = now()
        from public.compliance_items i
       where i.id = o.item_id and o.status = 'open' and o.reminded_on_day_at is null
         and o.due_on = p_today and i.owner_id is not null
      returning o.id, o.account_id, o.item_id, i.title, o.due_on, 'on_day'::text as kind, i.owner_id
    )
    select r.id, r.account_id, r.item_id, r.title, r.due_on, r.kind, u.email
      from (select * from before union all select * from on_day) r
      join public.users u on u.id = r.owner_id
  loop
    perform private.enqueue_job('compliance_reminder', v_row.account_id,
      jsonb_build_object('occurrence_id', v_row.id, 'item_id', v_row.item_id, 'title', v_row.title, 'due_on', v_row.due_on,
                         'kind', v_row.kind, 'to', v_row.email),
      'compliance_reminder:' || v_row.id || ':' || v_row.kind, v_row.item_id);
    occurrence_id := v_row.id;
    account_id := v_row.account_id;
    item_id := v_row.item_id;
    title := v_row.title;
    due_on := v_row.due_on;
    kind := v_row.kind;
    owner_email := v_row.email;
    return next;
  end loop;
end;
$function$;
revoke all on function public.compliance_daily(p_today date) from public, anon, authenticated, service_role;
grant execute on function public.compliance_daily(p_today date) to service_role;

create or replace function public.compliance_stale_packages(p_now timestamp with time zone default now())
 returns setof text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select o.name from storage.objects o
   where o.bucket_id = 'compliance-packages' and o.created_at < p_now - interval '8 days'
   order by o.created_at
   limit 100
$function$;
revoke all on function public.compliance_stale_packages(p_now timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.compliance_stale_packages(p_now timestamp with time zone) to service_role;

create or replace function public.compliance_summary()
 returns table(total integer, compliant integer, in_progress integer, action_required integer, non_compliant integer, due_30_days integer, next_due date)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or not public.is_account_staff() then
    return query select 0, 0, 0, 0, 0, 0, null::date;
    return;
  end if;
  return query
  select coalesce(sum(s.item_count), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'Compliant'), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'In Progress'), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'Action Required'), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'Non-Compliant'), 0)::integer,
         (select count(*) from (select 1 from public.compliance_items i
                                 where i.account_id = v_account and i.next_review_date <= current_date + 30
                                 limit 1000) d)::integer,
         (select i.next_review_date from public.compliance_items i
           where i.account_id = v_account and i.next_review_date >= current_date
           order by i.next_review_date limit 1)
    from private.compliance_stats s
   where s.account_id = v_account;
end;
$function$;
revoke all on function public.compliance_summary() from public, anon, authenticated, service_role;
grant execute on function public.compliance_summary() to authenticated, service_role;

create or replace function public.create_items_from_controls(p_control_ids uuid[], p_responsible_team text, p_first_review_date date, p_frequency text default 'annual'::text)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_control public.compliance_controls;
  v_item uuid;
  v_count integer := 0;
begin
  if public.current_account_id() is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can create requirements' using errcode = '42501';
  end if;
  if coalesce(array_length(p_control_ids, 1), 0) = 0 then
    raise exception 'Choose the controls to turn into requirements' using errcode = '22023';
  end if;
  if array_length(p_control_ids, 1) > 200 then
    raise exception 'Choose at most 200 controls at once' using errcode = '22023';
  end if;
  for v_control in
    select c.* from public.compliance_controls c
     where c.id = any (p_control_ids) and c.account_id = public.current_account_id()
     order by c.position
  loop
    insert into public.compliance_items (account_id, title, category, risk_level, responsible_team, frequency, first_review_date,
                                         description, requirements)
    values (v_control.account_id, left(v_control.label || ' ' || v_control.title, 200), 'security', 'medium', p_responsible_team,
            p_frequency, p_first_review_date, left(coalesce(v_control.family, 'Control') || ': ' || v_control.title, 5000),
            left(v_control.statement, 10000))
    returning id into v_item;
    insert into public.compliance_item_controls (account_id, item_id, control_id) values (v_control.account_id, v_item, v_control.id);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;
revoke all on function public.create_items_from_controls(p_control_ids uuid[], p_responsible_team text, p_first_review_date date, p_frequency text) from public, anon, authenticated, service_role;
grant execute on function public.create_items_from_controls(p_control_ids uuid[], p_responsible_team text, p_first_review_date date, p_frequency text) to authenticated, service_role;

create or replace function public.request_compliance_package(p_item_id uuid)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_user uuid := public.current_user_id();
  v_email text;
  v_job uuid;
begin
  if v_account is null or v_user is null or not public.is_account_staff() then
    raise exception 'Only the account''s staff can request an audit package' using errcode = '42501';
  end if;
  if not exists (select 1 from public.compliance_items i where i.id = p_item_id and i.account_id = v_account) then
    raise exception 'Compliance requirement not found' using errcode = 'P0002';
  end if;
  select u.email into v_email from public.users u where u.id = v_user and u.account_id = v_account;
  v_job := private.enqueue_job('compliance.audit_package', v_account,
    jsonb_build_object('item_id', p_item_id, 'user_id', v_user, 'to', v_email),
    'compliance_package:' || p_item_id || ':' || v_user || ':' || to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI'),
    p_item_id);
  if v_job is not null then
    perform private.write_audit(v_account, 'compliance_audit_package_requested', 'compliance_item', p_item_id, null,
      jsonb_build_object('job_id', v_job));
  end if;
  return v_job is not null;
end;
$function$;
revoke all on function public.request_compliance_package(p_item_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.request_compliance_package(p_item_id uuid) to authenticated;
