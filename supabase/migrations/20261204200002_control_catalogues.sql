-- Control catalogues (issue 37, decision 063): an account imports a catalogue
-- published in OSCAL JSON (NIST SP 800-53 and others; the app parses and caps
-- the file, this stores what it found), turns chosen controls into compliance
-- items, maps items to the controls they satisfy, and reads the coverage per
-- catalogue. Staff read; admins and members import and map (through the
-- functions and the mapping table's policies); auditors read and are refused
-- every write; clients, suppliers and other accounts see nothing.

create table public.compliance_catalogues (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 300 and title !~ '[[:cntrl:]]'),
  version text check (length(version) <= 100 and version !~ '[[:cntrl:]]'),
  oscal_version text check (length(oscal_version) <= 40),
  -- The catalogue's own uuid (OSCAL catalog.uuid): a second import of the same one is refused.
  source_uuid uuid not null,
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  unique (account_id, source_uuid),
  unique (id, account_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index compliance_catalogues_account_idx on public.compliance_catalogues (account_id, created_at desc);

create table public.compliance_controls (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  catalogue_id uuid not null,
  -- OSCAL's control id ('ac-2', 'ac-2.1') and its label ('AC-2', 'AC-2(1)').
  control_key text not null check (control_key ~ '^[A-Za-z0-9_.:-]{1,100}$'),
  label text not null check (length(btrim(label)) between 1 and 100 and label !~ '[[:cntrl:]]'),
  family text check (length(family) <= 300 and family !~ '[[:cntrl:]]'),
  title text not null check (length(btrim(title)) between 1 and 300 and title !~ '[[:cntrl:]]'),
  statement text check (length(statement) <= 10000),
  position integer not null check (position >= 0),
  unique (catalogue_id, control_key),
  unique (id, account_id),
  foreign key (catalogue_id, account_id) references public.compliance_catalogues (id, account_id) on delete cascade
);
create index compliance_controls_catalogue_idx on public.compliance_controls (catalogue_id, position);
create index compliance_controls_account_idx on public.compliance_controls (account_id);

create table public.compliance_item_controls (
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  item_id uuid not null,
  control_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (item_id, control_id),
  foreign key (item_id, account_id) references public.compliance_items (id, account_id) on delete cascade,
  foreign key (control_id, account_id) references public.compliance_controls (id, account_id) on delete cascade
);
create index compliance_item_controls_control_idx on public.compliance_item_controls (control_id);
create index compliance_item_controls_account_idx on public.compliance_item_controls (account_id);

alter table public.compliance_catalogues enable row level security;
alter table public.compliance_controls enable row level security;
alter table public.compliance_item_controls enable row level security;
revoke all on public.compliance_catalogues, public.compliance_controls, public.compliance_item_controls from anon;
revoke insert, update, delete, truncate on public.compliance_catalogues, public.compliance_controls,
  public.compliance_item_controls from authenticated;
grant insert (account_id, item_id, control_id) on public.compliance_item_controls to authenticated;
grant delete on public.compliance_item_controls to authenticated;

create policy "staff read their account's catalogues" on public.compliance_catalogues
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "staff read their account's controls" on public.compliance_controls
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "staff read their account's control mappings" on public.compliance_item_controls
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers map controls" on public.compliance_item_controls
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers unmap controls" on public.compliance_item_controls
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- A mapping is part of the item's trail.
create function private.audit_compliance_mapping() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.compliance_item_controls := case when tg_op = 'DELETE' then old else new end;
  v_label text;
begin
  select c.label into v_label from public.compliance_controls c where c.id = v_row.control_id;
  perform private.write_audit(v_row.account_id,
    case when tg_op = 'DELETE' then 'compliance_control_unmapped' else 'compliance_control_mapped' end,
    'compliance_item', v_row.item_id, null, jsonb_build_object('control_id', v_row.control_id, 'label', v_label));
  return null;
end;
$$;
revoke all on function private.audit_compliance_mapping() from public, anon, authenticated;
create trigger compliance_item_controls_audit after insert or delete on public.compliance_item_controls
  for each row execute function private.audit_compliance_mapping();

-- The catalogue the app parsed from an OSCAL file: its title, version, uuid and
-- controls (a JSON array of {key, label, family, title, statement}, at most
-- 5000). One transaction; a second import of the same catalogue is refused (23505).
create function public.import_compliance_catalogue(
  p_title text, p_version text, p_oscal_version text, p_source_uuid uuid, p_controls jsonb)
returns public.compliance_catalogues
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- Chosen controls become items (title 'AC-2 Account Management', the control's
-- statement as the requirements), each mapped to its control. Answers how many.
create function public.create_items_from_controls(
  p_control_ids uuid[], p_responsible_team text, p_first_review_date date, p_frequency text default 'annual')
returns integer
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- Per catalogue: its controls, how many some item satisfies, and how many of
-- those items' last review found them compliant.
create function public.compliance_catalogue_coverage()
returns table (catalogue_id uuid, title text, version text, controls integer, mapped integer, compliant integer)
language sql stable
security invoker
set search_path = ''
as $$
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
$$;

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('compliance_catalogue', 'public.compliance_catalogues', $$r.title$$, 'title', false);

revoke all on function public.import_compliance_catalogue(text, text, text, uuid, jsonb) from public, anon;
revoke all on function public.create_items_from_controls(uuid[], text, date, text) from public, anon;
revoke all on function public.compliance_catalogue_coverage() from public, anon;
grant execute on function public.import_compliance_catalogue(text, text, text, uuid, jsonb) to authenticated;
grant execute on function public.create_items_from_controls(uuid[], text, date, text) to authenticated;
grant execute on function public.compliance_catalogue_coverage() to authenticated;
