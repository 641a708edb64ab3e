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

create or replace function private.audit_conversation()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_changes record;
  v_quiet text[] := array['updated_at', 'unread', 'last_message_at', 'first_responded_at', 'resolved_at',
                          'first_response_due_at', 'resolution_due_at', 'sla_due_at', 'sla_started_at',
                          'sla_paused_minutes', 'sla_paused_at', 'next_response_started_at', 'next_response_due_at',
                          'next_response_paused_minutes', 'next_responses_met', 'next_responses_missed'];
  v_old jsonb;
  v_new jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'conversation_created', 'conversation', new.id, null,
                                jsonb_build_object('subject', new.subject, 'channel', new.channel, 'contact_id', new.contact_id));
    return null;
  end if;
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

create or replace function private.conversation_sla()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_policy record;
  v_paused integer;
begin
  -- Recomputed when what they depend on changes, or when the settings changed (save_helpdesk_sla's flag).
  if tg_op = 'INSERT' or new.priority is distinct from old.priority or new.status is distinct from old.status
     or new.next_response_started_at is distinct from old.next_response_started_at
     or current_setting('opshub.sla_recompute', true) = 'on' then
    select * into v_policy from private.helpdesk_policy(new.account_id, new.priority);
    if tg_op = 'INSERT' then
      new.sla_started_at := coalesce(new.sla_started_at, new.created_at);
    elsif old.status = 'resolved' and new.status <> 'resolved' then
      -- Reopened: the resolution clock starts again.
      new.sla_started_at := now();
      new.sla_paused_minutes := 0;
      new.sla_paused_at := null;
    end if;
    -- A new wait for our next response (or none) starts with nothing paused.
    if tg_op = 'INSERT' or new.next_response_started_at is distinct from old.next_response_started_at then
      new.next_response_paused_minutes := 0;
    end if;
    if new.status = 'pending' and new.sla_paused_at is null then
      new.sla_paused_at := now();
    elsif new.status <> 'pending' and new.sla_paused_at is not null then
      v_paused := public.business_minutes_between(
        new.sla_paused_at, now(), v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
      new.sla_paused_minutes := new.sla_paused_minutes + v_paused;
      if new.next_response_started_at is not null then
        new.next_response_paused_minutes := new.next_response_paused_minutes + case
          when new.next_response_started_at <= new.sla_paused_at then v_paused
          else public.business_minutes_between(new.next_response_started_at, now(), v_policy.timezone, v_policy.days,
                                               v_policy.opens_at, v_policy.closes_at, v_policy.holidays)
        end;
      end if;
      new.sla_paused_at := null;
    end if;
    new.first_response_due_at := public.business_time_add(new.created_at, v_policy.first_response_minutes,
      v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
    new.resolution_due_at := public.business_time_add(new.sla_started_at, v_policy.resolution_minutes + new.sla_paused_minutes,
      v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays);
    -- Next response (decision 083): from the customer's message that nobody has answered yet, plus its pauses.
    new.next_response_due_at := case when new.next_response_started_at is null then null else
      public.business_time_add(new.next_response_started_at,
        private.helpdesk_next_response_minutes(new.account_id, new.priority) + new.next_response_paused_minutes,
        v_policy.timezone, v_policy.days, v_policy.opens_at, v_policy.closes_at, v_policy.holidays) end;
  end if;
  new.sla_due_at := case
    when new.status <> 'open' then null
    when new.first_responded_at is null then least(new.first_response_due_at, new.resolution_due_at)
    else least(new.resolution_due_at, new.next_response_due_at)
  end;
  return new;
end;
$function$;
revoke all on function private.conversation_sla() from public, anon, authenticated, service_role;

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

create or replace function private.queue_csat_request()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.status = 'resolved' and old.status <> 'resolved' and new.channel = 'email' and new.merged_into_id is null then
    perform private.enqueue_job('helpdesk.csat_request', new.account_id, jsonb_build_object('conversation_id', new.id),
                                'helpdesk.csat_request:' || new.id, new.id);
  end if;
  return null;
end;
$function$;
revoke all on function private.queue_csat_request() from public, anon, authenticated, service_role;

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

create or replace function private.roll_helpdesk_sla_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.first_response_due_at, old.first_responded_at, old.resolution_due_at, old.resolved_at, old.merged_into_id)
         is not distinct from
         (new.account_id, new.first_response_due_at, new.first_responded_at, new.resolution_due_at, new.resolved_at, new.merged_into_id) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.merged_into_id is null then
    if old.first_responded_at <= old.first_response_due_at then
      perform private.bump_helpdesk_day_stats(old.account_id, old.first_response_due_at, -1, 0, 0, 0);
    end if;
    if old.resolved_at <= old.resolution_due_at then
      perform private.bump_helpdesk_day_stats(old.account_id, old.resolution_due_at, -1, 0, 0, 0);
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.merged_into_id is null then
    if new.first_responded_at <= new.first_response_due_at then
      perform private.bump_helpdesk_day_stats(new.account_id, new.first_response_due_at, 1, 0, 0, 0);
    end if;
    if new.resolved_at <= new.resolution_due_at then
      perform private.bump_helpdesk_day_stats(new.account_id, new.resolution_due_at, 1, 0, 0, 0);
    end if;
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_helpdesk_sla_day_stats() from public, anon, authenticated, service_role;

create or replace function private.sync_conversation_tags()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE' and new.tags = old.tags and new.merged_into_id is not distinct from old.merged_into_id then
    if new.last_message_at is distinct from old.last_message_at then
      update public.conversation_tags set last_message_at = new.last_message_at where conversation_id = new.id;
    end if;
    return null;
  end if;
  if tg_op = 'UPDATE' then
    delete from public.conversation_tags where conversation_id = new.id;
  end if;
  if new.merged_into_id is null then
    insert into public.conversation_tags (account_id, conversation_id, tag, last_message_at)
    select distinct new.account_id, new.id, t, new.last_message_at from unnest(new.tags) t
    on conflict do nothing;
  end if;
  return null;
end;
$function$;
revoke all on function private.sync_conversation_tags() from public, anon, authenticated, service_role;

create or replace function public.merge_conversation(p_source uuid, p_target uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_source public.conversations;
  v_target public.conversations;
  v_moved integer;
begin
  if v_account is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can merge conversations' using errcode = '42501';
  end if;
  if p_source = p_target then
    raise exception 'Choose another conversation to merge into' using errcode = '22023';
  end if;
  -- Both locked, in a fixed order, so two merges at once cannot deadlock or cross.
  perform 1 from public.conversations c where c.id in (p_source, p_target) and c.account_id = v_account order by c.id for update;
  select * into v_source from public.conversations c where c.id = p_source and c.account_id = v_account;
  select * into v_target from public.conversations c where c.id = p_target and c.account_id = v_account;
  if v_source.id is null or v_target.id is null then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  if v_source.merged_into_id is not null or v_target.merged_into_id is not null then
    raise exception 'That conversation was merged already' using errcode = '22023';
  end if;
  if v_source.contact_id <> v_target.contact_id then
    raise exception 'Only conversations of the same contact can be merged' using errcode = '22023';
  end if;
  update public.messages m set conversation_id = p_target where m.conversation_id = p_source and m.account_id = v_account;
  get diagnostics v_moved = row_count;
  update public.message_attachments a set conversation_id = p_target where a.conversation_id = p_source and a.account_id = v_account;
  update public.conversations c
     set merged_into_id = p_target, status = 'resolved'
   where c.id = p_source;
  update public.conversations c
     set last_message_at = greatest(c.last_message_at, v_source.last_message_at),
         tags = (select coalesce(array_agg(distinct t order by t), '{}') from unnest(c.tags || v_source.tags) t),
         unread = c.unread or v_source.unread
   where c.id = p_target;
  perform private.write_audit(v_account, 'conversation_merged', 'conversation', p_source, null,
                              jsonb_build_object('merged_into_id', p_target, 'messages_moved', v_moved));
  perform private.write_audit(v_account, 'conversation_merged_in', 'conversation', p_target, null,
                              jsonb_build_object('merged_from_id', p_source, 'messages_moved', v_moved));
end;
$function$;
revoke all on function public.merge_conversation(p_source uuid, p_target uuid) from public, anon, authenticated, service_role;
grant execute on function public.merge_conversation(p_source uuid, p_target uuid) to authenticated, service_role;

create or replace function public.start_conversation(p_contact_id uuid, p_channel text, p_subject text, p_body text)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_contact public.contacts;
  v_subject text := private.header_text(p_subject, 300);
  v_conversation uuid;
begin
  if v_account is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members can start a conversation' using errcode = '42501';
  end if;
  select * into v_contact from public.contacts c where c.id = p_contact_id and c.account_id = v_account;
  if not found then
    raise exception 'Choose a contact' using errcode = '22023';
  end if;
  if p_channel is null or p_channel not in ('email', 'sms', 'whatsapp') then
    raise exception 'Choose a channel' using errcode = '22023';
  end if;
  if p_channel = 'email' then
    if v_contact.email like '%.invalid' then
      raise exception 'This contact has no email address' using errcode = '22023';
    end if;
    if v_subject is null then
      raise exception 'Write a subject' using errcode = '22023';
    end if;
  elsif coalesce(regexp_replace(v_contact.phone, '\D', '', 'g'), '') !~ '^[0-9]{5,16}$' then
    raise exception 'This contact has no phone number' using errcode = '22023';
  end if;
  insert into public.conversations (account_id, contact_id, channel, subject, unread)
  values (v_account, v_contact.id, p_channel,
          coalesce(v_subject, case p_channel when 'sms' then 'SMS to ' else 'WhatsApp to ' end || private.header_text(v_contact.name, 200)),
          false)
  returning id into v_conversation;
  perform public.reply_to_conversation(v_conversation, p_body, false);
  return v_conversation;
end;
$function$;
revoke all on function public.start_conversation(p_contact_id uuid, p_channel text, p_subject text, p_body text) from public, anon, authenticated, service_role;
grant execute on function public.start_conversation(p_contact_id uuid, p_channel text, p_subject text, p_body text) to authenticated, service_role;

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
  sender_phone text,
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
  constraint messages_sender_phone_check check ((sender_phone ~ '^\+[0-9]{5,16}$'::text)),
  constraint messages_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint messages_author_id_account_id_fkey foreign key (author_id, account_id) references public.users(id, account_id) on delete set null (author_id)
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

create or replace function private.message_next_response()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.direction = 'inbound' then
    update public.conversations c set next_response_started_at = new.created_at
     where c.id = new.conversation_id and c.account_id = new.account_id
       and c.first_responded_at is not null and c.next_response_started_at is null;
  elsif new.direction = 'outbound' then
    -- SET reads the row as it was: the wait's deadline before the trigger clears it.
    update public.conversations c
       set next_responses_met = c.next_responses_met + v.met::integer,
           next_responses_missed = c.next_responses_missed + (not v.met)::integer,
           next_response_started_at = null
      from (select x.id,
                   coalesce(case when x.status = 'pending' and x.sla_paused_at is not null
                                 then greatest(x.sla_paused_at, x.next_response_started_at)
                                 else new.created_at end <= x.next_response_due_at, true) as met
              from public.conversations x where x.id = new.conversation_id) v
     where c.id = v.id and c.account_id = new.account_id and c.next_response_started_at is not null;
  end if;
  return null;
end;
$function$;
revoke all on function private.message_next_response() from public, anon, authenticated, service_role;

create or replace function private.queue_outbound_sms()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.direction = 'outbound' and new.delivery_status = 'queued'
     and exists (select 1 from public.conversations c where c.id = new.conversation_id and c.channel in ('sms', 'whatsapp')) then
    perform private.enqueue_job('helpdesk.send_sms', new.account_id, jsonb_build_object('message_id', new.id),
                                'helpdesk.send_sms:' || new.id, new.id);
  end if;
  return null;
end;
$function$;
revoke all on function private.queue_outbound_sms() from public, anon, authenticated, service_role;

create or replace function private.route_outbound_sms()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.direction = 'outbound'
     and exists (select 1 from public.conversations c where c.id = new.conversation_id and c.channel in ('sms', 'whatsapp')) then
    if exists (select 1 from public.integrations i where i.account_id = new.account_id and i.type = 'sms' and i.is_active) then
      new.delivery_status := 'queued';
      new.delivery_error := null;
    else
      new.delivery_status := 'failed';
      new.delivery_error := 'No SMS provider configured';
    end if;
  end if;
  return new;
end;
$function$;
revoke all on function private.route_outbound_sms() from public, anon, authenticated, service_role;

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
create trigger messages_next_response after insert on public.messages for each row execute function private.message_next_response();
create trigger messages_queue_outbound_sms after insert on public.messages for each row execute function private.queue_outbound_sms();
create trigger messages_route_outbound_sms before insert on public.messages for each row execute function private.route_outbound_sms();

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
  size_bytes integer,
  storage_path text,
  created_at timestamp with time zone default now() not null,
  media_url text,
  media_index smallint,
  fetch_status text default 'stored'::text not null,
  fetch_error text,
  constraint message_attachments_pkey primary key (id),
  constraint message_attachments_storage_path_key unique (storage_path),
  constraint message_attachments_check check ((split_part(storage_path, '/'::text, 1) = (account_id)::text)),
  constraint message_attachments_fetch_error_check check ((length(fetch_error) <= 500)),
  constraint message_attachments_fetch_status_check check ((fetch_status = any (array['pending'::text, 'stored'::text, 'failed'::text]))),
  constraint message_attachments_file_name_check check ((((length(file_name) >= 1) and (length(file_name) <= 200)) and (file_name !~ '[\x01-\x1f\x7f/\\]'::text))),
  constraint message_attachments_media_has_link check (((media_url is null) = (media_index is null))),
  constraint message_attachments_media_index_check check (((media_index >= 0) and (media_index <= 9))),
  constraint message_attachments_media_url_check check (((media_url ~ '^https?://\S+$'::text) and (length(media_url) <= 1000))),
  constraint message_attachments_mime_type_check check ((length(mime_type) <= 130)),
  constraint message_attachments_size_bytes_check check (((size_bytes >= 0) and (size_bytes <= 26214400))),
  constraint message_attachments_stored_has_object check (((fetch_status = 'stored'::text) = ((storage_path is not null) and (size_bytes is not null)))),
  constraint message_attachments_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint message_attachments_message_id_fkey foreign key (message_id) references public.messages(id) on delete cascade
);
alter table public.message_attachments enable row level security;

create index message_attachments_conversation_idx on public.message_attachments using btree (conversation_id);
create unique index message_attachments_media_once_idx on public.message_attachments using btree (message_id, media_index) where (media_index is not null);
create index message_attachments_message_idx on public.message_attachments using btree (message_id);

revoke all on table public.message_attachments from public, anon, authenticated, service_role;
grant select on table public.message_attachments to authenticated;
grant all on table public.message_attachments to service_role;

create policy "staff read their account's attachments" on public.message_attachments
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.helpdesk_business_hours ──

create table public.helpdesk_business_hours (
  account_id uuid not null,
  timezone text default 'UTC'::text not null,
  days smallint[] default '{1,2,3,4,5}'::smallint[] not null,
  opens_at time without time zone default '09:00:00'::time without time zone not null,
  closes_at time without time zone default '17:00:00'::time without time zone not null,
  holidays date[] default '{}'::date[] not null,
  updated_at timestamp with time zone default now() not null,
  constraint helpdesk_business_hours_pkey primary key (account_id),
  constraint helpdesk_business_hours_check check ((closes_at > opens_at)),
  constraint helpdesk_business_hours_days_check check ((((cardinality(days) >= 1) and (cardinality(days) <= 7)) and (days <@ '{1,2,3,4,5,6,7}'::smallint[]))),
  constraint helpdesk_business_hours_holidays_check check ((cardinality(holidays) <= 100)),
  constraint helpdesk_business_hours_timezone_check check (((length(timezone) >= 1) and (length(timezone) <= 64))),
  constraint helpdesk_business_hours_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.helpdesk_business_hours enable row level security;

revoke all on table public.helpdesk_business_hours from public, anon, authenticated, service_role;
grant select on table public.helpdesk_business_hours to authenticated;
grant all on table public.helpdesk_business_hours to service_role;

create policy "staff read their account's business hours" on public.helpdesk_business_hours
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.helpdesk_sla_targets ──

create table public.helpdesk_sla_targets (
  account_id uuid not null,
  priority text not null,
  first_response_minutes integer not null,
  resolution_minutes integer not null,
  next_response_minutes integer,
  constraint helpdesk_sla_targets_pkey primary key (account_id, priority),
  constraint helpdesk_sla_targets_first_response_minutes_check check (((first_response_minutes >= 1) and (first_response_minutes <= 86400))),
  constraint helpdesk_sla_targets_next_response_minutes_check check (((next_response_minutes >= 1) and (next_response_minutes <= 86400))),
  constraint helpdesk_sla_targets_priority_check check ((priority = any (array['low'::text, 'normal'::text, 'high'::text, 'urgent'::text]))),
  constraint helpdesk_sla_targets_resolution_minutes_check check (((resolution_minutes >= 1) and (resolution_minutes <= 86400))),
  constraint helpdesk_sla_targets_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.helpdesk_sla_targets enable row level security;

revoke all on table public.helpdesk_sla_targets from public, anon, authenticated, service_role;
grant select on table public.helpdesk_sla_targets to authenticated;
grant all on table public.helpdesk_sla_targets to service_role;

create policy "staff read their account's SLA targets" on public.helpdesk_sla_targets
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.sla_breaches ──

create table public.sla_breaches (
  account_id uuid not null,
  conversation_id uuid not null,
  target text not null,
  due_at timestamp with time zone not null,
  breached_at timestamp with time zone default now() not null,
  constraint sla_breaches_target_check check ((target = any (array['first_response'::text, 'resolution'::text, 'next_response'::text]))),
  constraint sla_breaches_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.sla_breaches enable row level security;

create index sla_breaches_account_due_idx on public.sla_breaches using btree (account_id, due_at);
create index sla_breaches_account_idx on public.sla_breaches using btree (account_id, breached_at desc);
create unique index sla_breaches_each_wait_idx on public.sla_breaches using btree (conversation_id, target, due_at) where (target = 'next_response'::text);
create unique index sla_breaches_once_idx on public.sla_breaches using btree (conversation_id, target) where (target <> 'next_response'::text);

revoke all on table public.sla_breaches from public, anon, authenticated, service_role;
grant select on table public.sla_breaches to authenticated;
grant all on table public.sla_breaches to service_role;

create or replace function private.roll_helpdesk_breach_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.target in ('first_response', 'resolution') then
    perform private.bump_helpdesk_day_stats(old.account_id, old.due_at, 0, -1, 0, 0);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.target in ('first_response', 'resolution') then
    perform private.bump_helpdesk_day_stats(new.account_id, new.due_at, 0, 1, 0, 0);
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_helpdesk_breach_day_stats() from public, anon, authenticated, service_role;

create trigger sla_breaches_roll_helpdesk_day_stats after insert or delete or update of account_id, target, due_at on public.sla_breaches for each row execute function private.roll_helpdesk_breach_day_stats();

create policy "staff read their account's SLA breaches" on public.sla_breaches
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.csat_responses ──

create table public.csat_responses (
  conversation_id uuid not null,
  account_id uuid not null,
  token_hash bytea not null,
  score smallint,
  comment text,
  sent_at timestamp with time zone,
  answered_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  constraint csat_responses_pkey primary key (conversation_id),
  constraint csat_responses_token_hash_key unique (token_hash),
  constraint csat_responses_check check (((score is null) = (answered_at is null))),
  constraint csat_responses_comment_check check ((length(comment) <= 2000)),
  constraint csat_responses_score_check check (((score >= 1) and (score <= 5))),
  constraint csat_responses_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade
);
alter table public.csat_responses enable row level security;

create index csat_responses_account_idx on public.csat_responses using btree (account_id, answered_at desc);

revoke all on table public.csat_responses from public, anon, authenticated, service_role;
grant all on table public.csat_responses to service_role;
grant select (conversation_id, account_id, score, comment, sent_at, answered_at, created_at) on table public.csat_responses to authenticated;

create or replace function private.roll_helpdesk_csat_day_stats()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op = 'UPDATE' and (old.account_id, old.answered_at, old.score) is not distinct from (new.account_id, new.answered_at, new.score) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.answered_at is not null then
    perform private.bump_helpdesk_day_stats(old.account_id, old.answered_at, 0, 0, -1, -old.score);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.answered_at is not null then
    perform private.bump_helpdesk_day_stats(new.account_id, new.answered_at, 0, 0, 1, new.score);
  end if;
  return null;
end;
$function$;
revoke all on function private.roll_helpdesk_csat_day_stats() from public, anon, authenticated, service_role;

create trigger csat_responses_roll_helpdesk_day_stats after insert or delete or update of account_id, answered_at, score on public.csat_responses for each row execute function private.roll_helpdesk_csat_day_stats();

create policy "staff read their account's CSAT answers" on public.csat_responses
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── private.csat_link_hits ──

create table private.csat_link_hits (
  id bigint generated always as identity not null,
  token_hash bytea not null,
  hit_at timestamp with time zone default now() not null,
  constraint csat_link_hits_pkey primary key (id)
);
alter table private.csat_link_hits enable row level security;

create index csat_link_hits_token_hash_hit_at_idx on private.csat_link_hits using btree (token_hash, hit_at desc);

revoke all on table private.csat_link_hits from public, anon, authenticated, service_role;

-- ── public.conversation_presence ──

create table public.conversation_presence (
  conversation_id uuid not null,
  user_id uuid not null,
  account_id uuid not null,
  seen_at timestamp with time zone default now() not null,
  constraint conversation_presence_pkey primary key (conversation_id, user_id),
  constraint conversation_presence_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint conversation_presence_user_id_account_id_fkey foreign key (user_id, account_id) references public.users(id, account_id) on delete cascade
);
alter table public.conversation_presence enable row level security;

revoke all on table public.conversation_presence from public, anon, authenticated, service_role;
grant select on table public.conversation_presence to authenticated;
grant all on table public.conversation_presence to service_role;

create policy "staff read their account's presence" on public.conversation_presence
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.canned_replies ──

create table public.canned_replies (
  id uuid default gen_random_uuid() not null,
  account_id uuid default public.current_account_id() not null,
  name text not null,
  body text not null,
  created_by uuid default public.current_user_id(),
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint canned_replies_pkey primary key (id),
  constraint canned_replies_account_id_name_key unique (account_id, name),
  constraint canned_replies_body_check check (((length(btrim(body)) >= 1) and (length(btrim(body)) <= 20000))),
  constraint canned_replies_name_check check ((((length(btrim(name)) >= 1) and (length(btrim(name)) <= 120)) and (name !~ '[\x01-\x1f\x7f]'::text))),
  constraint canned_replies_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint canned_replies_created_by_account_id_fkey foreign key (created_by, account_id) references public.users(id, account_id) on delete set null (created_by)
);
alter table public.canned_replies enable row level security;

create index canned_replies_created_by_idx on public.canned_replies using btree (created_by);

revoke all on table public.canned_replies from public, anon, authenticated, service_role;
grant delete, select on table public.canned_replies to authenticated;
grant all on table public.canned_replies to service_role;
grant insert (account_id, name, body) on table public.canned_replies to authenticated;
grant update (name, body) on table public.canned_replies to authenticated;

create trigger canned_replies_audit after insert or delete or update on public.canned_replies for each row execute function private.audit_settings_record('canned_reply');
create trigger canned_replies_set_updated_at before update on public.canned_replies for each row execute function private.set_updated_at();

create policy "business writers add canned replies" on public.canned_replies
  for insert
  to authenticated
  with check (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers delete canned replies" on public.canned_replies
  for delete
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)));

create policy "business writers edit canned replies" on public.canned_replies
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's canned replies" on public.canned_replies
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── public.conversation_tags ──

create table public.conversation_tags (
  account_id uuid not null,
  conversation_id uuid not null,
  tag text not null,
  last_message_at timestamp with time zone not null,
  constraint conversation_tags_pkey primary key (conversation_id, tag)
);
alter table public.conversation_tags enable row level security;

create index conversation_tags_inbox_idx on public.conversation_tags using btree (account_id, tag, last_message_at desc, conversation_id desc);

revoke all on table public.conversation_tags from public, anon, authenticated, service_role;
grant select on table public.conversation_tags to authenticated;
grant all on table public.conversation_tags to service_role;

create or replace function private.valid_conversation_tags(p_tags text[])
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select cardinality(p_tags) <= 20
     and not exists (select 1 from unnest(p_tags) t where t is null or t !~ '^[a-z0-9][a-z0-9 _-]{0,39}$')
$function$;

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
  first_response_due_at timestamp with time zone,
  resolution_due_at timestamp with time zone,
  sla_due_at timestamp with time zone,
  sla_started_at timestamp with time zone,
  sla_paused_minutes integer default 0 not null,
  sla_paused_at timestamp with time zone,
  tags text[] default '{}'::text[] not null,
  merged_into_id uuid,
  next_response_started_at timestamp with time zone,
  next_response_due_at timestamp with time zone,
  next_response_paused_minutes integer default 0 not null,
  next_responses_met integer default 0 not null,
  next_responses_missed integer default 0 not null,
  constraint conversations_pkey primary key (id),
  constraint conversations_id_account_id_key unique (id, account_id),
  constraint conversations_reply_token_key unique (reply_token),
  constraint conversations_channel_check check ((channel = any (array['email'::text, 'sms'::text, 'whatsapp'::text]))),
  constraint conversations_check check (((status = 'resolved'::text) = (resolved_at is not null))),
  constraint conversations_priority_check check ((priority = any (array['low'::text, 'normal'::text, 'high'::text, 'urgent'::text]))),
  constraint conversations_status_check check ((status = any (array['open'::text, 'pending'::text, 'resolved'::text]))),
  constraint conversations_subject_check check (((length(subject) <= 300) and (subject !~ '[\x01-\x1f\x7f]'::text))),
  constraint conversations_tags_check check (private.valid_conversation_tags(tags)),
  constraint conversations_account_id_fkey foreign key (account_id) references public.accounts(id) on delete cascade,
  constraint conversations_assignee_id_account_id_fkey foreign key (assignee_id, account_id) references public.users(id, account_id) on delete set null (assignee_id),
  constraint conversations_contact_id_account_id_fkey foreign key (contact_id, account_id) references public.contacts(id, account_id) on delete cascade,
  constraint conversations_merged_into_fkey foreign key (merged_into_id, account_id) references public.conversations(id, account_id) on delete set null (merged_into_id)
);
alter table public.conversations enable row level security;

alter table public.conversation_presence add constraint conversation_presence_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade;

alter table public.conversation_tags add constraint conversation_tags_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade;

alter table public.csat_responses add constraint csat_responses_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade;

alter table public.message_attachments add constraint message_attachments_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade;

alter table public.messages add constraint messages_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade;

alter table public.sla_breaches add constraint sla_breaches_conversation_id_account_id_fkey foreign key (conversation_id, account_id) references public.conversations(id, account_id) on delete cascade;

create index conversations_account_created_idx on public.conversations using btree (account_id, created_at);
create index conversations_account_first_responded_idx on public.conversations using btree (account_id, first_responded_at) where (first_responded_at is not null);
create index conversations_account_first_response_due_idx on public.conversations using btree (account_id, first_response_due_at);
create index conversations_account_last_message_idx on public.conversations using btree (account_id, last_message_at desc, id desc);
create index conversations_account_resolution_due_idx on public.conversations using btree (account_id, resolution_due_at);
create index conversations_account_sla_due_idx on public.conversations using btree (account_id, sla_due_at, id) where ((sla_due_at is not null) and (merged_into_id is null));
create index conversations_account_status_last_message_idx on public.conversations using btree (account_id, status, last_message_at desc, id desc);
create index conversations_account_subject_trgm_idx on public.conversations using gin (account_id, subject extensions.gin_trgm_ops);
create index conversations_assignee_idx on public.conversations using btree (assignee_id, last_message_at desc, id desc);
create index conversations_contact_channel_idx on public.conversations using btree (contact_id, channel, last_message_at desc);
create index conversations_contact_idx on public.conversations using btree (contact_id);
create index conversations_first_response_due_idx on public.conversations using btree (first_response_due_at) where ((status = 'open'::text) and (first_responded_at is null));
create index conversations_merged_into_idx on public.conversations using btree (merged_into_id) where (merged_into_id is not null);
create index conversations_next_response_due_idx on public.conversations using btree (next_response_due_at) where (status = 'open'::text);
create index conversations_resolution_due_idx on public.conversations using btree (resolution_due_at) where (status = 'open'::text);
create index conversations_tags_idx on public.conversations using gin (tags);

revoke all on table public.conversations from public, anon, authenticated, service_role;
grant select on table public.conversations to authenticated;
grant all on table public.conversations to service_role;
grant update (status, assignee_id, priority, unread, tags) on table public.conversations to authenticated;

revoke all on function private.valid_conversation_tags(p_tags text[]) from public, anon, authenticated, service_role;
grant execute on function private.valid_conversation_tags(p_tags text[]) to public;

create or replace function public.inbox_conversations(p_query text default null::text, p_mine boolean default false)
 returns setof public.conversations
 language sql
 stable
as $function$
  select v.* from public.conversations v
   where v.account_id = public.current_account_id()
     and (not coalesce(p_mine, false) or v.assignee_id = public.current_user_id())
     and (nullif(btrim(p_query), '') is null or v.id in (select s.id from public.search_conversations(btrim(p_query)) s))
$function$;
revoke all on function public.inbox_conversations(p_query text, p_mine boolean) from public, anon, authenticated, service_role;
grant execute on function public.inbox_conversations(p_query text, p_mine boolean) to authenticated, service_role;

create or replace function public.inbox_search(p_query text, p_mine boolean default false)
 returns setof public.conversations
 language sql
 stable
as $function$
  select s.* from public.search_conversations(btrim(p_query)) s
   where not coalesce(p_mine, false) or s.assignee_id = public.current_user_id()
$function$;
revoke all on function public.inbox_search(p_query text, p_mine boolean) from public, anon, authenticated, service_role;
grant execute on function public.inbox_search(p_query text, p_mine boolean) to authenticated, service_role;

create or replace function public.merge_candidates(p_conversation_id uuid)
 returns setof public.conversations
 language sql
 stable
 set search_path to ''
as $function$
  select o.* from public.conversations c
    join public.conversations o on o.contact_id = c.contact_id and o.account_id = c.account_id
   where c.id = p_conversation_id and o.id <> c.id and o.merged_into_id is null
   order by o.last_message_at desc, o.id desc
   limit 20
$function$;
revoke all on function public.merge_candidates(p_conversation_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.merge_candidates(p_conversation_id uuid) to authenticated, service_role;

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
create trigger conversations_csat_request after update of status on public.conversations for each row execute function private.queue_csat_request();
create trigger conversations_roll_day_stats after insert or delete or update of account_id, created_at, first_responded_at on public.conversations for each row execute function private.roll_conversation_day_stats();
create trigger conversations_roll_helpdesk_day_stats after insert or delete or update on public.conversations for each row execute function private.roll_helpdesk_sla_day_stats();
create trigger conversations_set_updated_at before update on public.conversations for each row execute function private.set_updated_at();
create trigger conversations_sla before insert or update on public.conversations for each row execute function private.conversation_sla();
create trigger conversations_status_times before update of status on public.conversations for each row execute function private.conversation_status_times();
create trigger conversations_sync_tags after insert or update of tags, last_message_at, merged_into_id on public.conversations for each row execute function private.sync_conversation_tags();

create policy "staff read their account's conversation tags" on public.conversation_tags
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

create policy "business writers work conversations" on public.conversations
  for update
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.can_write_business() as can_write_business)))
  with check ((account_id = ( select public.current_account_id() as current_account_id)));

create policy "staff read their account's conversations" on public.conversations
  for select
  to authenticated
  using (((account_id = ( select public.current_account_id() as current_account_id)) and ( select public.is_account_staff() as is_account_staff)));

-- ── functions ──

create or replace function private.csat_by_token(p_token text, out response public.csat_responses, out limited boolean)
 returns record
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_hash bytea;
begin
  limited := false;
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    response := null;
    return;
  end if;
  v_hash := extensions.digest(p_token, 'sha256');
  select * into response from public.csat_responses r where r.token_hash = v_hash for update;
  if not found then
    response := null;
    return;
  end if;
  if (select count(*) from private.csat_link_hits h where h.token_hash = v_hash and h.hit_at > now() - interval '10 minutes') >= 30 then
    limited := true;
    return;
  end if;
  delete from private.csat_link_hits h where h.hit_at < now() - interval '10 minutes';
  insert into private.csat_link_hits (token_hash) values (v_hash);
end;
$function$;
revoke all on function private.csat_by_token(p_token text, out response public.csat_responses, out limited boolean) from public, anon, authenticated, service_role;

create or replace function private.csat_view(p_response public.csat_responses, p_state text)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object('state', p_state, 'account_name', a.name, 'subject', c.subject, 'score', p_response.score)
    from public.conversations c join public.accounts a on a.id = c.account_id
   where c.id = p_response.conversation_id
$function$;
revoke all on function private.csat_view(p_response public.csat_responses, p_state text) from public, anon, authenticated, service_role;

create or replace function private.header_text(p_value text, p_max integer)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select nullif(left(btrim(regexp_replace(coalesce(p_value, ''), '[\x01-\x1f\x7f]+', ' ', 'g')), p_max), '')
$function$;
revoke all on function private.header_text(p_value text, p_max integer) from public, anon, authenticated, service_role;

create or replace function private.helpdesk_media_extension(p_type text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select case p_type
    when 'image/jpeg' then 'jpg' when 'image/png' then 'png' when 'image/gif' then 'gif' when 'image/webp' then 'webp'
    when 'application/pdf' then 'pdf' when 'video/mp4' then 'mp4' when 'audio/ogg' then 'ogg' when 'audio/mpeg' then 'mp3'
    when 'audio/amr' then 'amr' when 'text/vcard' then 'vcf' when 'text/x-vcard' then 'vcf' else 'bin' end
$function$;
revoke all on function private.helpdesk_media_extension(p_type text) from public, anon, authenticated, service_role;

create or replace function private.helpdesk_next_response_minutes(p_account_id uuid, p_priority text)
 returns integer
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(t.next_response_minutes, p.first_response_minutes)
    from private.helpdesk_policy(p_account_id, p_priority) p
    left join public.helpdesk_sla_targets t on t.account_id = p_account_id and t.priority = p_priority
$function$;
revoke all on function private.helpdesk_next_response_minutes(p_account_id uuid, p_priority text) from public, anon, authenticated, service_role;

create or replace function private.helpdesk_policy(p_account_id uuid, p_priority text, out timezone text, out days smallint[], out opens_at time without time zone, out closes_at time without time zone, out holidays date[], out first_response_minutes integer, out resolution_minutes integer)
 returns record
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(h.timezone, 'UTC'), coalesce(h.days, '{1,2,3,4,5}'::smallint[]),
         coalesce(h.opens_at, '09:00'::time), coalesce(h.closes_at, '17:00'::time), coalesce(h.holidays, '{}'::date[]),
         coalesce(t.first_response_minutes, d.first_response), coalesce(t.resolution_minutes, d.resolution)
    from (values ('urgent', 60, 240), ('high', 240, 960), ('normal', 480, 2400), ('low', 960, 4800))
           as d (priority, first_response, resolution)
    left join public.helpdesk_business_hours h on h.account_id = p_account_id
    left join public.helpdesk_sla_targets t on t.account_id = p_account_id and t.priority = d.priority
   where d.priority = p_priority
$function$;
revoke all on function private.helpdesk_policy(p_account_id uuid, p_priority text, out timezone text, out days smallint[], out opens_at time without time zone, out closes_at time without time zone, out holidays date[], out first_response_minutes integer, out resolution_minutes integer) from public, anon, authenticated, service_role;

create or replace function public.answer_csat(p_token text, p_score integer, p_comment text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record;
  v_response public.csat_responses;
  -- Control characters (not line breaks) are dropped.
  v_comment text := nullif(btrim(regexp_replace(coalesce(p_comment, ''), '[\x01-\x09\x0b\x0c\x0e-\x1f\x7f]+', '', 'g')), '');
begin
  select * into v_found from private.csat_by_token(p_token);
  v_response := v_found.response;
  if v_response.conversation_id is null then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_found.limited then
    return jsonb_build_object('state', 'rate_limited');
  end if;
  if v_response.answered_at is not null then
    return private.csat_view(v_response, 'answered');
  end if;
  if p_score is null or p_score not between 1 and 5 then
    raise exception 'Choose a score from 1 to 5' using errcode = '22023';
  end if;
  if length(v_comment) > 2000 then
    raise exception 'A comment can be at most 2,000 characters' using errcode = '22023';
  end if;
  update public.csat_responses r set score = p_score, comment = v_comment, answered_at = now()
   where r.conversation_id = v_response.conversation_id
  returning * into v_response;
  perform private.write_audit(v_response.account_id, 'csat_answered', 'conversation', v_response.conversation_id, null,
                              jsonb_build_object('score', p_score));
  return private.csat_view(v_response, 'answered') || jsonb_build_object('answered_now', true);
end;
$function$;
revoke all on function public.answer_csat(p_token text, p_score integer, p_comment text) from public, anon, authenticated, service_role;
grant execute on function public.answer_csat(p_token text, p_score integer, p_comment text) to anon, authenticated, service_role;

create or replace function public.business_minutes_between(p_from timestamp with time zone, p_to timestamp with time zone, p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[])
 returns integer
 language plpgsql
 stable
 set search_path to ''
as $function$
declare
  v_day date := (p_from at time zone p_timezone)::date;
  v_last date := (p_to at time zone p_timezone)::date;
  v_total interval := interval '0';
  v_open timestamptz;
  v_close timestamptz;
begin
  if p_to <= p_from then
    return 0;
  end if;
  while v_day <= v_last and v_day - (p_from at time zone p_timezone)::date <= 1000 loop
    if extract(isodow from v_day)::smallint = any (p_days) and not (v_day = any (coalesce(p_holidays, '{}'))) then
      v_open := greatest((v_day + p_opens) at time zone p_timezone, p_from);
      v_close := least((v_day + p_closes) at time zone p_timezone, p_to);
      if v_close > v_open then
        v_total := v_total + (v_close - v_open);
      end if;
    end if;
    v_day := v_day + 1;
  end loop;
  return floor(extract(epoch from v_total) / 60)::integer;
end;
$function$;
revoke all on function public.business_minutes_between(p_from timestamp with time zone, p_to timestamp with time zone, p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[]) from public, anon, authenticated, service_role;
grant execute on function public.business_minutes_between(p_from timestamp with time zone, p_to timestamp with time zone, p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[]) to authenticated, service_role;

create or replace function public.business_time_add(p_start timestamp with time zone, p_minutes integer, p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[])
 returns timestamp with time zone
 language plpgsql
 stable
 set search_path to ''
as $function$
declare
  v_day date := (p_start at time zone p_timezone)::date;
  v_left interval := make_interval(mins => greatest(p_minutes, 0));
  v_open timestamptz;
  v_close timestamptz;
  v_from timestamptz;
begin
  for i in 0..1000 loop
    if extract(isodow from v_day)::smallint = any (p_days) and not (v_day = any (coalesce(p_holidays, '{}'))) then
      v_open := (v_day + p_opens) at time zone p_timezone;
      v_close := (v_day + p_closes) at time zone p_timezone;
      v_from := greatest(v_open, p_start);
      if v_from < v_close then
        if v_from + v_left <= v_close then
          return v_from + v_left;
        end if;
        v_left := v_left - (v_close - v_from);
      end if;
    end if;
    v_day := v_day + 1;
  end loop;
  return null;
end;
$function$;
revoke all on function public.business_time_add(p_start timestamp with time zone, p_minutes integer, p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[]) from public, anon, authenticated, service_role;
grant execute on function public.business_time_add(p_start timestamp with time zone, p_minutes integer, p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[]) to authenticated, service_role;

create or replace function public.helpdesk_sla_report(p_from timestamp with time zone, p_to timestamp with time zone)
 returns table(assignee_id uuid, assignee_name text, priority text, conversations bigint, first_response_total bigint, first_response_met bigint, next_response_total bigint, next_response_met bigint, resolution_total bigint, resolution_met bigint, avg_first_response_minutes numeric, csat_count bigint, csat_average numeric)
 language sql
 stable
 set search_path to ''
as $function$
  select c.assignee_id,
         coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email),
         c.priority,
         count(*),
         count(*) filter (where c.first_responded_at is not null or c.first_response_due_at <= now()),
         count(*) filter (where c.first_responded_at <= c.first_response_due_at),
         coalesce(sum(c.next_responses_met + c.next_responses_missed), 0)
           + count(*) filter (where c.status = 'open' and c.next_response_due_at <= now()),
         coalesce(sum(c.next_responses_met), 0),
         count(*) filter (where c.resolved_at is not null or c.resolution_due_at <= now()),
         count(*) filter (where c.resolved_at <= c.resolution_due_at),
         round(avg(extract(epoch from c.first_responded_at - c.created_at) / 60)::numeric, 1),
         count(r.score),
         round(avg(r.score)::numeric, 2)
    from public.conversations c
    left join public.users u on u.id = c.assignee_id
    left join public.csat_responses r on r.conversation_id = c.id
   where c.account_id = public.current_account_id()
     and c.merged_into_id is null
     and c.created_at >= p_from and c.created_at < p_to
   group by c.assignee_id, u.first_name, u.last_name, u.email, c.priority
   order by 2 nulls first, array_position(array['urgent', 'high', 'normal', 'low'], c.priority)
$function$;
revoke all on function public.helpdesk_sla_report(p_from timestamp with time zone, p_to timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.helpdesk_sla_report(p_from timestamp with time zone, p_to timestamp with time zone) to authenticated, service_role;

create or replace function public.helpdesk_sla_sweep(p_now timestamp with time zone default now())
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_row record;
  v_count integer := 0;
begin
  for v_row in
    -- At most 500 of each a run (the job must end well within the Worker's limits): the next minute takes the rest.
    with once as (
      insert into public.sla_breaches (account_id, conversation_id, target, due_at, breached_at)
      (select c.account_id, c.id, 'first_response', c.first_response_due_at, p_now from public.conversations c
        where c.status = 'open' and c.first_responded_at is null and c.first_response_due_at <= p_now
          and not exists (select 1 from public.sla_breaches b where b.conversation_id = c.id and b.target = 'first_response')
        order by c.first_response_due_at limit 500)
      union all
      (select c.account_id, c.id, 'resolution', c.resolution_due_at, p_now from public.conversations c
        where c.status = 'open' and c.resolution_due_at <= p_now
          and not exists (select 1 from public.sla_breaches b where b.conversation_id = c.id and b.target = 'resolution')
        order by c.resolution_due_at limit 500)
      on conflict (conversation_id, target) where target <> 'next_response' do nothing
      returning account_id, conversation_id, target, due_at
    ), each_wait as (
      -- A next response is due again after each unanswered customer message: once per deadline.
      insert into public.sla_breaches (account_id, conversation_id, target, due_at, breached_at)
      select c.account_id, c.id, 'next_response', c.next_response_due_at, p_now from public.conversations c
       where c.status = 'open' and c.next_response_due_at <= p_now
         and not exists (select 1 from public.sla_breaches b where b.conversation_id = c.id and b.target = 'next_response'
                                                              and b.due_at = c.next_response_due_at)
       order by c.next_response_due_at limit 500
      on conflict (conversation_id, target, due_at) where target = 'next_response' do nothing
      returning account_id, conversation_id, target, due_at
    )
    select * from once union all select * from each_wait
  loop
    v_count := v_count + 1;
    perform private.emit_event(v_row.account_id, 'sla_breached', 'conversations', v_row.conversation_id,
                               jsonb_build_object('target', v_row.target, 'due_at', v_row.due_at));
    perform private.write_audit(v_row.account_id, 'sla_breached', 'conversation', v_row.conversation_id, null,
                                jsonb_build_object('target', v_row.target, 'due_at', v_row.due_at));
    perform private.enqueue_job('helpdesk.sla_breach_mail', v_row.account_id,
      jsonb_build_object('conversation_id', v_row.conversation_id, 'target', v_row.target, 'due_at', v_row.due_at),
      'helpdesk.sla_breach_mail:' || v_row.conversation_id || ':' || v_row.target
        || case when v_row.target = 'next_response' then ':' || extract(epoch from v_row.due_at)::bigint else '' end,
      v_row.conversation_id);
  end loop;
  return v_count;
end;
$function$;
revoke all on function public.helpdesk_sla_sweep(p_now timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.helpdesk_sla_sweep(p_now timestamp with time zone) to service_role;

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

create or replace function public.inbox_tagged(p_tag text, p_mine boolean default false)
 returns setof public.conversations
 language sql
 stable
as $function$
  select t.conversation_id, v.account_id, v.contact_id, v.channel, v.subject, v.status, v.assignee_id, v.priority,
         v.reply_token, t.last_message_at, v.first_responded_at, v.resolved_at, v.unread, v.created_at, v.updated_at,
         v.first_response_due_at, v.resolution_due_at, v.sla_due_at, v.sla_started_at, v.sla_paused_minutes,
         v.sla_paused_at, v.tags, v.merged_into_id, v.next_response_started_at, v.next_response_due_at,
         v.next_response_paused_minutes, v.next_responses_met, v.next_responses_missed
    from public.conversation_tags t
    join public.conversations v on v.id = t.conversation_id
   where t.account_id = public.current_account_id()
     and t.tag = p_tag
     and (not coalesce(p_mine, false) or v.assignee_id = public.current_user_id())
$function$;
revoke all on function public.inbox_tagged(p_tag text, p_mine boolean) from public, anon, authenticated, service_role;
grant execute on function public.inbox_tagged(p_tag text, p_mine boolean) to authenticated, service_role;

create or replace function public.mark_replying(p_conversation_id uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or not public.can_write_business() then
    raise exception 'Only the account''s admins and members reply' using errcode = '42501';
  end if;
  if not exists (select 1 from public.conversations c where c.id = p_conversation_id and c.account_id = v_account) then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  insert into public.conversation_presence (conversation_id, user_id, account_id, seen_at)
  values (p_conversation_id, public.current_user_id(), v_account, now())
  on conflict (conversation_id, user_id) do update set seen_at = now();
  -- Stale rows go as new ones come in: the table stays small.
  delete from public.conversation_presence p where p.account_id = v_account and p.seen_at < now() - interval '10 minutes';
end;
$function$;
revoke all on function public.mark_replying(p_conversation_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.mark_replying(p_conversation_id uuid) to authenticated, service_role;

create or replace function public.open_csat_link(p_token text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_found record;
begin
  select * into v_found from private.csat_by_token(p_token);
  if (v_found.response).conversation_id is null then
    return jsonb_build_object('state', 'not_found');
  end if;
  if v_found.limited then
    return jsonb_build_object('state', 'rate_limited');
  end if;
  return private.csat_view(v_found.response, case when (v_found.response).answered_at is null then 'open' else 'answered' end);
end;
$function$;
revoke all on function public.open_csat_link(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.open_csat_link(p_token text) to anon, authenticated, service_role;

create or replace function public.provider_credentials(p_account_id uuid, p_type text)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object('id', i.id, 'account_id', i.account_id, 'config', public.integration_credentials(i.id))
    from public.integrations i
   where i.account_id = p_account_id and i.type = p_type and i.is_active
   order by i.created_at, i.id
   limit 1
$function$;
revoke all on function public.provider_credentials(p_account_id uuid, p_type text) from public, anon, authenticated, service_role;
grant execute on function public.provider_credentials(p_account_id uuid, p_type text) to service_role;

create or replace function public.queue_csat_mail(p_conversation_id uuid, p_token text, p_mail jsonb)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid;
begin
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    raise exception 'A CSAT token is 32 random bytes in base64url' using errcode = '22023';
  end if;
  if p_mail is null or jsonb_typeof(p_mail -> 'to') is distinct from 'string' or jsonb_typeof(p_mail -> 'text') is distinct from 'string' then
    raise exception 'The mail needs an address and a text' using errcode = '22023';
  end if;
  select c.account_id into v_account from public.conversations c where c.id = p_conversation_id;
  if v_account is null then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  insert into public.csat_responses (conversation_id, account_id, token_hash, sent_at)
  values (p_conversation_id, v_account, extensions.digest(p_token, 'sha256'), now())
  on conflict (conversation_id) do update set token_hash = excluded.token_hash, sent_at = excluded.sent_at
    where public.csat_responses.sent_at is null and public.csat_responses.answered_at is null;
  if not found then
    return false;
  end if;
  perform private.enqueue_job('mail.send', v_account, p_mail, 'helpdesk.csat_mail:' || p_conversation_id, p_conversation_id, now());
  return true;
end;
$function$;
revoke all on function public.queue_csat_mail(p_conversation_id uuid, p_token text, p_mail jsonb) from public, anon, authenticated, service_role;
grant execute on function public.queue_csat_mail(p_conversation_id uuid, p_token text, p_mail jsonb) to service_role;

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

  -- Two mails from one new address at once (a sender's two new threads, a
  -- provider's parallel deliveries) made two contacts: the lookup below ran in
  -- both before either inserted. Held till the transaction ends, the second
  -- waits and finds the first's contact. Taken after the Message-ID lock,
  -- always in that order, so two deliveries cannot wait on each other.
  perform pg_advisory_xact_lock(hashtextextended(v_account::text || ' email contact ' || v_from, 0));
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

create or replace function public.receive_sms(p_integration_id uuid, p_channel text, p_from text, p_body text, p_sid text, p_profile_name text default null::text, p_media text[] default '{}'::text[], p_media_types text[] default '{}'::text[])
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid;
  v_digits text := regexp_replace(regexp_replace(coalesce(p_from, ''), '^whatsapp:', '', 'i'), '[\s().-]', '', 'g');
  v_phone text;
  v_name text := private.header_text(p_profile_name, 200);
  v_sid text := btrim(coalesce(p_sid, ''));
  v_body text := left(btrim(coalesce(p_body, '')), 10000);
  v_media text;
  v_contact uuid;
  v_conversation uuid;
  v_message uuid;
  v_type text;
  v_attachment uuid;
begin
  select i.account_id into v_account from public.integrations i
   where i.id = p_integration_id and i.type = 'sms' and i.is_active;
  if v_account is null then
    raise exception 'No SMS provider for this hook' using errcode = 'P0002';
  end if;
  if p_channel is null or p_channel not in ('sms', 'whatsapp') then
    raise exception 'The channel is SMS or WhatsApp' using errcode = '22023';
  end if;
  if v_digits !~ '^\+?[0-9]{5,16}$' then
    raise exception 'The sender is not a phone number' using errcode = '22023';
  end if;
  v_digits := ltrim(v_digits, '+');
  v_phone := '+' || v_digits;
  if v_sid !~ '^[A-Za-z0-9]{10,64}$' then
    raise exception 'The message has no MessageSid' using errcode = '22023';
  end if;

  -- A replay waits for the first delivery's transaction, then finds its message.
  perform pg_advisory_xact_lock(hashtextextended(v_account::text || v_sid, 0));
  select m.id, m.conversation_id into v_message, v_conversation
    from public.messages m where m.account_id = v_account and m.external_id = v_sid;
  if found then
    return jsonb_build_object('conversation_id', v_conversation, 'message_id', v_message, 'duplicate', true);
  end if;

  -- Media are kept as their links (Twilio's, readable with the account's credentials).
  foreach v_media in array coalesce(p_media[1:10], '{}') loop
    if v_media ~ '^https://\S+$' and length(v_media) <= 1000 then
      v_body := v_body || case when v_body = '' then '' else E'\n' end || 'Attachment: ' || v_media;
    end if;
  end loop;
  if v_body = '' then
    v_body := '(no text)';
  end if;

  -- Two messages from one new number at once made two contacts and two
  -- conversations: the lookups below ran in both before either inserted. Held
  -- till the transaction ends, the second waits and finds the first's contact
  -- and conversation. Taken after the MessageSid lock, always in that order.
  perform pg_advisory_xact_lock(hashtextextended(v_account::text || ' phone contact ' || v_digits, 0));
  select c.id into v_contact from public.contacts c
   where c.account_id = v_account and c.phone is not null and regexp_replace(c.phone, '\D', '', 'g') = v_digits
   order by c.created_at, c.id limit 1;
  if v_contact is null then
    -- Contacts are reached by mail too and need an address: one that can never be delivered (.invalid, RFC 2606) until a person adds theirs.
    insert into public.contacts (account_id, name, email, phone, notes)
    values (v_account, coalesce(v_name, v_phone), v_digits || '@phone.invalid', v_phone,
            case p_channel when 'sms' then 'Wrote to the helpdesk by SMS' else 'Wrote to the helpdesk on WhatsApp' end)
    returning id into v_contact;
  end if;

  select c.id into v_conversation from public.conversations c
   where c.account_id = v_account and c.contact_id = v_contact and c.channel = p_channel
     and c.merged_into_id is null -- a conversation merged into another is history
   order by c.last_message_at desc, c.id limit 1;
  if v_conversation is null then
    insert into public.conversations (account_id, contact_id, channel, subject)
    values (v_account, v_contact, p_channel,
            case p_channel when 'sms' then 'SMS from ' else 'WhatsApp from ' end || coalesce(v_name, v_phone))
    returning id into v_conversation;
  end if;

  insert into public.messages (account_id, conversation_id, direction, body, sender_name, sender_phone, external_id)
  values (v_account, v_conversation, 'inbound', v_body, coalesce(v_name, v_phone), v_phone, v_sid)
  returning id into v_message;
  update public.conversations c
     set last_message_at = now(), unread = true, status = 'open'
   where c.id = v_conversation;
  -- Each media item (at most 10) a row to fetch into Storage, and its job, once (decision 089). The URL is
  -- checked again by the fetcher (https on a public host in production); plain http is kept here so the
  -- fetcher, not this function, is the one place that decides.
  for i in 1 .. least(coalesce(cardinality(p_media), 0), 10) loop
    continue when p_media[i] is null or p_media[i] !~ '^https?://\S+$' or length(p_media[i]) > 1000;
    v_type := lower(btrim(coalesce(p_media_types[i], '')));
    if v_type !~ '^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$' then
      v_type := 'application/octet-stream';
    end if;
    insert into public.message_attachments (account_id, conversation_id, message_id, file_name, mime_type,
                                            media_url, media_index, fetch_status)
    values (v_account, v_conversation, v_message, 'media-' || i || '.' || private.helpdesk_media_extension(v_type), v_type,
            p_media[i], i - 1, 'pending')
    returning id into v_attachment;
    perform private.enqueue_job('helpdesk.fetch_media', v_account, jsonb_build_object('attachment_id', v_attachment),
                                'helpdesk.fetch_media:' || v_attachment, v_message, now(), 3);
  end loop;
  perform private.emit_event(v_account, 'message_received', 'conversations', v_conversation,
                             jsonb_build_object('message_id', v_message, 'from', v_phone, 'channel', p_channel));
  return jsonb_build_object('conversation_id', v_conversation, 'message_id', v_message, 'duplicate', false);
end;
$function$;
revoke all on function public.receive_sms(p_integration_id uuid, p_channel text, p_from text, p_body text, p_sid text, p_profile_name text, p_media text[], p_media_types text[]) from public, anon, authenticated, service_role;
grant execute on function public.receive_sms(p_integration_id uuid, p_channel text, p_from text, p_body text, p_sid text, p_profile_name text, p_media text[], p_media_types text[]) to service_role;

create or replace function public.record_sms_status(p_integration_id uuid, p_sid text, p_status text, p_error_code text default null::text)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid;
  v_status text := case lower(coalesce(p_status, ''))
    when 'sent' then 'sent'
    when 'delivered' then 'delivered'
    when 'read' then 'delivered'
    when 'failed' then 'failed'
    when 'undelivered' then 'failed'
    when 'canceled' then 'failed'
    else null end;
begin
  select i.account_id into v_account from public.integrations i
   where i.id = p_integration_id and i.type = 'sms' and i.is_active;
  if v_account is null then
    raise exception 'No SMS provider for this hook' using errcode = 'P0002';
  end if;
  if v_status is null then
    return false; -- queued, sending, accepted: nothing the page shows differently
  end if;
  update public.messages m
     set delivery_status = v_status,
         delivery_error = case when v_status = 'failed'
                               then 'The provider could not deliver it' ||
                                    coalesce(' (error ' || substring(p_error_code from '^[0-9]{1,10}$') || ')', '')
                          end
   where m.account_id = v_account and m.external_id = btrim(coalesce(p_sid, '')) and m.direction = 'outbound'
     -- Only forward: a late or replayed 'sent' or 'failed' never undoes a delivery.
     and not (m.delivery_status = 'delivered' and v_status in ('sent', 'failed'))
     and m.delivery_status is distinct from v_status;
  return found;
end;
$function$;
revoke all on function public.record_sms_status(p_integration_id uuid, p_sid text, p_status text, p_error_code text) from public, anon, authenticated, service_role;
grant execute on function public.record_sms_status(p_integration_id uuid, p_sid text, p_status text, p_error_code text) to service_role;

create or replace function public.reply_tools(p_conversation_id uuid default null::uuid)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_contact text;
  v_agent text;
begin
  if v_account is null or not public.is_account_staff() then
    return jsonb_build_object('canned_replies', '[]'::jsonb, 'sms_configured', false, 'ai_configured', false);
  end if;
  select k.name into v_contact from public.conversations c join public.contacts k on k.id = c.contact_id
   where c.id = p_conversation_id and c.account_id = v_account;
  select nullif(concat_ws(' ', u.first_name, u.last_name), '') into v_agent from public.users u where u.id = public.current_user_id();
  return jsonb_build_object(
    'canned_replies', coalesce((
      select jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'body',
               case when v_contact is null then r.body else
                 replace(replace(replace(r.body, '{{contact_name}}', v_contact),
                                 '{{contact_first_name}}', split_part(v_contact, ' ', 1)),
                         '{{agent_name}}', coalesce(v_agent, '')) end) order by r.name)
        from public.canned_replies r where r.account_id = v_account), '[]'::jsonb),
    'sms_configured', exists (select 1 from public.integrations i where i.account_id = v_account and i.type = 'sms' and i.is_active),
    'ai_configured', exists (select 1 from public.integrations i where i.account_id = v_account and i.type = 'ai' and i.is_active));
end;
$function$;
revoke all on function public.reply_tools(p_conversation_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.reply_tools(p_conversation_id uuid) to authenticated, service_role;

create or replace function public.save_helpdesk_sla(p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[], p_targets jsonb)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_priority text;
begin
  if v_account is null or not public.is_account_admin() then
    raise exception 'Only the account''s admins can change its SLAs' using errcode = '42501';
  end if;
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = p_timezone) then
    raise exception 'Choose a timezone' using errcode = '22023';
  end if;
  if p_closes <= p_opens then
    raise exception 'Closing time must be after opening time' using errcode = '22023';
  end if;
  insert into public.helpdesk_business_hours (account_id, timezone, days, opens_at, closes_at, holidays, updated_at)
  values (v_account, p_timezone, p_days, p_opens, p_closes, coalesce(p_holidays, '{}'), now())
  on conflict (account_id) do update
    set timezone = excluded.timezone, days = excluded.days, opens_at = excluded.opens_at,
        closes_at = excluded.closes_at, holidays = excluded.holidays, updated_at = now();
  foreach v_priority in array array['low', 'normal', 'high', 'urgent'] loop
    insert into public.helpdesk_sla_targets (account_id, priority, first_response_minutes, resolution_minutes, next_response_minutes)
    values (v_account, v_priority, (p_targets -> v_priority ->> 'first_response_minutes')::integer,
            (p_targets -> v_priority ->> 'resolution_minutes')::integer,
            (p_targets -> v_priority ->> 'next_response_minutes')::integer)
    on conflict (account_id, priority) do update
      set first_response_minutes = excluded.first_response_minutes, resolution_minutes = excluded.resolution_minutes,
          next_response_minutes = excluded.next_response_minutes;
  end loop;
  perform private.write_audit(v_account, 'helpdesk_sla_updated', 'account', v_account, null,
    jsonb_build_object('timezone', p_timezone, 'days', p_days, 'opens_at', p_opens, 'closes_at', p_closes,
                       'holidays', p_holidays, 'targets', p_targets));
  -- Open work takes the new deadlines (the trigger recomputes on a priority "change" to itself).
  perform set_config('opshub.sla_recompute', 'on', true);
  update public.conversations c set priority = c.priority where c.account_id = v_account and c.status <> 'resolved';
  perform set_config('opshub.sla_recompute', '', true);
end;
$function$;
revoke all on function public.save_helpdesk_sla(p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[], p_targets jsonb) from public, anon, authenticated, service_role;
grant execute on function public.save_helpdesk_sla(p_timezone text, p_days smallint[], p_opens time without time zone, p_closes time without time zone, p_holidays date[], p_targets jsonb) to authenticated, service_role;

create or replace function public.sla_breach_recipients(p_conversation_id uuid)
 returns table(email text, subject text)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select distinct u.email, c.subject
    from public.conversations c
    join public.users u on u.account_id = c.account_id and (u.role = 'admin' or u.id = c.assignee_id)
   where c.id = p_conversation_id and u.email is not null
$function$;
revoke all on function public.sla_breach_recipients(p_conversation_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.sla_breach_recipients(p_conversation_id uuid) to service_role;

create or replace function public.sms_hook_credentials(p_integration_id uuid)
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object('id', i.id, 'account_id', i.account_id, 'config', public.integration_credentials(i.id))
    from public.integrations i
   where i.id = p_integration_id and i.type = 'sms' and i.is_active
$function$;
revoke all on function public.sms_hook_credentials(p_integration_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.sms_hook_credentials(p_integration_id uuid) to service_role;

create or replace function public.suggest_replies(p_conversation_id uuid, p_limit integer default 5, p_id uuid default null::uuid)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_account uuid := public.current_account_id();
  v_contact text;
  v_agent text;
  v_last text;
  v_limit integer := least(greatest(coalesce(p_limit, 5), 1), 20);
begin
  if v_account is null or not public.is_account_staff() then
    return '[]'::jsonb;
  end if;
  select k.name into v_contact
    from public.conversations c join public.contacts k on k.id = c.contact_id
   where c.id = p_conversation_id and c.account_id = v_account;
  if not found then
    return '[]'::jsonb;
  end if;
  -- The customer's last words, bounded: similarity costs grow with the text.
  select lower(left(m.body, 2000)) into v_last
    from public.messages m
   where m.conversation_id = p_conversation_id and m.account_id = v_account and m.direction = 'inbound'
   order by m.created_at desc, m.id desc
   limit 1;
  select nullif(concat_ws(' ', u.first_name, u.last_name), '') into v_agent from public.users u where u.id = public.current_user_id();
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', r.id, 'source', r.source, 'name', r.name, 'score', round(r.score::numeric, 3),
             'body', replace(replace(replace(r.body, '{{contact_name}}', coalesce(v_contact, '')),
                                     '{{contact_first_name}}', split_part(coalesce(v_contact, ''), ' ', 1)),
                             '{{agent_name}}', coalesce(v_agent, '')))
           order by r.score desc, r.name)
      from (
        select c.*,
               -- The whole text against the message, or the name found inside it ("Refund" in "…a refund…").
               greatest(extensions.similarity(lower(left(c.name || ' ' || c.body, 2000)), coalesce(v_last, '')),
                        extensions.word_similarity(lower(c.name), coalesce(v_last, ''))) as score
          from (
            select r.id, 'canned'::text as source, r.name, r.body
              from public.canned_replies r where r.account_id = v_account
            union all
            select t.id, 'template', t.name, t.content
              from public.templates t where t.account_id = v_account and t.type = 'email'
          ) c
         where p_id is null or c.id = p_id
         order by score desc, c.name
         limit case when p_id is null then v_limit else 1 end
      ) r
     -- Asked by id: that one whatever its score; ranked: only those that resemble the message (a tenth of the trigrams: below, shared letters, not words).
     where p_id is not null or (v_last is not null and r.score >= 0.1)), '[]'::jsonb);
end;
$function$;
revoke all on function public.suggest_replies(p_conversation_id uuid, p_limit integer, p_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.suggest_replies(p_conversation_id uuid, p_limit integer, p_id uuid) to authenticated, service_role;
