-- doc2data, extraction and review (decision 027): an upload queues its
-- extraction as a job in the same transaction; the runner writes the text and
-- the fields it found; the screen's cards come from one summary; a document's
-- history is readable by the account's staff like a lead's or a client's.

-- Images have no text layer, and OCR runs only in a browser (tesseract.js
-- cannot run in a Worker): an image starts as needs_text, waiting for its text
-- to be pasted. Everything else starts queued.
create or replace function private.document_extraction_start() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.extraction_status := case when new.mime_type in ('image/jpeg', 'image/png') then 'needs_text' else 'queued' end;
  new.extraction_error := null;
  return new;
end;
$$;
create trigger documents_extraction_start before insert on public.documents
  for each row execute function private.document_extraction_start();

-- Queues the extraction whenever a document becomes queued: on upload, and
-- when a person pastes the text of a document that needed it. The key names
-- the moment, so each request is one job and a repeat of the same one is not.
create or replace function private.queue_document_extraction() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.extraction_status = 'queued' and (tg_op = 'INSERT' or old.extraction_status <> 'queued') then
    perform private.enqueue_job('documents.extract', new.account_id, jsonb_build_object('document_id', new.id),
      'documents.extract:' || new.id || ':' || to_char(clock_timestamp(), 'YYYYMMDDHH24MISSUS'), new.id);
  end if;
  if tg_op = 'UPDATE' and new.extraction_status = 'done' and old.extraction_status <> 'done' then
    perform private.emit_event(new.account_id, 'document_extracted', 'document', new.id,
      jsonb_build_object('title', new.title, 'kind', new.fields -> 'kind' ->> 'value'));
  end if;
  return null;
end;
$$;
revoke all on function private.queue_document_extraction() from public;
create trigger documents_queue_extraction after insert or update of extraction_status on public.documents
  for each row execute function private.queue_document_extraction();

-- The audit rows of a document. Extraction is the system's work, not an edit:
-- its row says how it went (document_extracted, document_extraction_failed,
-- document_needs_text, document_extraction_queued) without the text or the
-- fields found. A person's correction of the fields is document_reviewed, with
-- the fields before and after; other edits stay document_updated.
create or replace function private.audit_document() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) - 'text' - 'search' end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) - 'text' - 'search' end;
  v_changes record;
  v_action text := 'document_updated';
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'document_uploaded', 'document', new.id, null, v_new - 'fields');
  elsif tg_op = 'UPDATE' then
    if new.extraction_status is distinct from old.extraction_status then
      v_action := case new.extraction_status
        when 'done' then 'document_extracted'
        when 'failed' then 'document_extraction_failed'
        when 'needs_text' then 'document_needs_text'
        else 'document_extraction_queued' end;
      v_old := v_old - 'fields';
      v_new := v_new - 'fields';
    elsif new.fields is distinct from old.fields then
      v_action := 'document_reviewed';
    end if;
    select * into v_changes from private.changed_values(v_old, v_new);
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_action, 'document', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  elsif exists (select 1 from public.accounts a where a.id = old.account_id) then
    perform private.write_audit(old.account_id, 'document_deleted', 'document', old.id, v_old - 'fields', null);
  end if;
  return null;
end;
$$;

-- The Documents screen's four cards, over the rows the caller may read.
create or replace function public.document_summary()
returns table (total_count bigint, processed_count bigint, pending_review_count bigint, storage_bytes bigint)
language sql stable
security invoker
set search_path = ''
as $$
  select count(*),
         count(*) filter (where d.extraction_status = 'done'),
         count(*) filter (where d.status = 'Pending Review'),
         coalesce(sum(d.file_size), 0)::bigint
    from public.documents d
   where d.account_id = public.current_account_id()
$$;
revoke all on function public.document_summary() from public, anon;
grant execute on function public.document_summary() to authenticated;

-- A record's history, documents included (the rest as 20261125100001 has it).
create or replace function public.record_history(p_resource_type text, p_resource_id uuid)
returns table (id uuid, action text, created_at timestamptz, actor_name text, old_values jsonb, new_values jsonb)
language sql stable
security definer
set search_path = ''
as $$
  select a.id, a.action, a.created_at,
         coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email),
         a.old_values, a.new_values
    from public.audit_logs a
    left join public.users u on u.id = a.user_id
   where a.account_id = public.current_account_id()
     and public.is_account_staff()
     and p_resource_type in ('lead', 'contact', 'document')
     and a.resource_type = p_resource_type
     and a.resource_id = p_resource_id
   order by a.created_at desc, a.id desc
   limit 100
$$;
revoke all on function public.record_history(text, uuid) from public, anon;
grant execute on function public.record_history(text, uuid) to authenticated;
