-- When a client declines a quote, its owner and the account's admins are told
-- by mail with the reason (issue 31, decision 047). decline_quote is left as
-- it is: a trigger on the status queues one quote_declined job, keyed by the
-- quote, so however the quote came to be declined the job is queued once. The
-- job (app/features/quotes/public/quote-jobs.server.ts) queues one mail.send
-- per recipient, each keyed by quote and user, as quote_accepted does.
create or replace function private.queue_quote_declined_mail() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.enqueue_job('quote_declined', new.account_id, jsonb_build_object('quote_id', new.id),
                              'quote_declined:' || new.id, new.id);
  return null;
end;
$$;
revoke all on function private.queue_quote_declined_mail() from public;

create trigger quotes_declined_mail after update of status on public.quotes
  for each row when (new.status = 'declined' and old.status is distinct from 'declined')
  execute function private.queue_quote_declined_mail();
