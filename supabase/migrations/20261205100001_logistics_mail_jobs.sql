-- Logistics mail through the jobs runner (issue 36, decision 077): the events
-- po_sent, shipment_delivered and shipment_exception each queue one job in the
-- same transaction that emits them (events -> job), so a mail is never sent in
-- the request and never twice:
--   po_sent             -> purchase_order_send  (the PO's PDF to the supplier), key per event:
--                          "Send again" mails again, a retried job does not;
--   shipment_delivered  -> shipment_notice, key per shipment (delivered once, told once);
--   shipment_exception  -> shipment_notice, key per event (each exception told once).
-- The handlers (app/features/purchase-orders/jobs.server.ts,
-- app/features/shipments/jobs.server.ts) read with the service role.

create function private.logistics_event_jobs() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.kind = 'po_sent' then
    perform private.enqueue_job('purchase_order_send', new.account_id,
                                jsonb_build_object('purchase_order_id', new.resource_id),
                                'purchase_order_send:' || new.id, new.resource_id);
  elsif new.kind = 'shipment_delivered' then
    perform private.enqueue_job('shipment_notice', new.account_id,
                                jsonb_build_object('shipment_id', new.resource_id, 'kind', 'delivered',
                                                   'event_id', new.payload ->> 'event_id'),
                                'shipment_delivered:' || new.resource_id, new.resource_id);
  elsif new.kind = 'shipment_exception' then
    perform private.enqueue_job('shipment_notice', new.account_id,
                                jsonb_build_object('shipment_id', new.resource_id, 'kind', 'exception',
                                                   'event_id', new.payload ->> 'event_id'),
                                'shipment_exception:' || coalesce(new.payload ->> 'event_id', new.id::text), new.resource_id);
  end if;
  return null;
end;
$$;
revoke all on function private.logistics_event_jobs() from public, anon, authenticated;

create trigger events_logistics_jobs after insert on public.events
  for each row when (new.kind in ('po_sent', 'shipment_delivered', 'shipment_exception'))
  execute function private.logistics_event_jobs();
