-- A mail whose From claims the account's own domain but whose authentication
-- failed (decision 071): flagged on the message, shown on the conversation.
-- The account's own domains are its users' mail domains and the From of its
-- mail route (the integration's from_email). The Worker reads the
-- Authentication-Results the receiving side added (DMARC pass, or DKIM pass
-- signed by the From's domain) and calls flag_unverified_sender otherwise;
-- the function flags only when the domain is the account's own.
alter table public.messages add column sender_unverified boolean not null default false;

create function public.flag_unverified_sender(p_message_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_message public.messages;
  v_domain text;
begin
  select * into v_message from public.messages m where m.id = p_message_id and m.direction = 'inbound';
  if not found then
    return false;
  end if;
  v_domain := split_part(lower(coalesce(v_message.sender_email, '')), '@', 2);
  if v_domain = '' or not (
       exists (select 1 from public.users u where u.account_id = v_message.account_id and split_part(lower(u.email), '@', 2) = v_domain)
    or exists (select 1 from public.integrations i where i.account_id = v_message.account_id
                and split_part(lower(coalesce(i.config ->> 'from_email', '')), '@', 2) = v_domain)) then
    return false;
  end if;
  update public.messages m set sender_unverified = true where m.id = v_message.id;
  return true;
end;
$$;
revoke all on function public.flag_unverified_sender(uuid) from public, anon, authenticated;
grant execute on function public.flag_unverified_sender(uuid) to service_role;
