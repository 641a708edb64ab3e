-- The evidence and reports buckets take only the files the app makes for
-- them, as the documents bucket does (issue 30): without a list, any type was
-- stored and served back, HTML and SVG included. Storage checks the list on
-- every upload (and the local Storage on copies and moves into the bucket).
--  - evidence: what a signature or a check rests on: a PDF, its JSON
--    snapshot, an image (a drawn signature, a photo), plain text.
--  - reports: exported reports: PDF, CSV, spreadsheets, JSON, plain text.
-- Both private, 10 MB each. Inserted when missing (a project made before the
-- buckets existed), updated when present.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('evidence', 'evidence', false, 10485760, array[
    'application/pdf',
    'application/json',
    'image/png',
    'image/jpeg',
    'text/plain'
  ]),
  ('reports', 'reports', false, 10485760, array[
    'application/pdf',
    'text/csv',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/json',
    'text/plain'
  ])
on conflict (id) do update
  set public = false,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types,
      updated_at = now();
