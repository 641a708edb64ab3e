-- One contact per sender address for inbound mail (found by the JSON mail
-- hook's bench, bench/backend/helpdesk-inbound-email.ts, on PostgreSQL: 500
-- senders opening two threads each at once made more than 500 contacts).
-- receive_email looked its sender up and inserted a contact when none was
-- found, serialised only per Message-ID: two mails from one new address with
-- different Message-IDs, delivered at the same time, both found none and both
-- inserted. Now a per-account, per-address advisory lock is held from the
-- lookup to the transaction's end. tests/db/helpdesk-inbound-race.test.ts.
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
