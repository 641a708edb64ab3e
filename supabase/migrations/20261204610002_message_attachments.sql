-- Inbound mail's attachments in Storage (issue 35, decision 071): the private
-- bucket `helpdesk`, an object per attachment at
-- <account_id>/<conversation_id>/<uuid>/<file name>, and a row per attachment
-- on its message. Staff (admins, members, auditors) read both; clients,
-- suppliers, anonymous callers and other accounts nothing. Only the service
-- role (the Worker storing inbound mail) writes them.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('helpdesk', 'helpdesk', false, 10485760, null)
on conflict (id) do nothing;

create policy "helpdesk attachments: staff read" on storage.objects for select to authenticated
  using (
    bucket_id = 'helpdesk'
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.is_account_staff())
  );

create table public.message_attachments (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  conversation_id uuid not null,
  message_id uuid not null references public.messages (id) on delete cascade,
  file_name text not null check (length(file_name) between 1 and 200 and file_name !~ '[\x01-\x1f\x7f/\\]'),
  mime_type text not null check (length(mime_type) <= 130),
  size_bytes integer not null check (size_bytes between 0 and 26214400),
  -- The object's path in the helpdesk bucket: the account's folder first, as the Storage policy reads it.
  storage_path text not null unique check (split_part(storage_path, '/', 1) = account_id::text),
  created_at timestamptz not null default now(),
  foreign key (conversation_id, account_id) references public.conversations (id, account_id) on delete cascade
);
create index message_attachments_message_idx on public.message_attachments (message_id);
create index message_attachments_conversation_idx on public.message_attachments (conversation_id);

alter table public.message_attachments enable row level security;
revoke all on public.message_attachments from public, anon, authenticated, service_role;
grant select on public.message_attachments to authenticated;
grant all on public.message_attachments to service_role;
create policy "staff read their account's attachments" on public.message_attachments
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
