-- A bid's documents and the account's answer library (issue 38; decision 091).
--
-- 1. rfp_attachments: files attached to a bid, in the private documents bucket at
--    <account_id>/rfp/<rfp_id>/<uuid>/<file name> (its Storage policies: staff read, admins and members
--    write, within the account's folder), a row per file beside it. The type is the documents bucket's list,
--    checked by the file's bytes in the app; 10 MB each (the bucket's cap), at most 50 per bid. Staff read,
--    admins and members add and remove; clients, suppliers and anyone else see nothing. Adding and removing
--    are moments on the bid's timeline; a bid deleted with files queues their removal from Storage.
-- 2. rfp_answers: reusable answers (title, body, tags) the account builds up, found by the start of any word
--    of title, tags or body (full text, as the documents' search) or the title containing the text, and
--    appended to a bid's proposal (use_rfp_answer). Staff read, admins and members write; audited.

-- 1. Attachments -----------------------------------------------------------------

create table public.rfp_attachments (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  rfp_id uuid not null,
  file_name text not null check (length(btrim(file_name)) between 1 and 255 and file_name !~ '[[:cntrl:]/\\]'),
  -- The object's path: the account's folder first (as the Storage policy reads it), then rfp and the bid.
  file_path text not null unique check (length(file_path) <= 600),
  file_size integer not null check (file_size between 1 and 10485760),
  mime_type text not null check (mime_type in (
    'application/pdf', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'text/plain', 'text/csv', 'image/jpeg', 'image/png')),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  check (split_part(file_path, '/', 1) = account_id::text and split_part(file_path, '/', 2) = 'rfp'
         and split_part(file_path, '/', 3) = rfp_id::text),
  foreign key (rfp_id, account_id) references public.rfps (id, account_id) on delete cascade,
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index rfp_attachments_rfp_idx on public.rfp_attachments (rfp_id, created_at);
create index rfp_attachments_account_idx on public.rfp_attachments (account_id);
create index rfp_attachments_created_by_idx on public.rfp_attachments (created_by);

alter table public.rfp_attachments enable row level security;
revoke all on public.rfp_attachments from public, anon, authenticated;
grant select, delete on public.rfp_attachments to authenticated;
grant insert (account_id, rfp_id, file_name, file_path, file_size, mime_type, sha256) on public.rfp_attachments to authenticated;
grant all on public.rfp_attachments to service_role;

create policy "staff read their account's bid files" on public.rfp_attachments
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add bid files" on public.rfp_attachments
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers remove bid files" on public.rfp_attachments
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- At most 50 files a bid: the bid's row is locked so two uploads at once count each other.
create function private.rfp_attachment_cap() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.rfps r where r.id = new.rfp_id for update;
  if (select count(*) from public.rfp_attachments a where a.rfp_id = new.rfp_id) >= 50 then
    raise exception 'A bid holds at most 50 files: remove one first' using errcode = '23514';
  end if;
  return new;
end;
$$;
revoke all on function private.rfp_attachment_cap() from public, anon, authenticated, service_role;
create trigger rfp_attachments_cap before insert on public.rfp_attachments
  for each row execute function private.rfp_attachment_cap();

-- Added and removed files are moments of the bid's history. A file whose bid is gone (deleted with it) has
-- its object removed by the jobs runner (rfp.remove_attachment_file); an account's own deletion removes its
-- files as it does every module's, with nothing to log.
create function private.audit_rfp_attachment() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'rfp_attachment_added', 'rfp', new.rfp_id, null,
      jsonb_build_object('attachment_id', new.id, 'file_name', new.file_name, 'file_size', new.file_size));
  elsif not exists (select 1 from public.accounts a where a.id = old.account_id) then
    -- The account's own deletion: nowhere to log, and its files go with it.
    null;
  elsif exists (select 1 from public.rfps r where r.id = old.rfp_id) then
    perform private.write_audit(old.account_id, 'rfp_attachment_removed', 'rfp', old.rfp_id,
      jsonb_build_object('attachment_id', old.id, 'file_name', old.file_name), null);
  else
    perform private.enqueue_job('rfp.remove_attachment_file', old.account_id,
      jsonb_build_object('path', old.file_path), 'rfp_attachment_file_removed:' || old.id, old.rfp_id);
  end if;
  return null;
end;
$$;
revoke all on function private.audit_rfp_attachment() from public, anon, authenticated, service_role;
create trigger rfp_attachments_audit after insert or delete on public.rfp_attachments
  for each row execute function private.audit_rfp_attachment();

-- 2. The answer library ------------------------------------------------------------

-- Tags as the form keeps them: lower case, each 1 to 40 characters without control characters or commas.
create function private.rfp_tags_ok(p_tags text[]) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(bool_and(length(t) between 1 and 40 and t = lower(t) and t !~ '[[:cntrl:],]'), true)
    from unnest(p_tags) t
$$;

create table public.rfp_answers (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 200 and title !~ '[[:cntrl:]]'),
  body text not null check (length(btrim(body)) between 1 and 10000),
  tags text[] not null default '{}' check (cardinality(tags) <= 20 and private.rfp_tags_ok(tags)),
  -- Title, tags and body for the search, 'simple' so names and numbers are kept as written; kept by the
  -- trigger below (a generated column may not call array_to_string, which is only stable).
  search tsvector not null default ''::tsvector,
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, title),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index rfp_answers_account_title_idx on public.rfp_answers (account_id, title, id);
create index rfp_answers_account_search_idx on public.rfp_answers using gin (account_id, search);
create index rfp_answers_account_title_trgm_idx on public.rfp_answers using gin (account_id, title extensions.gin_trgm_ops);
create index rfp_answers_created_by_idx on public.rfp_answers (created_by);

create function private.rfp_answer_search() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.search := setweight(to_tsvector('simple'::regconfig, new.title), 'A')
             || setweight(to_tsvector('simple'::regconfig, array_to_string(new.tags, ' ')), 'A')
             || setweight(to_tsvector('simple'::regconfig, new.body), 'B');
  return new;
end;
$$;
revoke all on function private.rfp_answer_search() from public, anon, authenticated, service_role;
create trigger rfp_answers_search before insert or update on public.rfp_answers
  for each row execute function private.rfp_answer_search();
create trigger rfp_answers_set_updated_at before update on public.rfp_answers
  for each row execute function private.set_updated_at();
create trigger rfp_answers_audit after insert or update or delete on public.rfp_answers
  for each row execute function private.audit_settings_record('rfp_answer');
insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('rfp_answer', 'public.rfp_answers', 'r.title', null, false);

alter table public.rfp_answers enable row level security;
revoke all on public.rfp_answers from public, anon, authenticated;
grant select, delete on public.rfp_answers to authenticated;
grant insert (account_id, title, body, tags) on public.rfp_answers to authenticated;
grant update (title, body, tags) on public.rfp_answers to authenticated;
grant all on public.rfp_answers to service_role;
create policy "staff read their account's answers" on public.rfp_answers
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add answers" on public.rfp_answers
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers edit answers" on public.rfp_answers
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete answers" on public.rfp_answers
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- The caller's answers with every word of p_query as the start of a word of title, tags or body
-- (private.prefix_tsquery, as the documents' search), or whose title contains p_query; from the
-- account-first indexes, so it states the select policy itself (decision 037).
create function public.search_rfp_answers(p_query text)
returns setof public.rfp_answers
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
    select a.* from public.rfp_answers a
     where a.account_id = $1
       and (a.search @@ $2 or a.title ilike $3)
  $sql$ using v_account, private.prefix_tsquery(p_query), private.contains_pattern(p_query);
end;
$$;
revoke all on function public.search_rfp_answers(text) from public, anon;
grant execute on function public.search_rfp_answers(text) to authenticated;

-- An answer appended to a bid's proposal (a blank line between). Security invoker: the bid's and the answer's
-- policies decide (an auditor changes nothing: no row, null); the proposal's own cap refuses one that would
-- grow past 10,000 characters (23514). The bid's audit trigger records the change.
create function public.use_rfp_answer(p_rfp_id uuid, p_answer_id uuid)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  update public.rfps r
     set proposal = r.proposal || E'\n\n' || a.body
    from public.rfp_answers a
   where r.id = p_rfp_id and a.id = p_answer_id and a.account_id = r.account_id
  returning r.id
$$;
revoke all on function public.use_rfp_answer(uuid, uuid) from public, anon;
grant execute on function public.use_rfp_answer(uuid, uuid) to authenticated;

-- 3. An account with bids or radar settings can be deleted ------------------------------

-- As 20261204310001 and 20261205300001 left them, but a bid, feed or search deleted with its account writes
-- no audit row: the account is gone, and audit_logs' foreign key refused the row, so the account's deletion
-- failed (found by this issue's test).
create or replace function private.audit_rfp() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'rfp_created', 'rfp', new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    -- A delete cascading from the account's own deletion has nowhere to log (audit_logs' foreign key).
    if exists (select 1 from public.accounts a where a.id = old.account_id) then
      perform private.write_audit(old.account_id, 'rfp_deleted', 'rfp', old.id, to_jsonb(old), null);
    end if;
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
$$;

create or replace function private.audit_tender_setting() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_type text := case tg_table_name when 'tender_sources' then 'tender_source' else 'tender_search' end;
  v_changes record;
  v_ignored text[] := array['etag', 'last_modified', 'last_error', 'failures', 'last_fetched_at', 'next_fetch_at', 'updated_at'];
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_type || '_created', v_type, new.id, null, to_jsonb(new) - v_ignored);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.accounts a where a.id = old.account_id) then
      perform private.write_audit(old.account_id, v_type || '_deleted', v_type, old.id, to_jsonb(old) - v_ignored, null);
    end if;
  else
    select * into v_changes from private.changed_values(to_jsonb(old) - v_ignored, to_jsonb(new) - v_ignored);
    if v_changes.new_values <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_type || '_updated', v_type, new.id, v_changes.old_values,
                                  v_changes.new_values || jsonb_build_object('name', new.name));
    end if;
  end if;
  return null;
end;
$$;
