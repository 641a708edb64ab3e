-- A delivery status moves only forward (security review): Twilio's status
-- callbacks carry no timestamp, so a late or replayed signed 'failed' or
-- 'undelivered' after 'delivered' must not mark a delivered message failed.
create or replace function public.record_sms_status(p_integration_id uuid, p_sid text, p_status text, p_error_code text default null)
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
     -- Only forward: a late or replayed 'sent' or 'failed' never undoes a delivery.
     and not (m.delivery_status = 'delivered' and v_status in ('sent', 'failed'))
     and m.delivery_status is distinct from v_status;
  return found;
end;
$$;
