-- The CSAT mail, exactly once (decision 075). The job used to issue a token,
-- send the mail and then mark it sent: a runner that died between the send and
-- the mark sent a second mail with a second link on its retry. Now the job
-- makes the token, and one function records its hash, marks the request sent
-- and queues the mail ('mail.send', keyed by the conversation) in one
-- transaction: a retry after it committed finds the request sent and queues
-- nothing; a retry before it committed starts afresh.
create function public.queue_csat_mail(p_conversation_id uuid, p_token text, p_mail jsonb) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.queue_csat_mail(uuid, text, jsonb) from public, anon, authenticated;
grant execute on function public.queue_csat_mail(uuid, text, jsonb) to service_role;

-- Replaced by queue_csat_mail: nothing may issue a link without queueing its mail.
drop function public.issue_csat_link(uuid);
drop function public.mark_csat_sent(uuid);
