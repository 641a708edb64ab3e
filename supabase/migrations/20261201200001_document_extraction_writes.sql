-- Issue 30 (poison files): what extraction writes is written by extraction.
-- A member could PATCH documents.extraction_status back to 'queued' as often
-- as they liked, and every PATCH queued another run of a file that stalled
-- the Worker for 20 s; text, fields found, the uploader and the file's
-- identity (path, name, size, type, hash) were as open.
--
-- - API roles insert and update only the columns a person edits: the title,
--   type and description, the review status and the reviewed fields (and a
--   new row's file columns, checked by the upload). The uploader of a new row
--   is the caller, whatever the row says. The rest is the job's (service role).
-- - A person asks for extraction through two functions, for the account's
--   admins and members: paste_document_text (the text of a document that had
--   none: an image, a scan, a file too complex to read) and
--   rerun_document_extraction (a document whose extraction failed, tried
--   again). Each checks the document's account and state, is limited in the
--   database (5 an hour per document, 60 an hour per account; past them
--   SQLSTATE PT429, which PostgREST answers as HTTP 429) and leaves an audit
--   row.
-- - A file too complex to read (the job's budget, decision 027 amended) is
--   marked extraction_too_complex: it is never read again; pasting its text
--   is the way on.

alter table public.documents add column extraction_too_complex boolean not null default false;

revoke insert, update on public.documents from anon, authenticated;
grant insert (account_id, title, type, description, file_path, file_name, file_size, mime_type, sha256)
  on public.documents to authenticated;
grant update (title, type, description, status, fields, updated_at) on public.documents to authenticated;

-- A new row starts as extraction left it: nothing found yet, uploaded by the caller
-- (the service role, which has no caller, may name the uploader).
create or replace function private.document_extraction_start() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.extraction_status := case when new.mime_type in ('image/jpeg', 'image/png') then 'needs_text' else 'queued' end;
  new.extraction_error := null;
  new.extraction_too_complex := false;
  new.uploaded_by := coalesce(public.current_user_id(), new.uploaded_by);
  return new;
end;
$$;

-- The requests of the last hour, for the limits (the functions below only).
create table private.document_extraction_requests (
  id bigint generated always as identity primary key,
  account_id uuid not null references public.accounts (id) on delete cascade,
  document_id uuid not null,
  user_id uuid,
  kind text not null check (kind in ('paste_text', 'rerun')),
  created_at timestamptz not null default now()
);
create index document_extraction_requests_document_idx on private.document_extraction_requests (document_id, created_at);
create index document_extraction_requests_account_idx on private.document_extraction_requests (account_id, created_at);
alter table private.document_extraction_requests enable row level security;
revoke all on private.document_extraction_requests from public;

-- The caller's document, locked, once the caller may ask for its extraction
-- and the limits allow one more request (which is counted); else the error a
-- person reads. Requests older than an hour are forgotten here.
create or replace function private.document_extraction_request(p_document_id uuid, p_kind text) returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := public.current_account_id();
  v_document public.documents;
  v_oldest timestamptz;
begin
  if v_account_id is null or not coalesce(public.can_write_business(), false) then
    raise exception 'Only the account''s admins and members can extract a document''s fields' using errcode = '42501';
  end if;
  select * into v_document from public.documents d
   where d.id = p_document_id and d.account_id = v_account_id for update;
  if not found then
    raise exception 'Document not found' using errcode = 'P0002';
  end if;
  if v_document.status = 'Final' then
    raise exception 'This document is final: its fields can no longer change.' using errcode = '22023';
  end if;

  -- One request of the account at a time past this point, so two at once cannot both take the last one.
  perform pg_advisory_xact_lock(hashtextextended('document_extraction_request:' || v_account_id, 0));
  delete from private.document_extraction_requests r where r.created_at < now() - interval '1 hour';
  select min(r.created_at) into v_oldest from (
    select r.created_at from private.document_extraction_requests r
     where r.document_id = p_document_id order by r.created_at desc limit 5) r
   having count(*) >= 5;
  if v_oldest is not null then
    raise exception 'This document''s fields were extracted too often: try again in % minutes.',
      greatest(1, ceil(extract(epoch from v_oldest + interval '1 hour' - now()) / 60)::int) using errcode = 'PT429';
  end if;
  select min(r.created_at) into v_oldest from (
    select r.created_at from private.document_extraction_requests r
     where r.account_id = v_account_id order by r.created_at desc limit 60) r
   having count(*) >= 60;
  if v_oldest is not null then
    raise exception 'Too many extractions in this account: try again in % minutes.',
      greatest(1, ceil(extract(epoch from v_oldest + interval '1 hour' - now()) / 60)::int) using errcode = 'PT429';
  end if;
  insert into private.document_extraction_requests (account_id, document_id, user_id, kind)
  values (v_account_id, p_document_id, public.current_user_id(), p_kind);
  return v_document;
end;
$$;
revoke all on function private.document_extraction_request(uuid, text) from public;

-- Paste text: the text of a document that had none (needs_text) or whose
-- file could not be read (failed); its fields are then found in it by the job.
create or replace function public.paste_document_text(p_document_id uuid, p_text text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_document public.documents;
  v_text text := btrim(coalesce(p_text, ''), E' \t\r\n');
begin
  if v_text = '' then
    raise exception 'Paste the text of the document' using errcode = '22023';
  end if;
  if length(v_text) > 200000 then
    raise exception 'The text is at most 200000 characters' using errcode = '22023';
  end if;
  v_document := private.document_extraction_request(p_document_id, 'paste_text');
  if v_document.extraction_status not in ('needs_text', 'failed') then
    raise exception 'This document already has its text: correct its fields instead.' using errcode = '22023';
  end if;
  update public.documents
     set text = v_text, extraction_status = 'queued', extraction_error = null
   where id = v_document.id;
  perform private.write_audit(v_document.account_id, 'document_text_pasted', 'document', v_document.id,
    jsonb_build_object('extraction_status', v_document.extraction_status),
    jsonb_build_object('characters', length(v_text)));
end;
$$;
revoke all on function public.paste_document_text(uuid, text) from public, anon;
grant execute on function public.paste_document_text(uuid, text) to authenticated;

-- Re-run extraction: a document whose extraction failed (its file out of
-- reach, say) is queued again; its text, when it has one, is read again, else
-- its file. A file too complex to read is not read again. (An extracted
-- document is not: its fields may carry a person's corrections.)
create or replace function public.rerun_document_extraction(p_document_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_document public.documents := private.document_extraction_request(p_document_id, 'rerun');
begin
  if v_document.extraction_status <> 'failed' then
    raise exception 'Only a document whose extraction failed can be extracted again.' using errcode = '22023';
  end if;
  if v_document.extraction_too_complex and coalesce(btrim(v_document.text), '') = '' then
    raise exception 'The file is too complex to read: paste its text to extract its fields.' using errcode = '22023';
  end if;
  update public.documents
     set extraction_status = 'queued', extraction_error = null
   where id = v_document.id;
  perform private.write_audit(v_document.account_id, 'document_extraction_rerun', 'document', v_document.id,
    jsonb_build_object('extraction_status', v_document.extraction_status), null);
end;
$$;
revoke all on function public.rerun_document_extraction(uuid) from public, anon;
grant execute on function public.rerun_document_extraction(uuid) to authenticated;
