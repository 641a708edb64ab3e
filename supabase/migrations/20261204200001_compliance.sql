-- Compliance (issue 37, decision 064): a calendar of obligations.
--  - compliance_items: what has to be reviewed, how often (a frequency or a
--    custom interval of months), by whom; its status follows from its dates and
--    its last review.
--  - compliance_occurrences: each due review of an item, generated for the
--    current and the next year from the item's first review date. Written only
--    by the functions here.
--  - compliance_reviews: a review is LOCKED once saved: the database refuses
--    update and delete for every role (the service role too); a later review
--    supersedes it. Recorded only through record_compliance_review.
--  - evidence: files in the evidence bucket with an effective date and an
--    expiry; versioned: a new version is a new row, the old one stays. Append-only
--    like the reviews.
-- Staff read, admins and members write; auditors read everything and every
-- write of theirs is refused (policies, column grants and the functions'
-- checks); clients, suppliers and other accounts see nothing.

create table public.compliance_items (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 200 and title !~ '[[:cntrl:]]'),
  category text not null default 'other'
    check (category in ('financial', 'data_protection', 'security', 'healthcare', 'environmental', 'other')),
  risk_level text not null default 'medium' check (risk_level in ('low', 'medium', 'high', 'critical')),
  responsible_team text not null check (length(btrim(responsible_team)) between 1 and 200 and responsible_team !~ '[[:cntrl:]]'),
  owner_id uuid,
  frequency text not null default 'annual' check (frequency in ('monthly', 'quarterly', 'semiannual', 'annual', 'custom')),
  -- Months between reviews when the frequency is custom.
  interval_months integer check (interval_months between 1 and 60),
  -- The first review's date: every occurrence is this date plus n intervals.
  first_review_date date not null,
  -- The earliest review not yet done (kept by the functions).
  next_review_date date not null default current_date,
  description text not null check (length(btrim(description)) between 1 and 5000),
  requirements text check (length(requirements) <= 10000),
  status text not null default 'In Progress'
    check (status in ('Compliant', 'In Progress', 'Action Required', 'Non-Compliant')),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((frequency = 'custom') = (interval_months is not null)),
  check (first_review_date between date '2000-01-01' and date '2200-12-31'),
  unique (id, account_id),
  foreign key (owner_id, account_id) references public.users (id, account_id) on delete set null (owner_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index compliance_items_account_created_idx on public.compliance_items (account_id, created_at desc, id desc);
create index compliance_items_account_status_created_idx on public.compliance_items (account_id, status, created_at desc, id desc);
create index compliance_items_account_next_review_idx on public.compliance_items (account_id, next_review_date, id);
create index compliance_items_owner_idx on public.compliance_items (owner_id);
create index compliance_items_created_by_idx on public.compliance_items (created_by);
create index compliance_items_account_title_trgm_idx on public.compliance_items using gin (account_id, title extensions.gin_trgm_ops);

create trigger compliance_items_set_updated_at before update on public.compliance_items
  for each row execute function private.set_updated_at();

create table public.compliance_occurrences (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  item_id uuid not null,
  due_on date not null,
  status text not null default 'open' check (status in ('open', 'done')),
  review_id uuid,
  closed_at timestamptz,
  -- The daily job's reminders, each sent once.
  reminded_before_at timestamptz,
  reminded_on_day_at timestamptz,
  created_at timestamptz not null default now(),
  check ((status = 'done') = (closed_at is not null)),
  unique (item_id, due_on),
  unique (id, account_id),
  foreign key (item_id, account_id) references public.compliance_items (id, account_id) on delete cascade
);
create index compliance_occurrences_account_due_idx on public.compliance_occurrences (account_id, due_on, item_id);
create index compliance_occurrences_open_due_idx on public.compliance_occurrences (due_on) where status = 'open';

create table public.compliance_reviews (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  item_id uuid not null,
  occurrence_id uuid,
  reviewer_id uuid,
  reviewed_on date not null,
  outcome text not null check (outcome in ('Compliant', 'In Progress', 'Action Required', 'Non-Compliant')),
  notes text check (length(notes) <= 5000),
  -- The review this one replaces (it stays, locked).
  supersedes_id uuid references public.compliance_reviews (id),
  created_at timestamptz not null default now(),
  unique (id, account_id),
  foreign key (item_id, account_id) references public.compliance_items (id, account_id) on delete cascade,
  foreign key (occurrence_id) references public.compliance_occurrences (id) on delete set null,
  foreign key (reviewer_id, account_id) references public.users (id, account_id) on delete set null (reviewer_id)
);
create index compliance_reviews_item_idx on public.compliance_reviews (item_id, reviewed_on desc, created_at desc);
create index compliance_reviews_account_idx on public.compliance_reviews (account_id, created_at desc);
create unique index compliance_reviews_supersedes_key on public.compliance_reviews (supersedes_id);

alter table public.compliance_occurrences
  add foreign key (review_id) references public.compliance_reviews (id) on delete set null;

create table public.evidence (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  item_id uuid not null,
  review_id uuid,
  title text not null check (length(btrim(title)) between 1 and 200 and title !~ '[[:cntrl:]]'),
  -- <account_id>/<uuid>/<file name> in the evidence bucket.
  file_path text not null unique check (length(file_path) <= 600),
  file_name text not null check (length(btrim(file_name)) between 1 and 255 and file_name !~ '[[:cntrl:]]'),
  file_size integer not null check (file_size between 1 and 10485760),
  mime_type text not null check (mime_type in ('application/pdf', 'application/json', 'image/png', 'image/jpeg', 'text/plain')),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  effective_on date not null,
  expires_on date,
  -- 1 for the first file of this title on this item, then 2, 3...: set by the trigger.
  version integer not null default 1,
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  check (expires_on is null or expires_on > effective_on),
  check (split_part(file_path, '/', 1) = account_id::text),
  unique (id, account_id),
  unique (item_id, title, version),
  foreign key (item_id, account_id) references public.compliance_items (id, account_id) on delete cascade,
  foreign key (review_id, account_id) references public.compliance_reviews (id, account_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index evidence_item_idx on public.evidence (item_id, created_at desc);
create index evidence_account_expires_idx on public.evidence (account_id, expires_on);
create index evidence_review_idx on public.evidence (review_id);

-- Row-level security ----------------------------------------------------------

alter table public.compliance_items enable row level security;
alter table public.compliance_occurrences enable row level security;
alter table public.compliance_reviews enable row level security;
alter table public.evidence enable row level security;
revoke all on public.compliance_items, public.compliance_occurrences, public.compliance_reviews, public.evidence from anon;
revoke insert, update, delete, truncate on public.compliance_items, public.compliance_occurrences,
  public.compliance_reviews, public.evidence from authenticated;
grant insert (account_id, title, category, risk_level, responsible_team, owner_id, frequency, interval_months,
              first_review_date, description, requirements) on public.compliance_items to authenticated;
grant update (title, category, risk_level, responsible_team, owner_id, description, requirements)
  on public.compliance_items to authenticated;
grant delete on public.compliance_items to authenticated;
grant insert (account_id, item_id, review_id, title, file_path, file_name, file_size, mime_type, sha256, effective_on, expires_on)
  on public.evidence to authenticated;

create policy "staff read their account's compliance items" on public.compliance_items
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add compliance items" on public.compliance_items
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update compliance items" on public.compliance_items
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
-- An item that has been reviewed is history: it is not deleted.
create policy "business writers delete unreviewed compliance items" on public.compliance_items
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business())
         and not exists (select 1 from public.compliance_reviews r where r.item_id = compliance_items.id));

create policy "staff read their account's compliance occurrences" on public.compliance_occurrences
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "staff read their account's compliance reviews" on public.compliance_reviews
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "staff read their account's evidence" on public.evidence
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add evidence" on public.evidence
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- Locked rows: reviews and evidence are never changed nor deleted, by any role
-- (a trigger, so the service role and the table's owner are held too). Only
-- when their account or item is already gone (a cascade) does a delete pass.
create function private.refuse_locked_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE'
     and (not exists (select 1 from public.accounts a where a.id = old.account_id)
          or not exists (select 1 from public.compliance_items i where i.id = old.item_id)) then
    return old;
  end if;
  raise exception '% is locked once saved: record a new one instead', initcap(replace(tg_table_name, '_', ' '))
    using errcode = '42501';
end;
$$;
revoke all on function private.refuse_locked_change() from public, anon, authenticated;
create trigger compliance_reviews_locked before update or delete on public.compliance_reviews
  for each row execute function private.refuse_locked_change();
create trigger evidence_locked before update or delete on public.evidence
  for each row execute function private.refuse_locked_change();

-- Recurrence ------------------------------------------------------------------

create function private.compliance_interval_months(p_frequency text, p_interval integer) returns integer
language sql immutable
set search_path = ''
as $$
  select case p_frequency when 'monthly' then 1 when 'quarterly' then 3 when 'semiannual' then 6
                          when 'annual' then 12 else p_interval end
$$;

-- The n-th due date: the first date plus n intervals, each counted from the
-- first (31 January monthly is 29 February in a leap year, then 31 March).
create function private.compliance_due_date(p_first date, p_months integer, p_n integer) returns date
language sql immutable
set search_path = ''
as $$
  select (p_first + make_interval(months => p_months * p_n))::date
$$;

-- Occurrences from the first review date to the end of next year (at least
-- the next open one), never twice for a date.
create function private.generate_compliance_occurrences(p_item_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- The status the dates say: a review not done by its date is Action Required;
-- otherwise the last review's outcome, or In Progress before the first.
create function private.compliance_item_status(p_item_id uuid) returns text
language sql stable
security definer
set search_path = ''
as $$
  select case
    when exists (select 1 from public.compliance_occurrences o
                  where o.item_id = p_item_id and o.status = 'open' and o.due_on <= current_date)
      then 'Action Required'
    else coalesce((select r.outcome from public.compliance_reviews r where r.item_id = p_item_id
                    order by r.reviewed_on desc, r.created_at desc limit 1), 'In Progress')
  end
$$;

create function private.refresh_compliance_item(p_item_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create function private.compliance_item_defaults() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.next_review_date := new.first_review_date;
  new.status := 'In Progress';
  return new;
end;
$$;
create trigger compliance_items_defaults before insert on public.compliance_items
  for each row execute function private.compliance_item_defaults();

create function private.compliance_item_created() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.generate_compliance_occurrences(new.id);
  perform private.refresh_compliance_item(new.id);
  return null;
end;
$$;
create trigger compliance_items_occurrences after insert on public.compliance_items
  for each row execute function private.compliance_item_created();

-- Versions: the next number for the same title on the same item.
create function private.evidence_version() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtextextended(new.item_id::text || '/' || lower(btrim(new.title)), 0));
  select coalesce(max(e.version), 0) + 1 into new.version
    from public.evidence e where e.item_id = new.item_id and lower(btrim(e.title)) = lower(btrim(new.title));
  new.created_by := public.current_user_id();
  return new;
end;
$$;
create trigger evidence_set_version before insert on public.evidence
  for each row execute function private.evidence_version();

-- Recording a review ----------------------------------------------------------

-- A review of the item on a day that has come and not before the item existed:
-- it closes the earliest open occurrence (the next one stands ready) and sets
-- the item's status. p_supersedes names the review it replaces (same item);
-- the replaced one stays, locked.
create function public.record_compliance_review(
  p_item_id uuid, p_reviewed_on date, p_outcome text, p_notes text default null, p_supersedes uuid default null)
returns public.compliance_reviews
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- Audit rows ------------------------------------------------------------------

create function private.audit_compliance() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
  v_item uuid;
begin
  if tg_table_name = 'compliance_items' then
    if tg_op = 'INSERT' then
      perform private.write_audit(new.account_id, 'compliance_item_created', 'compliance_item', new.id, null, to_jsonb(new));
    elsif tg_op = 'DELETE' then
      perform private.write_audit(old.account_id, 'compliance_item_deleted', 'compliance_item', old.id, to_jsonb(old), null);
    else
      select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
      if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
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
$$;
revoke all on function private.audit_compliance() from public;
create trigger compliance_items_audit after insert or update or delete on public.compliance_items
  for each row execute function private.audit_compliance();
create trigger compliance_reviews_audit after insert on public.compliance_reviews
  for each row execute function private.audit_compliance();
create trigger evidence_audit after insert on public.evidence
  for each row execute function private.audit_compliance();

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('compliance_item', 'public.compliance_items', $$r.title$$, 'title', true);

-- The daily job ---------------------------------------------------------------

-- For the runner (service role): items whose review is due become Action
-- Required with a review_due event (once per occurrence), occurrences are
-- extended into next year, expired evidence is flagged in the trail. The
-- reminders (7 days before and on the day) are marked here and queued as one
-- compliance_reminder mail job each, so each is mailed once; they are answered too.
create function public.compliance_daily(p_today date default current_date)
returns table (occurrence_id uuid, account_id uuid, item_id uuid, title text, due_on date, kind text, owner_email text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row record;
begin
  for v_row in
    select o.id, o.account_id, o.item_id, o.due_on, i.title
      from public.compliance_occurrences o join public.compliance_items i on i.id = o.item_id
     where o.status = 'open' and o.due_on <= p_today and i.status <> 'Action Required'
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
$$;

-- Cards ------------------------------------------------------------------------

-- The list's cards: items by status, due within 30 days, overdue, the next due date.
create function public.compliance_summary()
returns table (total integer, compliant integer, in_progress integer, action_required integer, non_compliant integer,
               due_30_days integer, next_due date)
language sql stable
security invoker
set search_path = ''
as $$
  select count(*)::integer,
         (count(*) filter (where i.status = 'Compliant'))::integer,
         (count(*) filter (where i.status = 'In Progress'))::integer,
         (count(*) filter (where i.status = 'Action Required'))::integer,
         (count(*) filter (where i.status = 'Non-Compliant'))::integer,
         (count(*) filter (where i.next_review_date <= current_date + 30))::integer,
         min(i.next_review_date) filter (where i.next_review_date >= current_date)
    from public.compliance_items i
   where i.account_id = public.current_account_id()
$$;

-- The caller's items whose title contains p_query (decision 037).
create function public.search_compliance_items(p_query text)
returns setof public.compliance_items
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
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
$$;

revoke all on function private.compliance_interval_months(text, integer) from public, anon, authenticated;
revoke all on function private.compliance_due_date(date, integer, integer) from public, anon, authenticated;
revoke all on function private.generate_compliance_occurrences(uuid) from public, anon, authenticated;
revoke all on function private.compliance_item_status(uuid) from public, anon, authenticated;
revoke all on function private.refresh_compliance_item(uuid) from public, anon, authenticated;
revoke all on function private.compliance_item_defaults() from public, anon, authenticated;
revoke all on function private.compliance_item_created() from public, anon, authenticated;
revoke all on function private.evidence_version() from public, anon, authenticated;
revoke all on function public.record_compliance_review(uuid, date, text, text, uuid) from public, anon;
revoke all on function public.compliance_daily(date) from public, anon, authenticated;
revoke all on function public.compliance_summary() from public, anon;
revoke all on function public.search_compliance_items(text) from public, anon;
grant execute on function public.record_compliance_review(uuid, date, text, text, uuid) to authenticated;
grant execute on function public.compliance_daily(date) to service_role;
grant execute on function public.compliance_summary() to authenticated;
grant execute on function public.search_compliance_items(text) to authenticated;
