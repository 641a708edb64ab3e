-- A project's storage set-up as hosted Supabase's docs write it: buckets as
-- rows, and policies on storage.objects keyed on the first folder = the user.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('private', 'private', false, 1000, array['text/plain', 'image/*']),
  ('public', 'public', true, null, null);

create policy "own folder: read" on storage.objects for select to authenticated
  using (bucket_id = 'private' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "own folder: write" on storage.objects for insert to authenticated
  with check (bucket_id = 'private' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "own folder: update" on storage.objects for update to authenticated
  using (bucket_id = 'private' and (storage.foldername(name))[1] = auth.uid()::text)
  with check (bucket_id = 'private' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "own folder: delete" on storage.objects for delete to authenticated
  using (bucket_id = 'private' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "public: upload" on storage.objects for insert to authenticated
  with check (bucket_id = 'public');
