-- Compliance evidence files cannot be changed once uploaded (issue 37, second
-- pass; decision 064, 2026-11-26). The evidence bucket is shared with the quote
-- signatures, whose policies let writers overwrite and remove their account's
-- objects; compliance evidence now lives under its own prefix,
-- <account_id>/compliance/<uuid>/<file name>, and under it:
--  - writers (admins, members) only add objects; no policy lets any role of
--    the API update or remove one;
--  - a trigger refuses an update or a delete by any role (the service role and
--    the table's owner too), except a delete once the account is gone (its
--    deletion) or of an object no evidence row records (an upload whose row
--    was refused, cleaned up by the app at once).
-- New evidence rows must point under the prefix (rows from before keep theirs).

alter table public.evidence
  add constraint evidence_file_under_compliance_prefix check (split_part(file_path, '/', 2) = 'compliance') not valid;

-- The shared update and remove policies no longer reach the compliance prefix.
drop policy "account files: writers change" on storage.objects;
create policy "account files: writers change" on storage.objects for update to authenticated
  using (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and not (bucket_id = 'evidence' and (storage.foldername(name))[2] = 'compliance')
    and (select public.can_write_business())
  )
  with check (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and not (bucket_id = 'evidence' and (storage.foldername(name))[2] = 'compliance')
    and (select public.can_write_business())
  );
drop policy "account files: writers remove" on storage.objects;
create policy "account files: writers remove" on storage.objects for delete to authenticated
  using (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (
      not (bucket_id = 'evidence' and (storage.foldername(name))[2] = 'compliance')
      -- The app's clean-up of an upload whose evidence row was refused (the trigger checks it too).
      or not exists (select 1 from public.evidence e where e.file_path = storage.objects.name)
    )
    and (select public.can_write_business())
  );

create function private.compliance_evidence_object_locked() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function private.compliance_evidence_object_locked() from public, anon, authenticated;

create trigger compliance_evidence_objects_locked before update or delete on storage.objects
  for each row execute function private.compliance_evidence_object_locked();
