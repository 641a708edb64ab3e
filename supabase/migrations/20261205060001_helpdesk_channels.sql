-- The helpdesk's other channels and reply tools (issue 35, decision 076):
-- SMS and WhatsApp in and out through a Twilio-compatible provider configured
-- as an integration of type 'sms', suggested replies from an OpenAI-compatible
-- provider configured as an integration of type 'ai', a new conversation
-- started from the app (Compose), and the account's library of canned replies.
--
-- The account an SMS belongs to is the one whose 'sms' integration the hook
-- URL names (/hooks/sms/<integration id>), never anything the message says;
-- the Worker checks Twilio's signature with that integration's auth token
-- before calling receive_sms. Only the service role receives, reads
-- credentials and records delivery statuses.

alter table public.integrations drop constraint integrations_type_check;
alter table public.integrations add constraint integrations_type_check
  check (type in ('email', 'payment', 'crm', 'storage', 'sms', 'ai'));

-- The phone number an SMS or WhatsApp message came from (E.164).
alter table public.messages add column sender_phone text
  check (sender_phone ~ '^\+[0-9]{5,16}$');

-- A sender is found by the digits of a contact's phone, however it was typed.
create index contacts_account_phone_digits_idx on public.contacts (account_id, (regexp_replace(phone, '\D', '', 'g')))
  where phone is not null;
create index conversations_contact_channel_idx on public.conversations (contact_id, channel, last_message_at desc);

-- The service role's look-up of an account's active provider of one type,
-- secrets included (integration_credentials): the SMS job, the SMS hook's
-- signature check and Suggest reply. Never granted to a browser-facing role.
create function public.provider_credentials(p_account_id uuid, p_type text)
returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', i.id, 'account_id', i.account_id, 'config', public.integration_credentials(i.id))
    from public.integrations i
   where i.account_id = p_account_id and i.type = p_type and i.is_active
   order by i.created_at, i.id
   limit 1
$$;

-- The SMS hook's look-up: the integration the hook URL names, with its
-- credentials, when it is an active 'sms' integration.
create function public.sms_hook_credentials(p_integration_id uuid)
returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', i.id, 'account_id', i.account_id, 'config', public.integration_credentials(i.id))
    from public.integrations i
   where i.id = p_integration_id and i.type = 'sms' and i.is_active
$$;

-- One inbound SMS or WhatsApp message (Twilio's webhook, already verified)
-- into the helpdesk of the account whose integration the hook names. An
-- unknown number becomes a contact; a contact's messages on a channel are one
-- thread; a MessageSid already stored for the account is not stored again.
create function public.receive_sms(
  p_integration_id uuid, p_channel text, p_from text, p_body text, p_sid text,
  p_profile_name text default null, p_media text[] default '{}'
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
  perform private.emit_event(v_account, 'message_received', 'conversations', v_conversation,
                             jsonb_build_object('message_id', v_message, 'from', v_phone, 'channel', p_channel));
  return jsonb_build_object('conversation_id', v_conversation, 'message_id', v_message, 'duplicate', false);
end;
$$;

-- Twilio's status callback for an outbound message (already verified): the
-- message of the hook's account with that MessageSid moves on, never back
-- (a late 'sent' after 'delivered' changes nothing).
create function public.record_sms_status(p_integration_id uuid, p_sid text, p_status text, p_error_code text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
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
     and not (m.delivery_status = 'delivered' and v_status = 'sent')
     and m.delivery_status is distinct from v_status;
  return found;
end;
$$;

-- Outbound SMS and WhatsApp: a reply on such a conversation is queued for
-- the helpdesk.send_sms job when the account has an active 'sms'
-- integration; without one it is kept, failed, with the reason (never lost).
create function private.route_outbound_sms() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
create trigger messages_route_outbound_sms before insert on public.messages
  for each row execute function private.route_outbound_sms();

create function private.queue_outbound_sms() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.direction = 'outbound' and new.delivery_status = 'queued'
     and exists (select 1 from public.conversations c where c.id = new.conversation_id and c.channel in ('sms', 'whatsapp')) then
    perform private.enqueue_job('helpdesk.send_sms', new.account_id, jsonb_build_object('message_id', new.id),
                                'helpdesk.send_sms:' || new.id, new.id);
  end if;
  return null;
end;
$$;
create trigger messages_queue_outbound_sms after insert on public.messages
  for each row execute function private.queue_outbound_sms();
revoke all on function private.route_outbound_sms() from public, anon, authenticated, service_role;
revoke all on function private.queue_outbound_sms() from public, anon, authenticated, service_role;

-- Compose: a new conversation with one of the account's contacts on a
-- channel, its first message sent as a reply is (reply_to_conversation: the
-- mail job, or the SMS trigger above). The subject is a mail header: control
-- characters become spaces.
create function public.start_conversation(p_contact_id uuid, p_channel text, p_subject text, p_body text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- Canned replies: the account's library of ready answers, inserted into a
-- reply with {{contact_name}}, {{contact_first_name}} and {{agent_name}}
-- filled. Staff read; admins and members write.
create table public.canned_replies (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 120 and name !~ '[\x01-\x1f\x7f]'),
  body text not null check (length(btrim(body)) between 1 and 20000),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, name),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
create index canned_replies_created_by_idx on public.canned_replies (created_by);
create trigger canned_replies_set_updated_at before update on public.canned_replies
  for each row execute function private.set_updated_at();
create trigger canned_replies_audit after insert or update or delete on public.canned_replies
  for each row execute function private.audit_settings_record('canned_reply');
insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('canned_reply', 'public.canned_replies', 'r.name', null, false);

alter table public.canned_replies enable row level security;
revoke all on public.canned_replies from public, anon, authenticated, service_role;
grant select, delete on public.canned_replies to authenticated;
grant insert (account_id, name, body) on public.canned_replies to authenticated;
grant update (name, body) on public.canned_replies to authenticated;
grant all on public.canned_replies to service_role;
create policy "staff read their account's canned replies" on public.canned_replies
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add canned replies" on public.canned_replies
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers edit canned replies" on public.canned_replies
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete canned replies" on public.canned_replies
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- What a conversation's reply box offers, in the page's one round trip: the
-- canned replies with {{contact_name}}, {{contact_first_name}} and
-- {{agent_name}} filled for that conversation (as typed when none is given),
-- and whether an SMS and an AI provider are configured (the integrations
-- themselves are the admins' to read).
create function public.reply_tools(p_conversation_id uuid default null)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
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
$$;

revoke all on function public.provider_credentials(uuid, text) from public, anon, authenticated;
revoke all on function public.sms_hook_credentials(uuid) from public, anon, authenticated;
revoke all on function public.receive_sms(uuid, text, text, text, text, text, text[]) from public, anon, authenticated;
revoke all on function public.record_sms_status(uuid, text, text, text) from public, anon, authenticated;
revoke all on function public.start_conversation(uuid, text, text, text) from public, anon;
revoke all on function public.reply_tools(uuid) from public, anon;
grant execute on function public.provider_credentials(uuid, text) to service_role;
grant execute on function public.sms_hook_credentials(uuid) to service_role;
grant execute on function public.receive_sms(uuid, text, text, text, text, text, text[]) to service_role;
grant execute on function public.record_sms_status(uuid, text, text, text) to service_role;
grant execute on function public.start_conversation(uuid, text, text, text) to authenticated;
grant execute on function public.reply_tools(uuid) to authenticated;
