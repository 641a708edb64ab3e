-- One contact and one conversation per number for inbound SMS and WhatsApp,
-- as 20261207150001 did for mail: receive_sms was serialised per MessageSid
-- only, so two messages from one new number delivered at the same time both
-- found no contact and both inserted one (and a conversation each). Found with
-- the SMS webhook bench on PostgreSQL (BENCH_SENDERS=2 BENCH_MESSAGES=20:
-- 8 contacts, 8 conversations). tests/db/helpdesk-inbound-race.test.ts.
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
