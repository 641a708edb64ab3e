-- Compliance, third pass (issue 37, decision 078):
--  1. The list says when an item's current evidence has expired:
--     compliance_items.evidence_expired, kept by the functions (evidence
--     added; the daily job when a file's expiry passes). "Current" is the
--     newest version of each title: a newer version in force clears it.
--  2. A reviewed item is history for every role: a trigger refuses its delete
--     (the service role and the table's owner too), except when its account
--     is being deleted. Row-level security already kept it from the API's users.
--  3. An item never reviewed takes its evidence files with it: when its
--     evidence rows go with it (the cascade the lock lets through), each file
--     is queued for removal from Storage (job compliance.remove_evidence_file,
--     once per file), in the same transaction as the delete.
--  4. The full trail of an item (not the page's last 100 rows) for the CSV and
--     the audit package: compliance_item_trail (the account's staff) and
--     compliance_item_trail_for (the service role: the jobs runner).
--  5. The audit package of a large item is built by the jobs runner: staff
--     (auditors too: it is a read) ask with request_compliance_package; the
--     zip is stored in the private bucket compliance-packages under
--     <account_id>/ and the requester mailed a signed link that expires.

-- 1. Expired evidence on the list ----------------------------------------------

alter table public.compliance_items add column evidence_expired boolean not null default false;
comment on column public.compliance_items.evidence_expired is
  'The newest version of one of its evidence titles has expired (kept by the functions).';

create function private.refresh_compliance_evidence_expired(p_item_id uuid, p_today date) returns void
language sql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.refresh_compliance_evidence_expired(uuid, date) from public, anon, authenticated, service_role;

create function private.compliance_evidence_added() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.refresh_compliance_evidence_expired(new.item_id, current_date);
  return null;
end;
$$;
revoke all on function private.compliance_evidence_added() from public, anon, authenticated, service_role;
create trigger evidence_expired_refresh after insert on public.evidence
  for each row execute function private.compliance_evidence_added();

-- Items whose current evidence expired before this migration.
update public.compliance_items i set evidence_expired = true
 where exists (select 1
                 from (select distinct on (lower(btrim(e.title))) e.expires_on
                         from public.evidence e where e.item_id = i.id
                        order by lower(btrim(e.title)), e.version desc) cur
                where cur.expires_on <= current_date);

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
      perform private.write_audit(old.account_id, 'compliance_item_deleted', 'compliance_item', old.id, to_jsonb(old), null);
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

-- 2. A reviewed item is never deleted ------------------------------------------

create function private.compliance_item_keep_reviewed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.compliance_reviews r where r.item_id = old.id)
     and exists (select 1 from public.accounts a where a.id = old.account_id) then
    raise exception 'A reviewed requirement is history: it cannot be deleted' using errcode = '42501';
  end if;
  return old;
end;
$$;
revoke all on function private.compliance_item_keep_reviewed() from public, anon, authenticated, service_role;
create trigger compliance_items_keep_reviewed before delete on public.compliance_items
  for each row execute function private.compliance_item_keep_reviewed();

-- 3. Evidence files go with their (unreviewed) item -----------------------------

-- An evidence row is deleted only by a cascade (private.refuse_locked_change):
-- its item's (queue the file's removal) or its account's (the account's
-- deletion removes its files; no job for an account that is gone).
create function private.compliance_evidence_removed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.enqueue_job('compliance.remove_evidence_file', old.account_id,
      jsonb_build_object('path', old.file_path, 'item_id', old.item_id),
      'compliance_evidence_file_removed:' || old.id, old.item_id);
  end if;
  return null;
end;
$$;
revoke all on function private.compliance_evidence_removed() from public, anon, authenticated, service_role;
create trigger evidence_file_goes_with_item after delete on public.evidence
  for each row execute function private.compliance_evidence_removed();

-- 4. The full trail ---------------------------------------------------------------

-- Oldest first, at most 20,000 rows (the CSV and the package say if cut).
create function private.compliance_trail(p_account_id uuid, p_item_id uuid)
returns table (id uuid, action text, created_at timestamptz, actor_name text, actor_kind text, actor_email text,
               old_values jsonb, new_values jsonb)
language sql
stable
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.compliance_trail(uuid, uuid) from public, anon, authenticated, service_role;

create function public.compliance_item_trail(p_item_id uuid)
returns table (id uuid, action text, created_at timestamptz, actor_name text, actor_kind text, actor_email text,
               old_values jsonb, new_values jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select * from private.compliance_trail(public.current_account_id(), p_item_id) t
   where public.is_account_staff()
$$;
revoke all on function public.compliance_item_trail(uuid) from public, anon, authenticated, service_role;
grant execute on function public.compliance_item_trail(uuid) to authenticated;

create function public.compliance_item_trail_for(p_account_id uuid, p_item_id uuid)
returns table (id uuid, action text, created_at timestamptz, actor_name text, actor_kind text, actor_email text,
               old_values jsonb, new_values jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select * from private.compliance_trail(p_account_id, p_item_id)
$$;
revoke all on function public.compliance_item_trail_for(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.compliance_item_trail_for(uuid, uuid) to service_role;

-- 5. Audit packages built by the jobs runner ---------------------------------------

-- Private, no policy: only the service role (the runner) writes and signs links.
-- 50 MB is Storage's global upload limit; a larger package is stored in parts.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('compliance-packages', 'compliance-packages', false, 52428800, array['application/zip'])
on conflict (id) do update
  set public = false, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types, updated_at = now();

-- Queued once a minute per item and requester (a second click in the same minute
-- queues nothing and returns false); the request is in the item's trail.
create function public.request_compliance_package(p_item_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.request_compliance_package(uuid) from public, anon, authenticated, service_role;
grant execute on function public.request_compliance_package(uuid) to authenticated;
