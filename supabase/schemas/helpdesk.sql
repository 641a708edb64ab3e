-- The helpdesk: conversations with contacts, their messages, and the inbound mailbox mail arrives
-- at.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- ── private.inbound_mailboxes ──

create table private.inbound_mailboxes (
  account_id uuid not null,
  local_part text not null,
  secret text not null,
  created_at timestamp with time zone default now() not null,
  constraint inbound_mailboxes_pkey primary key (account_id),
  constraint inbound_mailboxes_local_part_key unique (local_part),
  constraint inbound_mailboxes_local_part_check check ((local_part ~ '^[a-z0-9][a-z0-9-]{2,40}$'::text)),
  constraint inbound_mailboxes_secret_check check ((length(secret) >= 32)),
  constraint inbound_mailboxes_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table private.inbound_mailboxes enable row level security;

revoke all on table private.inbound_mailboxes from public, anon, authenticated, service_role;

-- ── public.conversations ──

create table public.conversations (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  contact_id uuid not null,
  channel text default 'email'::text not null,
  subject text default ''::text not null,
  status text default 'open'::text not null,
  assignee_id uuid,
  priority text default 'normal'::text not null,
  reply_token text default replace((gen_random_uuid())::text, '-'::text, ''::text) not null,
  last_message_at timestamp with time zone default now() not null,
  first_responded_at timestamp with time zone,
  resolved_at timestamp with time zone,
  unread boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint conversations_pkey primary key (id),
  constraint conversations_id_account_id_key unique (id, account_id),
  constraint conversations_reply_token_key unique (reply_token),
  constraint conversations_channel_check check ((channel = any (array['email'::text, 'sms'::text, 'whatsapp'::text]))),
  constraint conversations_check check (((status = 'resolved'::text) = (resolved_at is not null))),
  constraint conversations_priority_check check ((priority = any (array['low'::text, 'normal'::text, 'high'::text, 'urgent'::text]))),
  constraint conversations_status_check check ((status = any (array['open'::text, 'pending'::text, 'resolved'::text]))),
  constraint conversations_subject_check check (((length(subject) <= 300) and (subject !~ '[\x01-\x1f\x7f]'::text))),
  constraint conversations_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint conversations_assignee_id_account_id_fkey foreign key (assignee_id, account_id) references public.users(id, account_id) on delete set null (assignee_id),
  constraint conversations_contact_id_account_id_fkey foreign key (contact_id, account_id) references public.contacts(id, account_id) on delete cascade
);
alter table public.conversations enable row level security;

create index conversations_account_created_idx on public.conversations using btree (account_id, created_at);
create index conversations_account_last_message_idx on public.conversations using btree (account_id, last_message_at desc, id desc);
create index conversations_account_status_last_message_idx on public.conversations using btree (account_id, status, last_message_at desc, id desc);
create index conversations_account_subject_trgm_idx on public.conversations using gin (account_id, subject extensions.gin_trgm_ops);
create index conversations_assignee_idx on public.conversations using btree (assignee_id, last_message_at desc);
create index conversations_contact_idx on public.conversations using btree (contact_id);

revoke all on table public.conversations from public, anon, authenticated, service_role;
grant select on table public.conversations to authenticated;
grant all on table public.conversations to service_role;
grant update (status, assignee_id, priority, unread) on table public.conversations to authenticated;

create or replace function private.audit_conversation()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_changes record;
  v_quiet text[] := array['updated_at', 'unread', 'last_message_at', 'first_responded_at', 'resolved_at'];
  v_old jsonb;
  v_new jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'conversation_created', 'conversation', new.id, null,
                                jsonb_build_object('subject', new.subject, 'channel', new.channel, 'contact_id', new.contact_id));
    return null;
  end if;
  -- Reading (unread) and the clock (last_message_at) are not changes a person makes to the record.
  select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
  v_new := v_changes.new_values - v_quiet;
  v_old := v_changes.old_values - v_quiet;
  if v_new <> '{}'::jsonb then
    perform private.write_audit(new.account_id,
                                case when new.status is distinct from old.status then 'conversation_' || new.status
                                     else 'conversation_updated' end,
                                'conversation', new.id, v_old, v_new);
  end if;
  if new.status = 'resolved' and old.status <> 'resolved' then
    perform private.emit_event(new.account_id, 'conversation_resolved', 'conversations', new.id,
                               jsonb_build_object('subject', new.subject, 'contact_id', new.contact_id));
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_conversation() from public, anon, authenticated, service_role;

create or replace function private.conversation_status_times()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.status = 'resolved' and old.status <> 'resolved' then
    new.resolved_at := now();
  elsif new.status <> 'resolved' then
    new.resolved_at := null;
  end if;
  return new;
end;
$function$;
revoke all on function private.conversation_status_times() from public, anon, authenticated, service_role;
grant execute on function private.conversation_status_times() to public;

create or replace function private.roll_conversation_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.created_at, old.first_responded_at) is not distinct from (new.account_id, new.created_at, new.first_responded_at) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update private.conversation_day_stats s
       set conversation_count = s.conversation_count - 1,
           responded_count = s.responded_count - case when old.first_responded_at is not null then 1 else 0 end,
           response_seconds = s.response_seconds - coalesce(extract(epoch from old.first_responded_at - old.created_at), 0)
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.conversation_day_stats as s (account_id, day, conversation_count, responded_count, response_seconds)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, 1,
            case when new.first_responded_at is not null then 1 else 0 end,
            coalesce(extract(epoch from new.first_responded_at - new.created_at), 0))
    on conflict (account_id, day) do update
      set conversation_count = s.conversation_count + 1,
          responded_count = s.responded_count + excluded.responded_count,
          response_seconds = s.response_seconds + excluded.response_seconds;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_conversation_day_stats() from public, anon, authenticated, service_role;
grant execute on function private.roll_conversation_day_stats() to public;

create or replace function public.inbox_conversations(p_query text default null::text, p_mine boolean default false)
 returns setof public.conversations
 language sql
 stable
 set search_path to ''
as $function$
  select v.* from public.conversations v
   where v.account_id = public.current_account_id()
     and (not coalesce(p_mine, false) or v.assignee_id = public.current_user_id())
     and (nullif(btrim(p_query), '') is null or v.id in (select s.id from public.search_conversations(btrim(p_query)) s))
$function$;
revoke all on function public.inbox_conversations(p_query text, p_mine boolean) from public, anon, authenticated, service_role;
grant execute on function public.inbox_conversations(p_query text, p_mine boolean) to authenticated, service_role;

create or replace function public.search_conversations(p_query text)
 returns setof public.conversations
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query
    select v.* from public.conversations v
     where v.account_id = v_account and v.subject ilike private.contains_pattern(p_query)
    union
    select v.* from public.conversations v
      join public.contacts c on c.id = v.contact_id
     where v.account_id = v_account and c.account_id = v_account
       and (c.name ilike private.contains_pattern(p_query) or c.email ilike private.contains_pattern(p_query));
end;
$function$;
revoke all on function public.search_conversations(p_query text) from public, anon, authenticated, service_role;
grant execute on function public.search_conversations(p_query text) to authenticated, service_role;

create trigger conversations_audit after insert or update on public.conversations for each row execute function private.audit_conversation();
create trigger conversations_roll_day_stats after insert or delete or update of account_id, created_at, first_responded_at on public.conversations for each row execute function private.roll_conversation_day_stats();
create trigger conversations_set_updated_at before update on public.conversations for each row execute function private.set_updated_at();
create trigger conversations_status_times before update of status on public.conversations for each row execute function private.conversation_status_times();

create policy "business writers work conversations" on public.conversations
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's conversations" on public.conversations
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.messages ──

create table public.messages (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  conversation_id uuid not null,
  direction text not null,
  body text not null,
  sender_name text,
  sender_email text,
  author_id uuid,
  external_id text,
  delivery_status text,
  delivery_error text,
  sent_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  sender_unverified boolean default false not null,
  constraint messages_pkey primary key (id),
  constraint messages_account_id_external_id_key unique (account_id, external_id),
  constraint messages_body_check check (((length(body) >= 1) and (length(body) <= 100000))),
  constraint messages_check check (((direction = 'outbound'::text) = (delivery_status is not null))),
  constraint messages_delivery_error_check check ((length(delivery_error) <= 2000)),
  constraint messages_delivery_status_check check ((delivery_status = any (array['queued'::text, 'sent'::text, 'delivered'::text, 'failed'::text]))),
  constraint messages_direction_check check ((direction = any (array['inbound'::text, 'outbound'::text, 'note'::text]))),
  constraint messages_external_id_check check ((((length(external_id) >= 1) and (length(external_id) <= 998)) and (external_id !~ '[\x01-\x1f\x7f]'::text))),
  constraint messages_sender_email_check check (((length(sender_email) <= 320) and (sender_email !~ '[\x01-\x1f\x7f]'::text))),
  constraint messages_sender_name_check check (((length(sender_name) <= 200) and (sender_name !~ '[\x01-\x1f\x7f]'::text))),
  constraint messages_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint messages_author_id_account_id_fkey foreign key (author_id, account_id) references public.users(id, account_id) on delete set null (author_id),
  constraint messages_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade
);
alter table public.messages enable row level security;

create index messages_author_idx on public.messages using btree (author_id);
create index messages_conversation_created_idx on public.messages using btree (conversation_id, created_at, id);

revoke all on table public.messages from public, anon, authenticated, service_role;
grant select on table public.messages to authenticated;
grant all on table public.messages to service_role;

create or replace function private.audit_message()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.write_audit(new.account_id,
                              case new.direction when 'inbound' then 'message_received' when 'outbound' then 'reply_sent' else 'note_added' end,
                              'conversation', new.conversation_id, null,
                              jsonb_build_object('message_id', new.id, 'sender_email', new.sender_email, 'external_id', new.external_id));
  return null;
end;
$function$;
revoke all on function private.audit_message() from public, anon, authenticated, service_role;

create or replace function public.reply_to_conversation(p_conversation_id uuid, p_body text, p_note boolean default false)
 returns public.messages
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_conversation public.conversations;
  v_body text := btrim(coalesce(p_body, ''));
  v_user public.users;
  v_message public.messages;
begin
  if public.current_account_id() is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can reply' using errcode = '42501';
  end if;
  select * into v_conversation from public.conversations c
   where c.id = p_conversation_id and c.account_id = public.current_account_id() for update;
  if not found then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  if v_body = '' then
    raise exception 'Write a message first' using errcode = '22023';
  end if;
  if length(v_body) > 20000 then
    raise exception 'A message can be at most 20,000 characters' using errcode = '22023';
  end if;
  select * into v_user from public.users u where u.id = public.current_user_id();
  insert into public.messages (account_id, conversation_id, direction, body, sender_name, author_id, delivery_status, delivery_error)
  values (v_conversation.account_id, v_conversation.id, case when p_note then 'note' else 'outbound' end, v_body,
          private.header_text(concat_ws(' ', v_user.first_name, v_user.last_name), 200), v_user.id,
          case when p_note then null when v_conversation.channel = 'email' then 'queued' else 'failed' end,
          case when not p_note and v_conversation.channel <> 'email' then 'No SMS provider configured' end)
  returning * into v_message;
  if not p_note then
    update public.conversations c
       set last_message_at = now(), first_responded_at = coalesce(c.first_responded_at, now()), unread = false
     where c.id = v_conversation.id;
    if v_conversation.channel = 'email' then
      perform private.enqueue_job('helpdesk.send_reply', v_conversation.account_id,
                                  jsonb_build_object('message_id', v_message.id),
                                  'helpdesk.send_reply:' || v_message.id, v_message.id);
    end if;
  end if;
  return v_message;
end;
$function$;
revoke all on function public.reply_to_conversation(p_conversation_id uuid, p_body text, p_note boolean) from public, anon, authenticated, service_role;
grant execute on function public.reply_to_conversation(p_conversation_id uuid, p_body text, p_note boolean) to authenticated, service_role;

create trigger messages_audit after insert on public.messages for each row execute function private.audit_message();

create policy "staff read their account's messages" on public.messages
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.message_attachments ──

create table public.message_attachments (
  id uuid default gen_random_uuid() not null,
  account_id uuid not null,
  conversation_id uuid not null,
  message_id uuid not null,
  file_name text not null,
  mime_type text not null,
  size_bytes integer not null,
  storage_path text not null,
  created_at timestamp with time zone default now() not null,
  constraint message_attachments_pkey primary key (id),
  constraint message_attachments_storage_path_key unique (storage_path),
  constraint message_attachments_check check ((split_part(storage_path, '/'::text, 1) = (account_id)::text)),
  constraint message_attachments_file_name_check check ((((length(file_name) >= 1) and (length(file_name) <= 200)) and (file_name !~ '[\x01-\x1f\x7f/\\]'::text))),
  constraint message_attachments_mime_type_check check ((length(mime_type) <= 130)),
  constraint message_attachments_size_bytes_check check (((size_bytes >= 0) and (size_bytes <= 26214400))),
  constraint message_attachments_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint message_attachments_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade,
  constraint message_attachments_message_id_fkey foreign key (message_id) references public.messages(id) on delete cascade
);
alter table public.message_attachments enable row level security;

create index message_attachments_conversation_idx on public.message_attachments using btree (conversation_id);
create index message_attachments_message_idx on public.message_attachments using btree (message_id);

revoke all on table public.message_attachments from public, anon, authenticated, service_role;
grant select on table public.message_attachments to authenticated;
grant all on table public.message_attachments to service_role;

create policy "staff read their account's attachments" on public.message_attachments
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── functions ──

create or replace function private.header_text(p_value text, p_max integer)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select nullif(left(btrim(regexp_replace(coalesce(p_value, ''), '[\x01-\x1f\x7f]+', ' ', 'g')), p_max), '')
$function$;
revoke all on function private.header_text(p_value text, p_max integer) from public, anon, authenticated, service_role;

create or replace function public.inbound_mailbox()
 returns table(local_part text, secret text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or not public.is_account_admin() then
    raise exception 'Only the account''s admins can read its inbound mailbox' using errcode = '42501';
  end if;
  insert into private.inbound_mailboxes (account_id, local_part, secret)
  values (v_account, 'in-' || left(replace(gen_random_uuid()::text, '-', ''), 16),
          replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
  on conflict (account_id) do nothing;
  return query select m.local_part, m.secret from private.inbound_mailboxes m where m.account_id = v_account;
end;
$function$;
revoke all on function public.inbound_mailbox() from public, anon, authenticated, service_role;
grant execute on function public.inbound_mailbox() to authenticated, service_role;

create or replace function public.inbound_mailbox_of(p_account_id uuid)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select m.local_part from private.inbound_mailboxes m where m.account_id = p_account_id
$function$;
revoke all on function public.inbound_mailbox_of(p_account_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.inbound_mailbox_of(p_account_id uuid) to service_role;

create or replace function public.inbound_secret(p_to text)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select m.secret from private.inbound_mailboxes m
   where m.local_part = split_part(split_part(lower(btrim(p_to)), '@', 1), '+', 1)
$function$;
revoke all on function public.inbound_secret(p_to text) from public, anon, authenticated, service_role;
grant execute on function public.inbound_secret(p_to text) to service_role;

create or replace function public.receive_email(p_to text, p_from_email text, p_from_name text, p_subject text, p_body text, p_message_id text default null::text, p_references text[] default '{}'::text[])
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_local text := split_part(lower(btrim(coalesce(p_to, ''))), '@', 1);
  v_token text := nullif(split_part(v_local, '+', 2), '');
  v_account uuid;
  v_from text := lower(btrim(coalesce(p_from_email, '')));
  v_name text := private.header_text(p_from_name, 200);
  v_subject text := coalesce(private.header_text(p_subject, 300), '(no subject)');
  v_body text := left(btrim(coalesce(p_body, '')), 100000);
  v_message_id text := private.header_text(p_message_id, 998);
  v_contact uuid;
  v_conversation uuid;
  v_message uuid;
begin
  select m.account_id into v_account from private.inbound_mailboxes m where m.local_part = split_part(v_local, '+', 1);
  if v_account is null then
    raise exception 'No mailbox for this address' using errcode = 'P0002';
  end if;
  if v_from !~ '^[^][[:space:]@<>(),;:"\\]+@[^][[:space:]@<>(),;:"\\]+\.[^][[:space:]@<>(),;:"\\.]+$' or length(v_from) > 320 then
    raise exception 'The sender''s address is not an email address' using errcode = '22023';
  end if;
  if v_body = '' then
    v_body := '(no text)';
  end if;

  -- A replay waits for the first delivery's transaction, then finds its message.
  if v_message_id is not null then
    perform pg_advisory_xact_lock(hashtextextended(v_account::text || v_message_id, 0));
    select m.id, m.conversation_id into v_message, v_conversation
      from public.messages m where m.account_id = v_account and m.external_id = v_message_id;
    if found then
      return jsonb_build_object('conversation_id', v_conversation, 'message_id', v_message, 'duplicate', true);
    end if;
  end if;

  select c.id into v_contact from public.contacts c
   where c.account_id = v_account and lower(c.email) = v_from
   order by c.created_at, c.id limit 1;
  if v_contact is null then
    insert into public.contacts (account_id, name, email, notes)
    values (v_account, coalesce(v_name, split_part(v_from, '@', 1)), v_from, 'Wrote to the helpdesk')
    returning id into v_contact;
  end if;

  if v_token is not null then
    select c.id into v_conversation from public.conversations c
     where c.account_id = v_account and c.reply_token = v_token;
  end if;
  if v_conversation is null and coalesce(array_length(p_references, 1), 0) > 0 then
    select m.conversation_id into v_conversation from public.messages m
     where m.account_id = v_account
       and m.external_id = any (array(select private.header_text(r, 998) from unnest(p_references[1:50]) r))
     order by m.created_at desc limit 1;
  end if;
  if v_conversation is null then
    insert into public.conversations (account_id, contact_id, channel, subject)
    values (v_account, v_contact, 'email', v_subject)
    returning id into v_conversation;
  end if;

  insert into public.messages (account_id, conversation_id, direction, body, sender_name, sender_email, external_id)
  values (v_account, v_conversation, 'inbound', v_body, v_name, v_from, v_message_id)
  returning id into v_message;
  update public.conversations c
     set last_message_at = now(), unread = true, status = 'open'
   where c.id = v_conversation;
  perform private.emit_event(v_account, 'message_received', 'conversations', v_conversation,
                             jsonb_build_object('message_id', v_message, 'from', v_from, 'subject', v_subject));
  return jsonb_build_object('conversation_id', v_conversation, 'message_id', v_message, 'duplicate', false);
end;
$function$;
revoke all on function public.receive_email(p_to text, p_from_email text, p_from_name text, p_subject text, p_body text, p_message_id text, p_references text[]) from public, anon, authenticated, service_role;
grant execute on function public.receive_email(p_to text, p_from_email text, p_from_name text, p_subject text, p_body text, p_message_id text, p_references text[]) to service_role;
