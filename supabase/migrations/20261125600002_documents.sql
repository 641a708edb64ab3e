-- doc2data: an account's documents. The file itself lives in the documents
-- bucket at file_path (<account_id>/<uuid>/<file name>); this row says what it
-- is, who uploaded it, how far its review is, and what extraction found.
create table public.documents (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 200),
  type text not null default 'other'
    check (type in ('invoice', 'contract', 'report', 'presentation', 'legal', 'financial', 'other')),
  description text check (description is null or length(description) <= 2000),
  file_path text not null check (split_part(file_path, '/', 1) = account_id::text),
  file_name text not null check (length(file_name) between 1 and 255),
  file_size bigint not null check (file_size between 1 and 10485760),
  mime_type text not null check (mime_type in (
    'application/pdf', 'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'text/plain', 'text/csv', 'image/jpeg', 'image/png')),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  uploaded_by uuid references public.users (id) on delete set null,
  status text not null default 'Pending Review' check (status in ('Pending Review', 'Approved', 'Final')),
  extraction_status text not null default 'queued' check (extraction_status in ('queued', 'done', 'failed', 'needs_text')),
  extraction_error text,
  text text,
  fields jsonb not null default '{}'::jsonb,
  -- Title and extracted text for the list's search; 'simple' so names and
  -- numbers are kept as written rather than stemmed as English words.
  search tsvector generated always as (
    setweight(to_tsvector('simple', coalesce(title, '')), 'A') ||
    setweight(to_tsvector('simple', left(coalesce(text, ''), 200000)), 'B')
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The same file twice in one account is the same document.
  unique (account_id, sha256),
  unique (file_path)
);
create index documents_account_id_created_at_idx on public.documents (account_id, created_at desc, id desc);
create index documents_account_id_status_idx on public.documents (account_id, status, created_at desc);
create index documents_search_idx on public.documents using gin (search);

create trigger documents_set_updated_at before update on public.documents
  for each row execute function private.set_updated_at();

-- Review moves forward only: Pending Review -> Approved -> Final (and an
-- approval may be taken back to review before it is final).
create or replace function private.guard_document_status() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status is distinct from old.status and not (
    (old.status = 'Pending Review' and new.status = 'Approved') or
    (old.status = 'Approved' and new.status in ('Final', 'Pending Review'))
  ) then
    raise exception 'A document cannot go from % to %', old.status, new.status using errcode = '23514';
  end if;
  if old.status = 'Final' and (new.title, new.type, new.description, new.fields) is distinct from (old.title, old.type, old.description, old.fields) then
    raise exception 'A final document cannot be changed' using errcode = '23514';
  end if;
  return new;
end;
$$;
create trigger documents_guard_status before update on public.documents
  for each row execute function private.guard_document_status();

alter table public.documents enable row level security;
create policy "staff read their account's documents" on public.documents
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add documents" on public.documents
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update documents" on public.documents
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete documents" on public.documents
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));
revoke truncate on public.documents from anon, authenticated;
-- New tables get the platform's default grants; visitors without a session read and write no documents.
revoke all on public.documents from anon;

-- document_uploaded, document_updated (status changes included, old and new
-- values), document_deleted. The extracted text is left out of the snapshot:
-- it is the file's content, not a change anyone made.
create or replace function private.audit_document() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) - 'text' - 'search' end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) - 'text' - 'search' end;
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'document_uploaded', 'document', new.id, null, v_new);
  elsif tg_op = 'UPDATE' then
    select * into v_changes from private.changed_values(v_old, v_new);
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, 'document_updated', 'document', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  elsif exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, 'document_deleted', 'document', old.id, v_old, null);
  end if;
  return null;
end;
$$;
create trigger documents_audit after insert or update or delete on public.documents
  for each row execute function private.audit_document();
