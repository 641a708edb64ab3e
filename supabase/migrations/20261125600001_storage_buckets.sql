-- Files: the private buckets documents, evidence and reports, and who may
-- touch which object. An object's path is <account_id>/<uuid>/<file name>: its
-- first folder is the account, and an account's people reach only their own
-- account's folder, by role as for tables (staff read, admins and members
-- write, clients and suppliers nothing). Plain inserts and policies on
-- Storage's own tables, as on any hosted Supabase project.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  -- The types the upload dialog accepts; the app also checks the bytes themselves.
  ('documents', 'documents', false, 10485760, array[
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'text/plain',
    'text/csv',
    'image/jpeg',
    'image/png'
  ]),
  ('evidence', 'evidence', false, 10485760, null),
  ('reports', 'reports', false, 10485760, null)
on conflict (id) do nothing;

-- An object of the caller's own account folder (the first folder, compared as
-- text: a folder that is not a uuid matches nobody instead of failing a cast) in
-- one of the three buckets. The account and role checks are wrapped in selects so
-- Postgres evaluates them once per statement, not once per object listed.
create policy "account files: staff read" on storage.objects for select to authenticated
  using (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.is_account_staff())
  );
create policy "account files: writers add" on storage.objects for insert to authenticated
  with check (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.can_write_business())
  );
create policy "account files: writers change" on storage.objects for update to authenticated
  using (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.can_write_business())
  )
  with check (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.can_write_business())
  );
create policy "account files: writers remove" on storage.objects for delete to authenticated
  using (
    bucket_id in ('documents', 'evidence', 'reports')
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.can_write_business())
  );
